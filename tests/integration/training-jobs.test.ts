/**
 * Training-job creation over real HTTP: the job is created once, bad input is refused before
 * sending, the server's 422 detail is kept, and retries never create a duplicate: only with an
 * idempotency key, or when the request provably never reached the server.
 */

import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  Inferloop,
  InternalServerError,
  type Logger,
  RequestValidationError,
  type TrainingJobCreateParams,
  UnprocessableEntityError,
} from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { EVERY_SETTING } from "../cases/training-api-cases.js";
import { captureWarnings } from "../warnings.js";
import { caught, clientFor, closedPort, MODEL_ID, useFakeService } from "./helpers.js";

const JOBS = "/v1/preview/training-jobs";
const NOT_RETRIED =
  "Not retried on purpose: it may have reached the server, and a retry could create a duplicate training job; pass `idempotencyKey` to make it retryable.";

const fake = useFakeService({ seedCalls: false });

function params(overrides: Partial<TrainingJobCreateParams> = {}): TrainingJobCreateParams {
  return {
    model_id: MODEL_ID,
    trajectory_groups: [
      {
        trajectories: [
          {
            messages_and_choices: [
              { role: "system", content: "You are a solver." },
              { role: "user", content: "2+2?" },
              {
                finish_reason: "stop",
                index: 0,
                logprobs: { content: [{ token: "4", logprob: -0.1, bytes: null, top_logprobs: [] }] },
                message: { role: "assistant", content: "4" },
              },
            ],
            reward: 1,
            metrics: { correct: true, steps: 1 },
            start_time: "2025-03-18T17:04:12.345Z",
          },
          {
            messages_and_choices: [
              { role: "user", content: "2+2?" },
              {
                finish_reason: "stop",
                index: 0,
                logprobs: { content: [{ token: "5", logprob: -0.1, bytes: null, top_logprobs: [] }] },
                message: { role: "assistant", content: "5" },
              },
            ],
            reward: 0,
          },
        ],
      },
    ],
    experimental_config: { learning_rate: 1e-5, ppo: true },
    ...overrides,
  };
}

describe("trainingJobs.create", () => {
  it("returns {id} and the service holds exactly one job with the body as sent", async () => {
    const body = params();
    const job = await fake.client.trainingJobs.create(body);
    expect(job.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(fake.svc.trainingJobs).toHaveLength(1);
    expect(fake.svc.trainingJobs[0]!.id).toBe(job.id);
    expect(fake.svc.trainingJobs[0]!.model_id).toBe(MODEL_ID);
    expect(fake.svc.trainingJobs[0]!.idempotency_key).toBeNull();
    expect(fake.svc.requests[0]!.json).toStrictEqual(body);
    expect(fake.svc.requests[0]!.path).toBe(JOBS);
    expect(fake.svc.requests[0]!.headers.authorization).toBe(`Bearer ${fake.svc.apiKey}`);
    expect(fake.svc.requests[0]!.headers["idempotency-key"]).toBeUndefined();
  });

  it("sends ART's kimi_k2_tau and the spec's variant_k2_tau as written, saying the server ignores the latter", async () => {
    const warned: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (m: string) => warned.push(m), error() {} };
    const client = clientFor(fake.svc, { logLevel: "warn", logger });
    const art = params({ experimental_config: { kimi_k2_tau: 0.5 } });
    await client.trainingJobs.create(art);
    expect(warned.filter((w) => w.includes("variant_k2_tau"))).toEqual([]);
    const spec = params({ experimental_config: { variant_k2_tau: 0.5 } });
    await client.trainingJobs.create(spec);
    expect(fake.svc.requests[0]!.json).toStrictEqual(art);
    expect(fake.svc.requests[1]!.json).toStrictEqual(spec);
    expect(warned.filter((w) => w.includes("variant_k2_tau"))).toHaveLength(1);
    expect(warned.find((w) => w.includes("variant_k2_tau"))).toContain("write kimi_k2_tau");
  });

  it("merges extraBody.experimental_config into the validated settings, unvalidated, overriding", async () => {
    const body = params();
    await fake.client.trainingJobs.create(body, {
      extraBody: { experimental_config: { kimi_k2_tau: 0.25, ppo: false, a_setting_newer_than_the_sdk: 3 } },
    });
    expect(fake.svc.requests[0]!.json).toStrictEqual({
      ...body,
      experimental_config: { learning_rate: 1e-5, ppo: false, kimi_k2_tau: 0.25, a_setting_newer_than_the_sdk: 3 },
    });
    // Unvalidated: the server, not the SDK, judges what extraBody carries.
    const err = await caught(() =>
      fake.client.trainingJobs.create(body, { extraBody: { experimental_config: { loss_fn: "grpo" } } }),
    );
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    expect(fake.svc.requests).toHaveLength(2);
  });

  describe("a job none of whose choices carries logprobs (ART's tokenizer would drop every choice)", () => {
    const bare = (c: unknown) => {
      const { logprobs: _dropped, ...rest } = c as Record<string, unknown>;
      return rest;
    };
    const withoutLogprobs = (config?: TrainingJobCreateParams["experimental_config"]) => {
      const p = params({ experimental_config: config ?? null });
      for (const g of p.trajectory_groups)
        for (const t of g.trajectories) t.messages_and_choices = t.messages_and_choices.map((m) => bare(m) as never);
      return p;
    };

    it("is refused before sending, naming both settings", async () => {
      for (const config of [undefined, { precalculate_logprobs: true }, { allow_training_without_logprobs: false }]) {
        const err = await caught(() => fake.client.trainingJobs.create(withoutLogprobs(config)));
        expect(err).toBeInstanceOf(RequestValidationError);
        const message = (err as Error).message;
        expect(message).toContain("none of the job's 2 choice(s) carries logprobs");
        expect(message).toContain("allow_training_without_logprobs");
        expect(message).toContain("precalculate_logprobs");
        expect(message).toContain("logprobs: true");
      }
      expect(fake.svc.requests).toHaveLength(0);
    });

    it("is sent with allow_training_without_logprobs, in the config or through extraBody", async () => {
      await fake.client.trainingJobs.create(withoutLogprobs({ allow_training_without_logprobs: true }));
      await fake.client.trainingJobs.create(withoutLogprobs(), {
        extraBody: { experimental_config: { allow_training_without_logprobs: true } },
      });
      await clientFor(fake.svc, {
        extraBody: { experimental_config: { allow_training_without_logprobs: true } },
      }).trainingJobs.create(withoutLogprobs());
      expect(fake.svc.trainingJobs).toHaveLength(3);
    });

    it("one choice with logprobs is enough: the others are a finding, not a refusal", async () => {
      const p = withoutLogprobs();
      p.trajectory_groups[0]!.trajectories[0]!.messages_and_choices =
        params().trajectory_groups[0]!.trajectories[0]!.messages_and_choices;
      const warnings = captureWarnings();
      await fake.client.trainingJobs.create(p);
      expect(fake.svc.trainingJobs).toHaveLength(1);
      expect(warnings.codes()).toEqual(["INFERLOOP_MISSING_LOGPROBS"]);
    });
  });

  it("the client's default extraBody.experimental_config is merged too, under the request's", async () => {
    const client = clientFor(fake.svc, { extraBody: { experimental_config: { plot_tensors: true, ppo: false } } });
    await client.trainingJobs.create(params(), { extraBody: { experimental_config: { ppo: true } } });
    expect((fake.svc.requests[0]!.json as { experimental_config: unknown }).experimental_config).toStrictEqual({
      learning_rate: 1e-5,
      ppo: true,
      plot_tensors: true,
    });
  });

  it("sends every current setting, typed, and refuses a misspelt one with a did-you-mean", async () => {
    // Typed: the table's row satisfies ExperimentalConfig, so a setting the SDK lacks fails to compile.
    const every = EVERY_SETTING;
    expect(Object.keys(every)).toHaveLength(25);
    const body = params({ experimental_config: every });
    await fake.client.trainingJobs.create(body);
    expect(fake.svc.requests[0]!.json).toStrictEqual(body);
    const typo = await caught(() =>
      fake.client.trainingJobs.create(params({ experimental_config: { kl_penalty_coeff: 0.1 } as never })),
    );
    expect(typo).toBeInstanceOf(RequestValidationError);
    expect((typo as Error).message).toContain('experimental_config.kl_penalty_coeff: unknown field "kl_penalty_coeff"');
    expect((typo as Error).message).toContain('did you mean "kl_penalty_coef"');
    expect((typo as Error).message).toContain("extraBody");
    const badEnum = await caught(() =>
      fake.client.trainingJobs.create(params({ experimental_config: { loss_fn: "grpo" } as never })),
    );
    expect((badEnum as Error).message).toContain('experimental_config.loss_fn: must be one of "cispo", "ppo"');
    expect(fake.svc.requests).toHaveLength(1);
  });

  const invalid: Array<[string, unknown, string]> = [
    ["non-UUID model_id", params({ model_id: "my-model" }), "model_id"],
    ["missing model_id", { trajectory_groups: [] }, "model_id"],
    ["missing trajectory_groups", { model_id: MODEL_ID }, "trajectory_groups"],
    ["trajectory_groups not an array", { model_id: MODEL_ID, trajectory_groups: {} }, "trajectory_groups"],
    [
      "NaN reward",
      { model_id: MODEL_ID, trajectory_groups: [{ trajectories: [{ messages_and_choices: [], reward: Number.NaN }] }] },
      "trajectory_groups.0.trajectories.0.reward",
    ],
    [
      "Infinity reward",
      { model_id: MODEL_ID, trajectory_groups: [{ trajectories: [{ messages_and_choices: [], reward: Infinity }] }] },
      "trajectory_groups.0.trajectories.0.reward",
    ],
    [
      "bad start_time",
      {
        model_id: MODEL_ID,
        trajectory_groups: [{ trajectories: [{ messages_and_choices: [], start_time: "yesterday" }] }],
      },
      "trajectory_groups.0.trajectories.0.start_time",
    ],
    [
      "missing messages_and_choices",
      { model_id: MODEL_ID, trajectory_groups: [{ trajectories: [{ reward: 1 }] }] },
      "trajectory_groups.0.trajectories.0.messages_and_choices",
    ],
    [
      "unknown trajectory key",
      { model_id: MODEL_ID, trajectory_groups: [{ trajectories: [{ messages_and_choices: [], rewrd: 1 }] }] },
      "trajectory_groups.0.trajectories.0.rewrd",
    ],
    [
      "unknown experimental_config key",
      params({ experimental_config: { learning_rte: 1 } as never }),
      "experimental_config.learning_rte",
    ],
    [
      "a tau name neither the spec nor ART uses",
      params({ experimental_config: { k2_tau: 1 } as never }),
      "experimental_config.k2_tau",
    ],
    [
      "experimental_config value of the wrong type",
      params({ experimental_config: { ppo: "yes" } as never }),
      "experimental_config.ppo",
    ],
    ["unknown top-level key", { ...params(), priority: 1 }, "priority"],
  ];

  it.each(invalid)("refuses %s before sending (issue at %s)", async (_name, body, path) => {
    const err = await caught(() => fake.client.trainingJobs.create(body as never, { idempotencyKey: "k" }));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues.map((i) => i.path)).toContain(path);
    expect(fake.svc.requests).toHaveLength(0);
    expect(fake.svc.trainingJobs).toHaveLength(0);
  });

  it("a 422 from the server keeps its detail (an idempotency key reused with another body)", async () => {
    await fake.client.trainingJobs.create(params(), { idempotencyKey: "key-reused" });
    const err = await caught(() =>
      fake.client.trainingJobs.create(params({ experimental_config: null }), { idempotencyKey: "key-reused" }),
    );
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    const detail = (err as UnprocessableEntityError).detail;
    expect(detail).toHaveLength(1);
    expect(detail[0]!.loc).toEqual(["header", "idempotency-key"]);
    expect(detail[0]!.type).toBe("idempotency_key_reused");
    expect(typeof detail[0]!.msg).toBe("string");
    expect((err as UnprocessableEntityError).status).toBe(422);
    expect(fake.svc.trainingJobs).toHaveLength(1);
  });

  it("a 422 fault body's detail list is parsed onto the error", async () => {
    const detail = [
      {
        loc: ["body", "trajectory_groups", 0, "trajectories"],
        msg: "List should have at least 1 item",
        type: "too_short",
      },
    ];
    fake.svc.inject(faults.status(422, { path: JOBS, body: { detail } }));
    const err = await caught(() => fake.client.trainingJobs.create(params()));
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    expect((err as UnprocessableEntityError).detail).toEqual(detail);
    expect((err as UnprocessableEntityError).body).toEqual({ detail });
  });

  it("the same idempotency key replays the job instead of creating another", async () => {
    const a = await fake.client.trainingJobs.create(params(), { idempotencyKey: "same-key" });
    const b = await fake.client.trainingJobs.create(params(), { idempotencyKey: "same-key" });
    expect(b.id).toBe(a.id);
    expect(fake.svc.trainingJobs).toHaveLength(1);
  });
});

describe("retries never duplicate a job", () => {
  it("with idempotencyKey, a 503 burst then success creates exactly one job; every attempt carried the key", async () => {
    fake.svc.inject(faults.status(503, { path: JOBS, times: 2, headers: { "retry-after-ms": "10" } }));
    const job = await fake.client.trainingJobs.create(params(), { idempotencyKey: "burst-key-1", maxRetries: 3 });
    expect(fake.svc.requests).toHaveLength(3);
    expect(fake.svc.requests.map((r) => r.headers["idempotency-key"])).toEqual([
      "burst-key-1",
      "burst-key-1",
      "burst-key-1",
    ]);
    expect(fake.svc.trainingJobs).toHaveLength(1);
    expect(fake.svc.trainingJobs[0]!.id).toBe(job.id);
    expect(fake.svc.trainingJobs[0]!.idempotency_key).toBe("burst-key-1");
  });

  it("with idempotencyKey, a reset before headers is retried and still makes one job", async () => {
    fake.svc.inject(faults.reset({ path: JOBS }));
    const job = await clientFor(fake.svc, { maxRetries: 2 }).trainingJobs.create(params(), {
      idempotencyKey: "reset-key",
    });
    expect(fake.svc.requests).toHaveLength(2);
    expect(fake.svc.trainingJobs.map((j) => j.id)).toEqual([job.id]);
  });

  it("without a key, a 503 is not retried: one request, the error is thrown", async () => {
    fake.svc.inject(faults.status(503, { path: JOBS, headers: { "retry-after-ms": "10" } }));
    const err = await caught(() => clientFor(fake.svc, { maxRetries: 3 }).trainingJobs.create(params()));
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as InternalServerError).status).toBe(503);
    expect((err as Error).message).toMatch(/^503 /);
    expect((err as Error).message).toContain(NOT_RETRIED);
    expect((err as Error).stack).toContain(NOT_RETRIED);
    expect(fake.svc.requests).toHaveLength(1);
    expect(fake.svc.trainingJobs).toHaveLength(0);
  });

  it("says nothing of retries where none would be made anyway: maxRetries 0, a 422, or with a key", async () => {
    fake.svc.inject(faults.status(503, { path: JOBS }));
    const noRetries = await caught(() => clientFor(fake.svc, { maxRetries: 0 }).trainingJobs.create(params()));
    expect((noRetries as Error).message).not.toContain("Not retried");
    fake.svc.inject(faults.status(422, { path: JOBS }));
    const refused = await caught(() => clientFor(fake.svc, { maxRetries: 3 }).trainingJobs.create(params()));
    expect((refused as Error).message).toMatch(/^422 /);
    expect((refused as Error).message).not.toContain("Not retried");
    fake.svc.inject(faults.status(503, { path: JOBS, times: 2, headers: { "retry-after-ms": "10" } }));
    const keyed = await caught(() =>
      clientFor(fake.svc, { maxRetries: 1 }).trainingJobs.create(params(), { idempotencyKey: "k-503" }),
    );
    expect((keyed as Error).message).not.toContain("Not retried");
  });

  it("without a key, x-should-retry: true does not make a create retried either", async () => {
    fake.svc.inject(faults.status(500, { path: JOBS, headers: { "x-should-retry": "true", "retry-after-ms": "10" } }));
    const err = await caught(() => clientFor(fake.svc, { maxRetries: 3 }).trainingJobs.create(params()));
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as Error).message).toContain(NOT_RETRIED);
    expect(fake.svc.requests).toHaveLength(1);
  });

  it("without a key, a reset before headers is not retried (the server may have seen it)", async () => {
    fake.svc.inject(faults.reset({ path: JOBS }));
    const err = await caught(() => clientFor(fake.svc, { maxRetries: 3 }).trainingJobs.create(params()));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain(NOT_RETRIED);
    expect(fake.svc.requests).toHaveLength(1);
    expect(fake.svc.trainingJobs).toHaveLength(0);
  });

  it("a refused connection IS retried (nothing was sent): three attempts, then APIConnectionError", async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const logger: Logger = {
      error: (msg: string) => void lines.push(`error ${msg}`),
      warn: (msg: string) => void lines.push(`warn ${msg}`),
      info: () => {},
      debug: () => {},
    };
    const refused = new Inferloop({
      baseURL: `http://127.0.0.1:${port}`,
      apiKey: "k",
      maxRetries: 2,
      logger,
      logLevel: "warn",
    });
    const err = await caught(() => refused.trainingJobs.create(params()));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain("ECONNREFUSED");
    // Nothing was sent, so it was retried: no word of a duplicate.
    expect((err as Error).message).not.toContain("Not retried");
    const retries = lines.filter((l) => l.startsWith("warn") && l.includes("retrying"));
    expect(retries).toHaveLength(2);
    expect(retries[0]).toContain("(1/2)");
    expect(retries[1]).toContain("(2/2)");
    expect(retries.join("\n")).toContain(JOBS);
  });
});
