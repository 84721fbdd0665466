/**
 * The one rule for findings that do not throw (an ignored `svc_*` filter, a bare op name, a
 * training job's uniform rewards...), {@link warnFinding}: a client whose log takes `warn`
 * (a `logLevel` of `warn` or louder) gets each one in its logger, where its user asked for
 * them; otherwise, at the default level too, the user sees each kind once per process
 * through `process.emitWarning` where the runtime has it (type `InferloopWarning`, a code per
 * kind: Node prints it on stderr, `process.on("warning")` receives it), else `console.warn`;
 * never both.
 *
 * To silence them: `node --disable-warning=InferloopWarning` (all of them) or
 * `--disable-warning=INFERLOOP_UNIFORM_REWARDS` (one kind), also through `NODE_OPTIONS`;
 * `--no-warnings` silences every warning of the process.
 *
 * @module
 */

import type { Log } from "./log.js";

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

/**
 * A finding that does not throw: written to `log` at `warn` when the client's log takes it,
 * else {@link warnOnce} (once per process per `code`).
 */
export function warnFinding(log: Log, code: string, message: string): void {
  if (log.enabled("warn")) log.write("warn", message);
  else warnOnce(code, message);
}
