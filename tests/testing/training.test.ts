import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";
import { startFakeService } from "../../src/testing/index.js";
import { bearer, postJson } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService();
});
afterEach(() => svc.reset());
afterAll(() => svc.close());

const MODEL_ID = "3b241101-e2bb-4255-8caf-4136c566a962";
const valid = {
  model_id: MODEL_ID,
  trajectory_groups: [
    {
      trajectories: [
        {
          messages_and_choices: [
            { role: "user", content: "2+2?" },
            { finish_reason: "stop", index: 0, logprobs: null, message: { role: "assistant", content: "4" } },
          ],
          reward: 1,
          metrics: { correct: true, steps: 3 },
          metadata: { source: "unit", note: null },
          logs: ["ok"],
        },
        { messages_and_choices: [{ role: "user", content: "2+2?" }], reward: 0 },
      ],
    },
  ],
  experimental_config: { learning_rate: 5e-6, ppo: false, variant_k2_tau: null },
};

function create(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return postJson(svc, "/v1/preview/training-jobs", body, { ...bearer(svc), ...headers });
}

describe("training jobs", () => {
  it("creates a job with a UUID id and remembers it", async () => {
    const res = await create(valid);
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(svc.trainingJobs).toHaveLength(1);
    expect(svc.trainingJobs[0]).toMatchObject({ id, model_id: MODEL_ID, idempotency_key: null });
    expect(svc.trainingJobs[0]!.request).toEqual(valid);
  });

  it("creates a new job for each request without an Idempotency-Key", async () => {
    await create(valid);
    await create(valid);
    expect(svc.trainingJobs).toHaveLength(2);
  });

  it("returns the same job for a repeated Idempotency-Key without creating another", async () => {
    const a = (await (await create(valid, { "idempotency-key": "key-1" })).json()) as { id: string };
    const again = await create(valid, { "idempotency-key": "key-1" });
    expect(((await again.json()) as { id: string }).id).toBe(a.id);
    expect(svc.trainingJobs).toHaveLength(1);
    const other = (await (await create(valid, { "idempotency-key": "key-2" })).json()) as { id: string };
    expect(other.id).not.toBe(a.id);
    expect(svc.trainingJobs).toHaveLength(2);
  });

  it("refuses a reused Idempotency-Key with a different body (422)", async () => {
    await create(valid, { "idempotency-key": "key-3" });
    const res = await create({ ...valid, experimental_config: { ppo: true } }, { "idempotency-key": "key-3" });
    expect(res.status).toBe(422);
    expect(svc.trainingJobs).toHaveLength(1);
  });

  const invalid: Array<[string, unknown, Array<string | number>, string]> = [
    ["a missing model_id", { trajectory_groups: [] }, ["body", "model_id"], "missing"],
    ["a model_id that is not a UUID", { ...valid, model_id: "model-1" }, ["body", "model_id"], "uuid_parsing"],
    ["trajectory_groups not a list", { ...valid, trajectory_groups: {} }, ["body", "trajectory_groups"], "list_type"],
    [
      "a group without trajectories",
      { ...valid, trajectory_groups: [{}] },
      ["body", "trajectory_groups", 0, "trajectories"],
      "missing",
    ],
    [
      "a non-numeric reward",
      { ...valid, trajectory_groups: [{ trajectories: [{ messages_and_choices: [], reward: "high" }] }] },
      ["body", "trajectory_groups", 0, "trajectories", 0, "reward"],
      "float_type",
    ],
    [
      "a bad start_time",
      { ...valid, trajectory_groups: [{ trajectories: [{ messages_and_choices: [], start_time: "yesterday" }] }] },
      ["body", "trajectory_groups", 0, "trajectories", 0, "start_time"],
      "datetime_from_date_parsing",
    ],
    [
      "a mistyped experimental_config member",
      { ...valid, experimental_config: { ppo: "yes" } },
      ["body", "experimental_config", "ppo"],
      "bool_type",
    ],
    [
      "a loss_fn that is not cispo or ppo",
      { ...valid, experimental_config: { loss_fn: "grpo" } },
      ["body", "experimental_config", "loss_fn"],
      "literal_error",
    ],
    [
      "an importance_sampling_level it does not know",
      { ...valid, experimental_config: { importance_sampling_level: "tokens" } },
      ["body", "experimental_config", "importance_sampling_level"],
      "literal_error",
    ],
    [
      "a fractional packed_sequence_length",
      { ...valid, experimental_config: { packed_sequence_length: 4096.5 } },
      ["body", "experimental_config", "packed_sequence_length"],
      "int_type",
    ],
  ];
  it.each(invalid)("refuses %s with 422 detail and creates nothing", async (_name, body, loc, type) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: Array<{ loc: unknown[]; msg: string; type: string }> };
    expect(detail).toContainEqual({ loc, msg: expect.any(String), type });
    expect(svc.trainingJobs).toHaveLength(0);
  });

  it("ignores members it does not know, in the body and in experimental_config, as pydantic does", async () => {
    const res = await create({ ...valid, request_id: "r-1", experimental_config: { k2_tau: 0.1, variant_k2_tau: 1 } });
    expect(res.status).toBe(200);
    expect(svc.trainingJobs).toHaveLength(1);
  });

  it("requires the Bearer key", async () => {
    const res = await postJson(svc, "/v1/preview/training-jobs", valid, {});
    expect(res.status).toBe(401);
    expect(svc.trainingJobs).toHaveLength(0);
  });
});
