// Node, Bun and Deno (which load this build) all have node:async_hooks. The browser build swaps
// this module for `async-scope.browser.ts`, so no Node module reaches a browser bundle.
import { AsyncLocalStorage } from "node:async_hooks";

/** The part of `AsyncLocalStorage` a capture uses. */
export interface AsyncScope<T> {
  getStore(): T | undefined;
  run<R>(store: T, fn: () => R): R;
}

/** A new async-context store, or undefined where the runtime has none. */
export function createAsyncScope<T>(): AsyncScope<T> | undefined {
  return new AsyncLocalStorage<T>();
}
