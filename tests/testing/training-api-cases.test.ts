/**
 * The training-API case table against the fake service over real HTTP: it accepts and refuses
 * what the real API does (422 in FastAPI's `detail` envelope) and answers in the same shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeService, startFakeService } from "../../src/testing/index.js";
import {
  GROUPS_WITHOUT_LOGPROBS,
  JOB_GROUPS,
  TRAINING_API_SHAPES as S,
  SFT_DATA,
  shapeOf,
  TRAINING_API_CASES,
  type TrainingApiCase,
} from "../cases/training-api-cases.js";
import { clientFor, seedDataset } from "../integration/helpers.js";

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
const query = (r: Record<string, unknown>) => {
  const q = new URLSearchParams(Object.entries(r).map(([k, v]) => [k, String(v)])).toString();
  return q === "" ? "" : `?${q}`;
};

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
  await seedDataset(clientFor(svc), SFT_DATA);
});
afterAll(() => svc.close());

function send(c: TrainingApiCase): Promise<Response> {
  switch (c.operation) {
    case "createModel":
      return call("POST", "/v1/preview/models", {
        ...c.request,
        ...(c.real === "accepted" ? { name: `m-${c.name}` } : {}),
      });
    case "listCheckpoints":
      return call("GET", `/v1/preview/models/${modelId}/checkpoints${query(c.request)}`);
    case "listEvents":
      return call("GET", `/v1/preview/training-jobs/${jobId}/events${query(c.request)}`);
    case "deleteCheckpoints":
      return call("DELETE", `/v1/preview/models/${modelId}/checkpoints`, c.request);
    case "log":
      return call("POST", `/v1/preview/models/${modelId}/log`, c.request);
    case "createJob":
      return call("POST", "/v1/preview/training-jobs", {
        model_id: modelId,
        trajectory_groups: c.noLogprobs ? GROUPS_WITHOUT_LOGPROBS : JOB_GROUPS,
        experimental_config: c.request,
      });
    case "createSftJob":
      return call("POST", "/v1/preview/sft-training-jobs", { model_id: modelId, ...c.request });
  }
}

describe("the training-API case table against the fake service", () => {
  const refused = TRAINING_API_CASES.filter((c) => c.real === "refused");
  const accepted = TRAINING_API_CASES.filter((c) => c.real === "accepted");

  it.each(accepted.map((c) => [`${c.operation}: ${c.name}`, c] as const))("accepts %s", async (_n, c) => {
    const res = await send(c);
    expect(res.status, `${c.why}\n${await res.clone().text()}`).toBe(200);
  });

  it.each(refused.map((c) => [`${c.operation}: ${c.name}`, c] as const))(
    "refuses %s with a 422 detail",
    async (_n, c) => {
      const res = await send(c);
      expect(res.status, c.why).toBe(422);
      const body = (await res.json()) as { detail: unknown[] };
      expect(shapeOf(body)).toEqual(shapeOf(S.validationError));
    },
  );

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
    // A job of its own (the table's delete cases may have removed the first checkpoint).
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
