/**
 * `Symbol.asyncDispose`, or the registered stand-in that polyfills use where the runtime has no
 * explicit resource management yet, so `await using` works wherever it can be written.
 */
export const asyncDispose: typeof Symbol.asyncDispose =
  Symbol.asyncDispose ?? (Symbol.for("Symbol.asyncDispose") as typeof Symbol.asyncDispose);
