/**
 * One client for all of W&B: each service on its own base URL and auth (inference and training
 * Bearer, trace Basic username:password, W&B's own API Basic api:<key>), W&B's four hosts when
 * no base URL is given at all, `baseURL` alone serving everything, and a trained model's chat on
 * the Training host.
 */

import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { HttpClient } from "../../src/core/pipeline/http-client.js";
import { APIError, type TrainableModel, tool } from "../../src/index.js";
import { captureWarnings } from "../warnings.js";
import { BASE, chatParams, chatReply, KEY, MODEL_ID, makeClient, trajectoryGroups, useMsw } from "./msw-setup.js";

const { server, seen } = useMsw();

const W = {
  inference: "https://api.inference.wandb.ai",
  trace: "https://trace.wandb.ai",
  training: "https://api.training.wandb.ai",
  wandb: "https://api.wandb.ai",
};
const TRAINING = "https://training.inferloop.test";
const model = {
  id: MODEL_ID,
  entity: "acme",
  project: "rl",
  name: "agent",
  base_model: "OpenPipe/Qwen3-14B-Instruct",
  run_id: "r1",
};

/** Answers chat, models, training, trace and GraphQL on each of the given origins. */
function serveOn(...origins: string[]) {
  for (const o of origins)
    server.use(
      http.post(`${o}/v1/chat/completions`, () => HttpResponse.json(chatReply)),
      http.get(`${o}/v1/models`, () => HttpResponse.json({ object: "list", data: [] })),
      http.post(`${o}/v1/preview/training-jobs`, () => HttpResponse.json({ id: "job-1" })),
      http.post(`${o}/v1/preview/sft-training-jobs`, () => HttpResponse.json({ id: "sft-1" })),
      http.post(`${o}/v1/preview/models`, () => HttpResponse.json(model)),
      http.post(`${o}/annotation_queues/:q/items/:i/progress`, () => HttpResponse.json({ item: { id: "i" } })),
      http.post(`${o}/graphql`, () => HttpResponse.json({ data: {} })),
    );
}

const progress = { annotation_state: "completed" as const, project_id: "acme/bot" };
const sft = { model_id: MODEL_ID, training_data_url: "wandb-artifact:///acme/rl/data:v0" };

/** A request on the `wandb` service (W&B's GraphQL), as the artifacts namespace sends one. */
function graphql(client: ReturnType<typeof makeClient>) {
  const httpClient = (client.trainingJobs as unknown as { _http: HttpClient })._http;
  return httpClient.request(
    {
      operation: "test.graphql",
      method: "POST",
      path: "/graphql",
      service: "wandb",
      retry: "safe",
      body: { query: "{ viewer { id } }" },
    },
    undefined,
    () => undefined,
  );
}

describe("where each service lives", () => {
  it("with no base URL at all, each service goes to W&B's host with its own auth", async () => {
    serveOn(...Object.values(W));
    const client = makeClient({ baseURL: undefined });
    expect([client.baseURL, client.traceBaseURL, client.trainingBaseURL, client.wandbBaseURL]).toEqual(
      Object.values(W),
    );
    await client.models.list();
    await client.annotationQueues.items.progress("q", "i", progress);
    // A one-trajectory group teaches nothing (a finding): this test is about where it goes.
    const warnings = captureWarnings();
    await client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: trajectoryGroups });
    expect(warnings.codes()).toEqual(["INFERLOOP_UNIFORM_REWARDS"]);
    await client.sftTrainingJobs.create(sft);
    await graphql(client);
    expect(seen.map((r) => `${r.url.origin}${r.url.pathname}`)).toEqual([
      `${W.inference}/v1/models`,
      `${W.trace}/annotation_queues/q/items/i/progress`,
      `${W.training}/v1/preview/training-jobs`,
      `${W.training}/v1/preview/sft-training-jobs`,
      `${W.wandb}/graphql`,
    ]);
    const auth = seen.map((r) => r.headers.get("authorization"));
    expect(auth[0]).toBe(`Bearer ${KEY}`);
    expect(auth[1]).toBe(`Basic ${btoa(`api:${KEY}`)}`);
    expect(auth[2]).toBe(`Bearer ${KEY}`);
    expect(auth[3]).toBe(`Bearer ${KEY}`);
    expect(auth[4]).toBe(`Basic ${btoa(`api:${KEY}`)}`);
  });

  it("W&B's own API takes Basic api:<key> even when the trace server has another username", async () => {
    serveOn(BASE);
    await graphql(makeClient({ username: "alice", password: "pw-123456789" }));
    expect(seen[0]!.headers.get("authorization")).toBe(`Basic ${btoa(`api:${KEY}`)}`);
  });

  it("a baseURL alone serves every service (a vLLM, the fake)", async () => {
    serveOn(BASE);
    const client = makeClient();
    expect([client.traceBaseURL, client.trainingBaseURL, client.wandbBaseURL]).toEqual([BASE, BASE, BASE]);
    await client.models.list();
    await client.sftTrainingJobs.create(sft);
    await graphql(client);
    expect(seen.map((r) => r.url.origin)).toEqual([BASE, BASE, BASE]);
  });

  it("reads INFERLOOP_TRAINING_BASE_URL, INFERLOOP_WANDB_BASE_URL and INFERLOOP_TRACE_BASE_URL", () => {
    process.env.INFERLOOP_TRAINING_BASE_URL = TRAINING;
    process.env.INFERLOOP_WANDB_BASE_URL = "https://wandb.inferloop.test";
    process.env.INFERLOOP_TRACE_BASE_URL = "https://trace.inferloop.test";
    const client = makeClient({ baseURL: undefined });
    expect(client.baseURL).toBe(W.inference);
    expect(client.trainingBaseURL).toBe(TRAINING);
    expect(client.wandbBaseURL).toBe("https://wandb.inferloop.test");
    expect(client.traceBaseURL).toBe("https://trace.inferloop.test");
  });

  it("options beat the environment: a baseURL option keeps every service off the env's hosts", () => {
    process.env.INFERLOOP_TRAINING_BASE_URL = TRAINING;
    expect(makeClient().trainingBaseURL).toBe(BASE);
    expect(makeClient({ trainingBaseURL: "https://t2.inferloop.test" }).trainingBaseURL).toBe(
      "https://t2.inferloop.test",
    );
    process.env.INFERLOOP_BASE_URL = "https://env.inferloop.test";
    // The service's own variable beats the general one.
    expect(makeClient({ baseURL: undefined }).trainingBaseURL).toBe(TRAINING);
    expect(makeClient({ baseURL: undefined }).wandbBaseURL).toBe("https://env.inferloop.test");
  });

  it("trainingBaseURL takes trainable models and training and SFT jobs; chat stays on baseURL", async () => {
    serveOn(BASE, TRAINING);
    const client = makeClient({ trainingBaseURL: TRAINING });
    await client.chat.completions.create(chatParams);
    await client.trainableModels.create({ project: "rl", name: "agent", base_model: model.base_model });
    await client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: trajectoryGroups });
    await client.sftTrainingJobs.create(sft);
    expect(seen.map((r) => r.url.origin)).toEqual([BASE, TRAINING, TRAINING, TRAINING]);
  });

  // The one rule for wandb-artifact:/// names: sampled on the host that serves them.
  it("model.chat samples a trained checkpoint on the Training host (runTools too); client.chat a deployed adapter", async () => {
    serveOn(BASE, TRAINING);
    const client = makeClient({ trainingBaseURL: TRAINING });
    const m: TrainableModel = await client.trainableModels.register({
      project: "rl",
      name: "agent",
      base_model: model.base_model,
    });
    await m.chat.completions.create({ ...chatParams, model: m.inferenceName(3) });
    const echo = tool({ name: "echo", parameters: z.object({ text: z.string() }), run: ({ text }) => text });
    await m.chat.completions.runTools({ ...chatParams, model: m.inferenceName(3), tools: [echo] }).done();
    await client.chat.completions.create({ ...chatParams, model: "wandb-artifact:///acme/support/lora:latest" });
    expect(seen.map((r) => `${r.url.origin}${r.url.pathname}`)).toEqual([
      `${TRAINING}/v1/preview/models`,
      `${TRAINING}/v1/chat/completions`,
      `${TRAINING}/v1/chat/completions`,
      `${BASE}/v1/chat/completions`,
    ]);
    expect(seen[1]!.headers.get("authorization")).toBe(`Bearer ${KEY}`);
    // The handle's chat is not one of its data members.
    expect(Object.keys(m)).not.toContain("chat");
    expect(JSON.stringify(m)).not.toContain(KEY);
  });

  it("a redirect on the Training host is not followed and names trainingBaseURL", async () => {
    server.use(
      http.post(
        `${TRAINING}/v1/preview/sft-training-jobs`,
        () =>
          new HttpResponse(null, {
            status: 308,
            headers: { location: "https://evil.test/v1/preview/sft-training-jobs" },
          }),
      ),
    );
    const err = await makeClient({ trainingBaseURL: TRAINING })
      .sftTrainingJobs.create(sft)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as Error).message).toContain("`trainingBaseURL`");
    expect(seen.map((r) => r.url.origin)).toEqual([TRAINING]);
  });

  it("never prints the W&B API's Basic credential, whatever the trace server's username", async () => {
    server.use(
      http.post(`${BASE}/graphql`, () =>
        HttpResponse.json({ error: { message: `bad credential ${btoa(`api:${KEY}`)}` } }, { status: 400 }),
      ),
    );
    const err = await graphql(makeClient({ username: "alice", password: "pw-123456789" })).catch((e: unknown) => e);
    expect((err as Error).message).toContain("bad credential");
    expect((err as Error).message).not.toContain(btoa(`api:${KEY}`));
  });
});
