// The browser build's async context: a Workers runtime's global AsyncLocalStorage when there is
// one, nothing in a browser (where captureTrajectory then says to use the explicit form).
import { AsyncLocalStorage } from "node:async_hooks";
import { afterEach, expect, it } from "vitest";
import { createAsyncScope } from "../../../src/lib/capture/async-scope.browser.js";

const g = globalThis as { AsyncLocalStorage?: unknown };
afterEach(() => {
  delete g.AsyncLocalStorage;
});

it("has no scope where the runtime has no AsyncLocalStorage (a browser)", () => {
  expect(createAsyncScope()).toBeUndefined();
});

it("uses a global AsyncLocalStorage (workerd, edge runtimes) and keeps stores apart", async () => {
  g.AsyncLocalStorage = AsyncLocalStorage;
  const scope = createAsyncScope<string>()!;
  const seen = await Promise.all(
    ["a", "b"].map((store) =>
      scope.run(store, async () => {
        await new Promise((r) => setTimeout(r, 1));
        return scope.getStore();
      }),
    ),
  );
  expect(seen).toEqual(["a", "b"]);
  expect(scope.getStore()).toBeUndefined();
});
