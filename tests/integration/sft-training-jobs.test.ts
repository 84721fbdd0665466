/**
 * SFT jobs over real HTTP to the fake: created once (never duplicated by a retry), followed on
 * the training jobs' events route until the model has a new checkpoint, read back through the
 * training jobs' record route, and refused before sending when the body is wrong.
 */
import { beforeEach, describe, expect, it } from "vitest";
import {
  APIConnectionError,
  InternalServerError,
  RequestValidationError,
  type SFTTrainingJobCreateParams,
  type TrainableModel,
  TrainingJobFailedError,
} from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { caught, clientFor, seedDataset, useFakeService } from "./helpers.js";

const SFT = "/v1/preview/sft-training-jobs";
const DATA = "wandb-artifact:///acme/sft/agent-data:v0";

const fake = useFakeService({ seedCalls: false, trainingStepMs: 2 });
beforeEach(() => seedDataset(fake.client, DATA));

async function model(name = "agent"): Promise<TrainableModel> {
  return fake.client.trainableModels.register({ project: "sft", name, base_model: "OpenPipe/Qwen3-14B-Instruct" });
}

describe("sftTrainingJobs", () => {
  it("creates a job, follows it to training_ended, and the model has a new checkpoint", async () => {
    const m = await model();
    const params: SFTTrainingJobCreateParams = {
      model_id: m.id,
      training_data_url: DATA,
      config: { batch_size: "auto", learning_rate: [1e-4, 5e-5], assistant_turns: "last" },
    };
    const { id } = await fake.client.sftTrainingJobs.create(params);
    expect(fake.svc.requests.at(-1)!.path).toBe(SFT);
    expect(fake.svc.requests.at(-1)!.json).toStrictEqual(params);
    expect(fake.svc.trainingJobs.map((j) => [j.id, j.kind])).toEqual([[id, "sft"]]);
    const types: string[] = [];
    for await (const e of fake.client.sftTrainingJobs.follow(id, { pollInterval: 2 })) types.push(e.type);
    expect(types[0]).toBe("training_started");
    expect(types.at(-1)).toBe("training_ended");
    expect(types.filter((t) => t === "gradient_step").length).toBeGreaterThan(0);
    expect(await m.latestStep()).toBe(1);
    const job = await fake.client.sftTrainingJobs.retrieve(id);
    expect(job.id).toBe(id);
    expect(job["status"]).toBe("COMPLETED");
    expect(fake.svc.requests.some((r) => r.path === `/v1/preview/training-jobs/${id}`)).toBe(true);
    const events = await fake.client.sftTrainingJobs.events.list(id).toArray();
    expect(events.map((e) => e.type)).toEqual(types);
  });

  it("a failed SFT job rejects the follow with TrainingJobFailedError", async () => {
    const m = await model();
    fake.svc.inject(faults.trainingFailed("dataset row 3 has no assistant turn", { path: SFT }));
    const { id } = await fake.client.sftTrainingJobs.create({ model_id: m.id, training_data_url: DATA });
    const err = await caught(async () => {
      for await (const _ of fake.client.sftTrainingJobs.follow(id, { pollInterval: 2 })) void _;
    });
    expect(err).toBeInstanceOf(TrainingJobFailedError);
    expect((err as Error).message).toContain("dataset row 3 has no assistant turn");
  });

  it("refuses a misspelt config member with a did-you-mean, sending nothing", async () => {
    const err = await caught(() =>
      fake.client.sftTrainingJobs.create({
        model_id: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b",
        training_data_url: DATA,
        config: { batchsize: 8 } as never,
      }),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as Error).message).toContain(
      'config.batchsize: unknown field "batchsize" (did you mean "batch_size"?)',
    );
    expect((err as Error).message).toContain("extraBody");
    const top = await caught(() =>
      fake.client.sftTrainingJobs.create({ model_id: "m", training_data_uri: DATA } as never),
    );
    expect((top as RequestValidationError).issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(["model_id", "training_data_url", "training_data_uri"]),
    );
    expect((top as Error).message).toContain('did you mean "training_data_url"');
    expect(fake.svc.requests.filter((r) => r.path === SFT)).toHaveLength(0);
  });

  it("merges extraBody.config into the validated config for a setting newer than the SDK", async () => {
    const m = await model();
    await fake.client.sftTrainingJobs.create(
      { model_id: m.id, training_data_url: DATA, config: { batch_size: 4 } },
      { extraBody: { config: { max_seq_length: 8192 } } },
    );
    expect((fake.svc.requests.at(-1)!.json as { config: unknown }).config).toStrictEqual({
      batch_size: 4,
      max_seq_length: 8192,
    });
  });

  it("without idempotencyKey, a 503 is not retried (it may have created the job)", async () => {
    const m = await model();
    fake.svc.inject(faults.status(503, { path: SFT }));
    const err = await caught(() =>
      clientFor(fake.svc, { maxRetries: 3 }).sftTrainingJobs.create({ model_id: m.id, training_data_url: DATA }),
    );
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as Error).message).toContain("create a duplicate SFT training job");
    expect(fake.svc.requests.filter((r) => r.path === SFT)).toHaveLength(1);
  });

  it("with idempotencyKey, a 503 then success makes one job, every attempt carrying the key", async () => {
    const m = await model();
    fake.svc.inject(faults.status(503, { path: SFT, times: 2 }));
    const { id } = await clientFor(fake.svc, { maxRetries: 3 }).sftTrainingJobs.create(
      { model_id: m.id, training_data_url: DATA },
      { idempotencyKey: "sft-key-1" },
    );
    const attempts = fake.svc.requests.filter((r) => r.path === SFT);
    expect(attempts).toHaveLength(3);
    for (const a of attempts) expect(a.headers["idempotency-key"]).toBe("sft-key-1");
    expect(fake.svc.trainingJobs.map((j) => j.id)).toEqual([id]);
  });

  it("a refused connection is retried: nothing was sent", async () => {
    const client = clientFor(fake.svc, { maxRetries: 1, baseURL: "http://127.0.0.1:1" });
    const err = await caught(() =>
      client.sftTrainingJobs.create({ model_id: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b", training_data_url: DATA }),
    );
    expect(err).toBeInstanceOf(APIConnectionError);
  });
});
