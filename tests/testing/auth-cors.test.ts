import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";
import { startFakeService } from "../../src/testing/index.js";
import { basic, bearer, postJson, queryCalls } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService({ apiKey: "secret-key", username: "tester" });
});
afterAll(() => svc.close());

describe("auth", () => {
  it("exposes the credentials it accepts, with the documented defaults", async () => {
    expect(svc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(svc.apiKey).toBe("secret-key");
    expect(svc.username).toBe("tester");
    expect(svc.password).toBe("secret-key");
    const defaults = await startFakeService();
    try {
      expect([defaults.apiKey, defaults.username, defaults.password]).toEqual(["fake-api-key", "api", "fake-api-key"]);
    } finally {
      await defaults.close();
    }
  });

  it("accepts Bearer on /v1 routes and refuses a missing or wrong key with 401", async () => {
    expect((await fetch(`${svc.url}/v1/models`, { headers: bearer(svc) })).status).toBe(200);
    const missing = await fetch(`${svc.url}/v1/models`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: { message: "Authentication failed", type: "AuthenticationError", param: null, code: 401 },
    });
    const wrong = await fetch(`${svc.url}/v1/models`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
  });

  it("refuses Basic credentials on /v1 routes and Bearer on trace routes", async () => {
    expect((await fetch(`${svc.url}/v1/models`, { headers: basic(svc) })).status).toBe(401);
    const res = await postJson(svc, "/calls/stream_query", { project_id: "acme/support-bot", limit: 1 }, bearer(svc));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ reason: "Authentication failed" });
  });

  it("accepts Basic username:password on trace routes and refuses a wrong password", async () => {
    expect((await queryCalls(svc, { project_id: "acme/support-bot", limit: 1 })).status).toBe(200);
    const wrong = Buffer.from("tester:other").toString("base64");
    const res = await postJson(
      svc,
      "/calls/stream_query",
      { project_id: "acme/support-bot" },
      { authorization: `Basic ${wrong}` },
    );
    expect(res.status).toBe(401);
    const progress = await postJson(
      svc,
      "/annotation_queues/q/items/i/progress",
      { annotation_state: "completed", project_id: "a/b" },
      {},
    );
    expect(progress.status).toBe(401);
  });

  it("records every request with lower-cased headers, raw body and parsed json", async () => {
    const before = svc.requests.length;
    await fetch(`${svc.url}/v1/models?x=1`, { headers: { ...bearer(svc), "Client-Project": "acme/support-bot" } });
    const recorded = svc.requests[before]!;
    expect(recorded.method).toBe("GET");
    expect(recorded.path).toBe("/v1/models");
    expect(recorded.query).toBe("?x=1");
    expect(recorded.headers["client-project"]).toBe("acme/support-bot");
    expect(recorded.body).toBe("");
    expect(recorded.json).toBeUndefined();
    await postJson(svc, "/v1/chat/completions", { messages: [] }, bearer(svc));
    expect(svc.requests.at(-1)!.json).toEqual({ messages: [] });
    expect(svc.requests.at(-1)!.body).toBe('{"messages":[]}');
  });
});

describe("models", () => {
  it("lists the served models in the W&B shape", async () => {
    const res = await fetch(`${svc.url}/v1/models`, { headers: bearer(svc) });
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = (await res.json()) as { object: string; data: Array<Record<string, unknown>> };
    expect(body.object).toBe("list");
    expect(body.data[0]).toEqual({
      id: "Qwen/Qwen3-8B",
      object: "model",
      created: 0,
      owned_by: "system",
      root: "Qwen/Qwen3-8B",
    });
  });

  it("serves the models given as an option", async () => {
    const custom = await startFakeService({ models: ["only/one"] });
    try {
      const body = (await (await fetch(`${custom.url}/v1/models`, { headers: bearer(custom) })).json()) as {
        data: Array<{ id: string }>;
      };
      expect(body.data.map((m) => m.id)).toEqual(["only/one"]);
    } finally {
      await custom.close();
    }
  });
});

describe("cors, request ids, unknown routes", () => {
  it("answers a preflight with 204 and the allow headers, without auth", async () => {
    const res = await fetch(`${svc.url}/v1/chat/completions`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("puts CORS headers and x-request-id on every response, errors included", async () => {
    for (const res of [
      await fetch(`${svc.url}/v1/models`, { headers: bearer(svc) }),
      await fetch(`${svc.url}/v1/models`),
    ]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-expose-headers")).toContain("x-request-id");
      expect(res.headers.get("x-request-id")).toMatch(/^req-[0-9a-f]{24}$/);
    }
  });

  it("echoes a client-sent x-request-id", async () => {
    const res = await fetch(`${svc.url}/v1/models`, { headers: { ...bearer(svc), "x-request-id": "my-id-1" } });
    expect(res.headers.get("x-request-id")).toBe("my-id-1");
  });

  it("answers 404 for unknown paths and 405 for a wrong method", async () => {
    const notFound = await fetch(`${svc.url}/v2/nothing`);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ detail: "Not Found" });
    const wrongMethod = await fetch(`${svc.url}/v1/models`, { method: "POST", headers: bearer(svc) });
    expect(wrongMethod.status).toBe(405);
  });
});
