/** `await using svc = await startFakeService()`: the service closes with the block that holds it. */
import { describe, expect, expectTypeOf, it } from "vitest";
import { type FakeService, startFakeService } from "../../src/testing/index.js";

describe("the fake service is async-disposable", () => {
  it("closes when an `await using` block ends, refusing connections afterwards", async () => {
    let url = "";
    {
      await using svc = await startFakeService();
      url = svc.url;
      expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${svc.apiKey}` } })).status).toBe(
        200,
      );
    }
    await expect(fetch(`${url}/v1/models`)).rejects.toThrow(TypeError);
  });

  it("closes when the block is left by a throw, and a later close() is harmless", async () => {
    let kept: FakeService | undefined;
    await expect(
      (async () => {
        await using svc = await startFakeService();
        kept = svc;
        throw new Error("test failed inside");
      })(),
    ).rejects.toThrow("test failed inside");
    await expect(fetch(`${kept!.url}/v1/models`)).rejects.toThrow(TypeError);
    await expect(kept!.close()).resolves.toBeUndefined();
  });

  it("declares Symbol.asyncDispose in its type", () => {
    expectTypeOf<FakeService>().toExtend<AsyncDisposable>();
    expectTypeOf<FakeService[typeof Symbol.asyncDispose]>().toEqualTypeOf<() => Promise<void>>();
  });
});
