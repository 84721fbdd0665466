import { InferloopError } from "../errors/errors.js";

/** The oldest Node major the package runs on (`engines.node` in package.json). */
export const MIN_NODE_MAJOR = 22;

/**
 * Throws on Node older than {@link MIN_NODE_MAJOR}. Importing works there, but the first request
 * would die inside undici with a TypeError that names neither Node nor a version. Bun and Deno
 * report a Node version of their own compatibility layer, not the runtime's, so they are not
 * judged by it; browsers and workers have no `process.versions.node` at all.
 */
export function assertSupportedNode(
  versions: Record<string, string | undefined> | undefined = (
    globalThis as { process?: { versions?: Record<string, string | undefined> } }
  ).process?.versions,
): void {
  const node = versions?.node;
  if (node === undefined || versions?.bun !== undefined || versions?.deno !== undefined || "Deno" in globalThis) return;
  const major = Number.parseInt(node, 10);
  if (major < MIN_NODE_MAJOR)
    throw new InferloopError(
      `inferloop needs Node ${MIN_NODE_MAJOR} or newer, but this is Node ${node}: upgrade Node to ${MIN_NODE_MAJOR} or 24.`,
    );
}
