/**
 * The fake's training service over real HTTP answers in the shapes of W&B's OpenAPI spec (the
 * example responses of `tests/cases/training-api-cases.ts`). The table's requests run in the
 * shared request-case runners.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeService, startFakeService } from "../../src/testing/index.js";
import { TRAINING_API_SHAPES as S, shapeOf } from "../cases/training-api-cases.js";

let svc: FakeService;
let modelId: string;
let jobId: string;

function call(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${svc.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${svc.apiKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false, trainingStepMs: 0 });
  modelId = (
    (await (
      await call("POST", "/v1/preview/models", { ...S.model, id: undefined, run_id: undefined, entity: undefined })
    ).json()) as { id: string }
  ).id;
  const trajectory = { messages_and_choices: [{ role: "user", content: "hi" }], reward: 1 };
  const job = await call("POST", "/v1/preview/training-jobs", {
    model_id: modelId,
    trajectory_groups: [{ trajectories: [trajectory] }],
  });
  jobId = ((await job.json()) as { id: string }).id;
});
afterAll(() => svc.close());

describe("the fake's training service", () => {
  it("answers in the spec's shapes", async () => {
    const model = await (
      await call("POST", "/v1/preview/models", {
        project: "rl",
        name: "agent",
        base_model: S.model.base_model,
        return_existing: true,
      })
    ).json();
    expect(shapeOf(model)).toEqual(shapeOf(S.model));
    const events = (await (await call("GET", `/v1/preview/training-jobs/${jobId}/events`)).json()) as {
      data: unknown[];
    };
    expect(shapeOf({ ...events, data: [] })).toEqual(shapeOf(S.page));
    for (const e of events.data) expect(Object.keys(e as object).sort()).toEqual(["data", "id", "type"]);
    expect(events.data.map((e) => (e as { type: string }).type)).toEqual([
      "training_started",
      "gradient_step",
      "training_ended",
    ]);
    // A second job, so the model has a checkpoint to list and delete.
    const trajectory = { messages_and_choices: [{ role: "user", content: "hi" }], reward: 1 };
    await call("POST", "/v1/preview/training-jobs", {
      model_id: modelId,
      trajectory_groups: [{ trajectories: [trajectory] }],
    });
    const page = (await (await call("GET", `/v1/preview/models/${modelId}/checkpoints`)).json()) as { data: unknown[] };
    const checkpoint = page.data[0] as { metrics: Record<string, unknown> };
    // metrics is a map of string to number: any keys, numbers only.
    for (const v of Object.values(checkpoint.metrics)) expect(typeof v).toBe("number");
    expect(shapeOf({ ...checkpoint, metrics: {} })).toEqual(shapeOf({ ...S.checkpoint, metrics: {} }));
    const deleted = await (
      await call("DELETE", `/v1/preview/models/${modelId}/checkpoints`, { steps: [1, 9999] })
    ).json();
    expect(shapeOf(deleted)).toEqual(shapeOf(S.deleteCheckpoints));
    expect(await (await call("GET", "/v1/preview/base-models")).json()).toEqual(S.baseModels);
    const job = (await (await call("GET", `/v1/preview/training-jobs/${jobId}`)).json()) as { id: string };
    expect(job.id).toBe(jobId);
    const gone = await (await call("DELETE", `/v1/preview/models/${modelId}`)).json();
    expect(shapeOf(gone)).toEqual(shapeOf(S.deleteModel));
  });
});
