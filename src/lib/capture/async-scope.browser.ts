// Browsers have no async context yet. Workers runtimes that do (workerd with `nodejs_als` or
// `nodejs_compat`, Vercel's edge runtime) expose `AsyncLocalStorage` as a global.
import type { AsyncScope } from "./async-scope.js";

export type { AsyncScope } from "./async-scope.js";

type StorageClass = new <T>() => AsyncScope<T>;

/** A new async-context store, or undefined where the runtime has none. */
export function createAsyncScope<T>(): AsyncScope<T> | undefined {
  const Storage = (globalThis as { AsyncLocalStorage?: StorageClass }).AsyncLocalStorage;
  return typeof Storage === "function" ? new Storage<T>() : undefined;
}
