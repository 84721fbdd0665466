// The package needs Node 22+: older Node gets one clear error at the first use (the client's
// constructor), not a TypeError from inside undici at the first request.
import { describe, expect, it } from "vitest";
import { assertSupportedNode } from "../../src/core/pipeline/node-version.js";
import { Inferloop, InferloopError } from "../../src/index.js";

describe("the Node version check", () => {
  it("refuses Node 20 and 18, naming the running version and the one needed", () => {
    for (const node of ["20.20.2", "18.19.0"]) {
      let err: unknown;
      try {
        assertSupportedNode({ node });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InferloopError);
      expect((err as Error).message).toBe(
        `inferloop needs Node 22 or newer, but this is Node ${node}: upgrade Node to 22 or 24.`,
      );
    }
  });

  it("accepts Node 22 and newer", () => {
    for (const node of ["22.0.0", "22.12.0", "24.21.0", "25.1.0"])
      expect(() => assertSupportedNode({ node })).not.toThrow();
  });

  it("leaves runtimes without a Node version, and Bun and Deno (their own compatibility layers), alone", () => {
    expect(() => assertSupportedNode(undefined)).not.toThrow();
    expect(() => assertSupportedNode({})).not.toThrow();
    expect(() => assertSupportedNode({ node: "20.11.1", bun: "1.1.0" })).not.toThrow();
    expect(() => assertSupportedNode({ node: "20.11.1", deno: "2.0.0" })).not.toThrow();
  });

  it("passes on the Node running these tests, so constructing a client works", () => {
    expect(() => new Inferloop({ baseURL: "http://127.0.0.1:1" })).not.toThrow();
  });
});
