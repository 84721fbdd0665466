import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeState, faults, SEED_PROJECT_ID } from "../../src/testing/index.js";
import { createHandlers } from "../../src/testing/msw.js";

const BASE = "http://fake.inferloop.test";
const state = createFakeState();
const server = setupServer(...createHandlers(state, { baseUrl: BASE }));
const bearer = { authorization: `Bearer ${state.credentials.apiKey}` };
const basic = { authorization: `Basic ${btoa(`${state.credentials.username}:${state.credentials.password}`)}` };

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => state.reset());
afterAll(() => server.close());

describe("msw handlers", () => {
  it("answer chat with the same deterministic reply, and record the request in the shared state", async () => {
    const res = await fetch(`${BASE}/v1/chat/completions`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ model: "Qwen/Qwen3-8B", messages: [{ role: "user", content: "echo from msw" }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]!.message.content).toBe("from msw");
    expect(state.requests.at(-1)!.path).toBe("/v1/chat/completions");
  });

  it("stream SSE and JSONL bodies", async () => {
    const chat = await fetch(`${BASE}/v1/chat/completions`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ model: "Qwen/Qwen3-8B", messages: [{ role: "user", content: "echo a b" }], stream: true }),
    });
    expect((await chat.text()).endsWith("data: [DONE]\n\n")).toBe(true);
    const calls = await fetch(`${BASE}/calls/stream_query`, {
      method: "POST",
      headers: { ...basic, "content-type": "application/json" },
      body: JSON.stringify({ project_id: SEED_PROJECT_ID, limit: 3 }),
    });
    expect(calls.headers.get("content-type")).toBe("application/jsonl");
    expect((await calls.text()).trimEnd().split("\n")).toHaveLength(3);
  });

  it("enforce auth and count training jobs in the shared state", async () => {
    const denied = await fetch(`${BASE}/v1/models`);
    expect(denied.status).toBe(401);
    const res = await fetch(`${BASE}/v1/preview/training-jobs`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json", "idempotency-key": "k" },
      body: JSON.stringify({ model_id: "3b241101-e2bb-4255-8caf-4136c566a962", trajectory_groups: [] }),
    });
    expect(res.status).toBe(200);
    expect(state.trainingJobs).toHaveLength(1);
  });

  it("turn a reset fault into a network error and status faults into responses", async () => {
    state.inject(faults.reset());
    await expect(fetch(`${BASE}/v1/models`, { headers: bearer })).rejects.toThrow();
    state.inject(faults.rateLimited({ retryAfter: 2 }));
    const limited = await fetch(`${BASE}/v1/models`, { headers: bearer });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
  });

  it("error the body stream on a mid-body reset", async () => {
    state.inject(faults.reset({ afterChunks: 2 }));
    const res = await fetch(`${BASE}/calls/stream_query`, {
      method: "POST",
      headers: { ...basic, "content-type": "application/json" },
      body: JSON.stringify({ project_id: SEED_PROJECT_ID, limit: 5 }),
    });
    await expect(res.text()).rejects.toThrow();
  });

  it("serve the training routes too: a model, a job that trains, its checkpoint, DELETE included", async () => {
    state.trainable.stepMs = 0;
    const post = (path: string, body: unknown, method = "POST") =>
      fetch(`${BASE}${path}`, {
        method,
        headers: { ...bearer, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const model = (await (
      await post("/v1/preview/models", { project: "rl", name: "m", base_model: "OpenPipe/Qwen3-14B-Instruct" })
    ).json()) as { id: string };
    const trajectory = { messages_and_choices: [{ role: "user", content: "hi" }], reward: 1 };
    const job = (await (
      await post("/v1/preview/training-jobs", {
        model_id: model.id,
        trajectory_groups: [{ trajectories: [trajectory] }],
      })
    ).json()) as { id: string };
    const events = (await (
      await fetch(`${BASE}/v1/preview/training-jobs/${job.id}/events`, { headers: bearer })
    ).json()) as {
      data: Array<{ type: string }>;
    };
    expect(events.data.map((e) => e.type)).toEqual(["training_started", "gradient_step", "training_ended"]);
    const deleted = await post(`/v1/preview/models/${model.id}/checkpoints`, { steps: [1] }, "DELETE");
    expect(await deleted.json()).toEqual({ deleted_count: 1, not_found_steps: [] });
  });
});
