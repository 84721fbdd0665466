/**
 * A warning the user sees by default, once per process: through `process.emitWarning` where
 * the runtime has it (Node prints it on stderr, `--no-warnings` silences it, `process.on("warning")`
 * receives it), else `console.warn`. For mistakes that return wrong data without an error,
 * which the logger (off by default) would hide.
 *
 * @module
 */

const warned = new Set<string>();

/**
 * Emits `message` once per process for `code`; later calls with the same code do nothing.
 */
export function warnOnce(code: string, message: string): void {
  if (warned.has(code)) return;
  warned.add(code);
  const proc = (globalThis as { process?: { emitWarning?: (m: string, o: object) => void } }).process;
  if (typeof proc?.emitWarning === "function") proc.emitWarning(message, { type: "InferloopWarning", code });
  else console.warn(`InferloopWarning: ${message}`);
}
