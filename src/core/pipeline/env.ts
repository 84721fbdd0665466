/**
 * Reads an environment variable where the runtime has one (Node, Bun, Deno with `process`);
 * browsers and workers have none, and a locked-down Deno throws on access.
 */
export function readEnv(name: string): string | undefined {
  try {
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  } catch {
    return undefined;
  }
}
