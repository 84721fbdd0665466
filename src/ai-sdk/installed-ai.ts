/**
 * `inferloop/ai-sdk` makes models of specification v4, which only `ai` 7 takes: `ai` 6 refuses
 * them inside its own code ("Unsupported model version v4", vercel/ai `packages/ai/src/model/
 * resolve-model.ts`) before inferloop is called, so the way out is said when the provider is
 * made, where the app's `ai` can be read: Node, Bun and Deno have `process.getBuiltinModule`, and
 * `ai` exports its package.json. It is resolved from the working directory (this module's own
 * location is not known in both of its builds); anywhere else nothing is said.
 */

interface NodeModule {
  createRequire(path: string): (id: string) => unknown;
}

/** The version of the `ai` package the app in `dir` resolves, or undefined where it cannot be read. */
export function installedAiVersion(dir?: string): string | undefined {
  try {
    const proc = (globalThis as { process?: { cwd(): string; getBuiltinModule?(id: string): unknown } }).process;
    const module = proc?.getBuiltinModule?.("node:module") as NodeModule | undefined;
    if (module === undefined || proc === undefined) return undefined;
    const from = `${(dir ?? proc.cwd()).replace(/[\\/]+$/, "")}/package.json`;
    const version = (module.createRequire(from)("ai/package.json") as { version?: unknown }).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

let said = false;

/** Says once per process that this entry's models will not work with the app's `ai`, and what will. */
export function sayWhenAiIsOlder(): void {
  if (said) return;
  said = true;
  const version = installedAiVersion();
  const major = version === undefined ? Number.NaN : Number.parseInt(version, 10);
  if (!(major < 7)) return;
  const message =
    major === 6
      ? `inferloop/ai-sdk makes models of specification v4, which ai 7 takes; this app has ai ${version}, which refuses them ("Unsupported model version v4"): import { createInferloopProvider } from 'inferloop/ai-sdk/v3' instead (the same provider, specification v3).`
      : `inferloop/ai-sdk makes models of specification v4 (ai 7), inferloop/ai-sdk/v3 those of v3 (ai 6); this app has ai ${version}: upgrade ai to 6 or 7.`;
  const proc = (globalThis as { process?: { emitWarning?: (m: string, o: object) => void } }).process;
  if (typeof proc?.emitWarning === "function")
    proc.emitWarning(message, { type: "InferloopWarning", code: "INFERLOOP_AI_SDK_VERSION" });
  else console.warn(`InferloopWarning: ${message}`);
}
