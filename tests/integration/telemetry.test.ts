/**
 * OpenTelemetry spans over real HTTP to the fake service, recorded by the OpenTelemetry SDK's
 * in-memory exporter: one span per operation with the GenAI attributes, retries as events,
 * stream timings, errors, content only on opt-in, and no secrets. Before any provider is
 * registered the client makes no span at all.
 */

import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callEndpoint } from "../../src/core/pipeline/endpoint.js";
import type { HttpClient } from "../../src/core/pipeline/http-client.js";
import { RateLimitError, type TrainableModel } from "../../src/index.js";
import { faults, SEED_ITEM_IDS, SEED_PROJECT_ID, SEED_QUEUE_ID } from "../../src/testing/index.js";
import { requestCaseTables } from "../cases/request-case.js";
import { ENDPOINTS, endpointOf } from "../endpoints.js";
import { caught, clientFor, MODEL, seedDataset, useFakeService } from "./helpers.js";

const fake = useFakeService();

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const user = (content: string) => [{ role: "user" as const, content }];

it("makes no span before the app registers OpenTelemetry", async () => {
  await fake.client.models.list();
  expect(spans()).toHaveLength(0);
});

describe("with a tracer provider registered", () => {
  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
  });
  afterAll(async () => {
    trace.disable();
    await provider.shutdown();
  });
  beforeEach(() => exporter.reset());

  it("records a chat completion with the GenAI request and response attributes", async () => {
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("echo the secret plan"),
      temperature: 0.5,
      max_completion_tokens: 32,
      top_p: 0.9,
      stop: ["END"],
    });
    expect(spans()).toHaveLength(1);
    const span = spans()[0]!;
    expect(span.name).toBe(`chat ${MODEL}`);
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    const port = Number(new URL(fake.svc.url).port);
    expect(span.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": MODEL,
      "gen_ai.request.temperature": 0.5,
      "gen_ai.request.max_tokens": 32,
      "gen_ai.request.top_p": 0.9,
      "gen_ai.request.stop_sequences": ["END"],
      "gen_ai.response.id": completion.id,
      "gen_ai.response.finish_reasons": [completion.choices[0]!.finish_reason],
      "gen_ai.usage.input_tokens": completion.usage!.prompt_tokens,
      "gen_ai.usage.output_tokens": completion.usage!.completion_tokens,
      "server.address": "127.0.0.1",
      "server.port": port,
    });
    // Content stays out unless the app opts in; credentials never go in.
    const recorded = JSON.stringify({ attributes: span.attributes, events: span.events });
    expect(recorded).not.toContain("secret plan");
    expect(span.attributes).not.toHaveProperty("gen_ai.input.messages");
    expect(recorded).not.toContain(fake.svc.apiKey);
  });

  it("records a stream's time to the first token and its chunk count, ending with the stream", async () => {
    const stream = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("echo one two three four"),
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(spans()).toHaveLength(0);
    let chunks = 0;
    for await (const _ of stream) chunks++;
    expect(spans()).toHaveLength(1);
    const attributes = spans()[0]!.attributes;
    expect(attributes["gen_ai.request.stream"]).toBe(true);
    expect(attributes["inferloop.stream.chunk_count"]).toBe(chunks);
    expect(attributes["inferloop.stream.time_to_first_token_ms"]).toBeGreaterThanOrEqual(0);
    expect(attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
    expect(typeof attributes["gen_ai.response.id"]).toBe("string");
    expect(attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
  });

  it("marks a stream that carries an error event as failed", async () => {
    fake.svc.inject(faults.streamError({ afterChunks: 2, code: 500 }));
    const stream = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("echo a b c d"),
      stream: true,
    });
    await caught(async () => {
      for await (const _ of stream);
    });
    expect(spans()).toHaveLength(1);
    expect(spans()[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans()[0]!.attributes["error.type"]).toBe("InternalServerError");
  });

  it("records retries as events on the operation's one span", async () => {
    fake.svc.inject(faults.serviceUnavailable({ path: "/v1/models", times: 2 }));
    await clientFor(fake.svc, { maxRetries: 2 }).models.list();
    expect(spans()).toHaveLength(1);
    const span = spans()[0]!;
    expect(span.name).toBe("models.list");
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(
      span.events.map((e) => [e.name, e.attributes?.["inferloop.retry.attempt"], e.attributes?.["error.type"]]),
    ).toEqual([
      ["retry", 1, "InternalServerError"],
      ["retry", 2, "InternalServerError"],
    ]);
  });

  it("records a failed operation with error.type and an error status", async () => {
    fake.svc.inject(faults.rateLimited({ path: "/v1/models", retryAfterMs: 1, times: 2 }));
    const err = await caught(() => clientFor(fake.svc, { maxRetries: 1 }).models.list());
    expect(err).toBeInstanceOf(RateLimitError);
    const span = spans()[0]!;
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes["error.type"]).toBe("RateLimitError");
    expect(span.attributes["http.response.status_code"]).toBe(429);
    expect(span.events).toHaveLength(1);
  });

  it("makes one span per page request of a call query", async () => {
    const records = await fake.client.calls.query({ project_id: SEED_PROJECT_ID }, { pageSize: 200 }).toArray();
    expect(records.length).toBeGreaterThan(200);
    expect(spans().map((s) => s.name)).toEqual(["calls.query", "calls.query"]);
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain(fake.svc.password);
  });

  it("names every declared operation's span by its operation, never by a path or an id", async () => {
    const named = new Map<string, string>();
    const record = async (operation: string, call: () => Promise<unknown>) => {
      exporter.reset();
      await call();
      for (const span of spans()) named.set(span.attributes["gen_ai.operation.name"] as string, span.name);
      expect(spans().map((s) => s.attributes["gen_ai.operation.name"])).toContain(operation);
    };
    const reply = {
      index: 0,
      finish_reason: "stop" as const,
      logprobs: { content: [{ token: "hello", logprob: -0.1, bytes: null, top_logprobs: [] }] },
      message: { role: "assistant" as const, content: "hello" },
    };
    const trajectory_groups = [
      {
        trajectories: [
          { messages_and_choices: [{ role: "user" as const, content: "hi" }, reply], reward: 1 },
          { messages_and_choices: [{ role: "user" as const, content: "hi" }, reply], reward: 0 },
        ],
      },
    ];
    const base_model = "OpenPipe/Qwen3-14B-Instruct";
    await record("chat", () => fake.client.chat.completions.create({ model: MODEL, messages: user("hi") }));
    await record("models.list", () => fake.client.models.list());
    await record("calls.query", () => fake.client.calls.query({ project_id: SEED_PROJECT_ID, limit: 1 }).toArray());
    await record("annotation_queues.items.progress", () =>
      fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, SEED_ITEM_IDS[0]!, {
        annotation_state: "in_progress",
        project_id: SEED_PROJECT_ID,
      }),
    );
    const project_id = SEED_PROJECT_ID;
    let queueId = "";
    await record("annotation_queues.create", async () => {
      ({ id: queueId } = await fake.client.annotationQueues.create({ project_id, name: "Review", scorer_refs: [] }));
    });
    await record("annotation_queues.list", () => fake.client.annotationQueues.list({ project_id }).toArray());
    await record("annotation_queues.retrieve", () => fake.client.annotationQueues.retrieve(queueId, { project_id }));
    await record("annotation_queues.update", () =>
      fake.client.annotationQueues.update(queueId, { project_id, name: "R" }),
    );
    await record("annotation_queues.stats", () =>
      fake.client.annotationQueues.stats({ project_id, queue_ids: [queueId] }),
    );
    const [call] = await fake.client.calls.query({ project_id, limit: 1 }).toArray();
    await record("annotation_queues.items.add", () =>
      fake.client.annotationQueues.items.add(queueId, { project_id, call_ids: [call!.id] }),
    );
    await record("annotation_queues.items.list", () =>
      fake.client.annotationQueues.items.list(queueId, { project_id }).toArray(),
    );
    await record("annotation_queues.delete", () => fake.client.annotationQueues.delete(queueId, { project_id }));
    const feedback = {
      project_id,
      weave_ref: `weave:///${project_id}/call/${call!.id}`,
      feedback_type: "reward",
      payload: { value: 1 },
    };
    let feedbackId = "";
    await record("feedback.create", async () => {
      ({ id: feedbackId } = await fake.client.feedback.create(feedback));
    });
    await record("feedback.query", () => fake.client.feedback.query({ project_id }).toArray());
    await record("feedback.replace", async () => {
      ({ id: feedbackId } = await fake.client.feedback.replace({ ...feedback, feedback_id: feedbackId }));
    });
    await record("feedback.purge", () =>
      fake.client.feedback.purge({
        project_id,
        query: { $expr: { $eq: [{ $getField: "id" }, { $literal: feedbackId }] } },
      }),
    );
    await record("trainable_models.base_models", () => fake.client.trainableModels.baseModels());
    await record("trainable_models.create", () =>
      fake.client.trainableModels.create({ project: "rl", name: "made", base_model }),
    );
    let model!: TrainableModel;
    await record("trainable_models.register", async () => {
      model = await fake.client.trainableModels.register({ project: "rl", name: "agent", base_model });
    });
    await record("trainable_models.log", () =>
      fake.client.trainableModels.log(model.id, { split: "val", trajectory_groups }),
    );
    let jobId = "";
    await record("training_jobs.create", async () => {
      ({ id: jobId } = await fake.client.trainingJobs.create({ model_id: model.id, trajectory_groups }));
    });
    await record("training_jobs.retrieve", () => fake.client.trainingJobs.retrieve(jobId));
    await record("training_jobs.events.list", () => fake.client.trainingJobs.events.list(jobId).toArray());
    await seedDataset(fake.client, "wandb-artifact:///a/rl/d:v0");
    await record("sft_training_jobs.create", () =>
      fake.client.sftTrainingJobs.create({ model_id: model.id, training_data_url: "wandb-artifact:///a/rl/d:v0" }),
    );
    await record("trainable_models.checkpoints.list", () =>
      fake.client.trainableModels.checkpoints.list(model.id).toArray(),
    );
    await record("trainable_models.checkpoints.delete", () =>
      fake.client.trainableModels.checkpoints.delete(model.id, { steps: [1] }),
    );
    // An upload is five GraphQL operations, a read three; storage requests are not operations.
    await record("artifacts.create", () =>
      fake.client.artifacts.upload({
        entity: "acme",
        project: "rl",
        name: "spans",
        type: "dataset",
        files: [{ name: "f", data: "x" }],
      }),
    );
    // A file over the multipart threshold is completed by one more operation.
    await record("artifacts.complete_multipart_upload", () =>
      fake.client.artifacts.upload({
        entity: "acme",
        project: "rl",
        name: "spans-in-parts",
        type: "dataset",
        multipart: { threshold: 1, partSize: 5 * 1024 * 1024 },
        files: [{ name: "f", data: "in one part" }],
      }),
    );
    await record("artifacts.file_urls", async () => {
      for await (const file of fake.client.artifacts.files("acme/rl/spans:v0")) await file.body.cancel();
    });
    await record("sft_training_jobs.create", () =>
      model.trainSFT(
        [
          {
            messages: [
              { role: "user", content: "hi" },
              { role: "assistant", content: "yo" },
            ],
          },
        ],
        { pollInterval: 5 },
      ),
    );
    // A loop's metrics reach the model's W&B run: its resume status, the upsert, the file stream.
    await record("wandb_runs.file_stream", async () => {
      const steps = (await model.latestStep()) + 1;
      for await (const s of model.trainLoop({ steps, maxStepsOffPolicy: 0, rollouts: () => trajectory_groups }))
        expect(s.step).toBe(steps);
    });
    await record("trainable_models.delete", () => fake.client.trainableModels.delete(model.id));

    // An operation not called above is called through an accepted row of the request-case tables
    // (tests/cases/request-case.ts), so an endpoint with rows needs no line here.
    const http = (fake.client.models as unknown as { _http: HttpClient })._http;
    for (const [, cases] of await requestCaseTables())
      for (const c of cases)
        if ("accepted" in c.real && c.sdk === "sends" && !named.has(c.operation))
          await record(c.operation, () =>
            callEndpoint(
              http,
              endpointOf(c.operation) as never,
              { params: c.params, pathArguments: c.pathArguments } as never,
              undefined,
            ),
          );

    // Every operation an endpoint declares is covered: a new endpoint fails here until it is.
    // An endpoint of a GenAI operation is named by that convention (`chat {model}`).
    const declared = new Set([...ENDPOINTS.values()].map((ep) => ep.hooks?.genAiOperation ?? ep.operation));
    expect([...named.keys()].sort()).toEqual([...declared].sort());
    for (const [operation, name] of named) {
      expect(name).toBe(operation === "chat" ? `chat ${MODEL}` : operation);
      if (operation !== "chat") expect(name).not.toMatch(/\/|[0-9a-f]{8}-[0-9a-f]{4}/);
    }
  });

  it("records messages and replies only when the client opts in", async () => {
    const optedIn = clientFor(fake.svc, { telemetry: { recordContent: true } });
    await optedIn.chat.completions.create({ model: MODEL, messages: user("echo hello there") });
    const attributes = spans()[0]!.attributes;
    expect(JSON.parse(attributes["gen_ai.input.messages"] as string)).toEqual(user("echo hello there"));
    expect(JSON.parse(attributes["gen_ai.output.messages"] as string)).toEqual([
      { role: "assistant", content: "hello there" },
    ]);
  });
});
