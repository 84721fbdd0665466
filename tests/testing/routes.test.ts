/** The route table: each route declared once; 404, 405 and auth answered from its rows. */
import { describe, expect, it } from "vitest";
import { createFakeState } from "../../src/testing/index.js";
import { handle, ROUTES } from "../../src/testing/router.js";
import type { FakeRequest, ResponsePlan } from "../../src/testing/types.js";

function request(method: string, path: string, headers: Record<string, string> = {}): FakeRequest {
  return { method, path, query: "", headers, body: "", json: undefined, signal: new AbortController().signal };
}

function respond(plan: ResponsePlan): Extract<ResponsePlan, { kind: "respond" }> {
  if (plan.kind !== "respond") throw new Error("expected a response, got a reset");
  return plan;
}

describe("the route table", () => {
  it("declares each method and path once", () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("answers 405 with every method the path serves in `allow`, before checking auth", async () => {
    const state = createFakeState({ seedCalls: false });
    const plan = respond(await handle(request("POST", "/v1/preview/models/m-1/checkpoints"), state));
    expect(plan.status).toBe(405);
    expect(plan.headers["allow"]).toBe("GET, DELETE");
  });

  it("answers 404 for a path no route matches, whatever the method", async () => {
    const state = createFakeState({ seedCalls: false });
    for (const path of ["/v1/preview/models/m-1/unknown", "/annotation_queues/q/items/i", "/"])
      expect(respond(await handle(request("GET", path), state)).status).toBe(404);
  });

  it("takes the key alone in `wandb-api-key` on the OTLP route only", async () => {
    const state = createFakeState({ seedCalls: false, apiKey: "k-1" });
    const key = { "wandb-api-key": "k-1" };
    const otlp = respond(await handle(request("POST", "/otel/v1/traces", key), state));
    expect(otlp.status).not.toBe(401);
    const calls = respond(await handle(request("POST", "/calls/stream_query", key), state));
    expect(calls.status).toBe(401);
    const models = respond(await handle(request("GET", "/v1/models", key), state));
    expect(models.status).toBe(401);
  });
});
