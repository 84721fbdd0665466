/**
 * `model.trainSFT`'s state over real HTTP against the fake service: the job is kept (the
 * dataset, config and create's key before it is sent, its id as soon as it answers), so a call
 * again with the same rows follows it instead of creating a second job; a create whose answer
 * was lost is sent again with the same key; other rows are refused while a job is kept.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIUserAbortError,
  InferloopError,
  type LoopState,
  type SFTRow,
  type TrainableModel,
  TrainingJobFailedError,
} from "../../src/index.js";
import { defaultStateStore } from "../../src/lib/training/loop-state-file.js";
import { faults } from "../../src/testing/index.js";
import { captureWarnings } from "../warnings.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });
const dir = mkdtempSync(join(tmpdir(), "inferloop-sft-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const stateFile = () => join(dir, `state-${++files}.json`);
const readState = (path: string) => JSON.parse(readFileSync(path, "utf8")) as LoopState;

let models = 0;
async function register(): Promise<TrainableModel> {
  return fake.client.trainableModels.register({
    project: "sft-state",
    name: `agent-${++models}`,
    base_model: "OpenPipe/Qwen3-14B-Instruct",
  });
}

const row = (q: string, a: string): SFTRow => ({
  messages: [
    { role: "user", content: q },
    { role: "assistant", content: a },
  ],
});
const rows = [row("2+2?", "4"), row("3+3?", "6")];
const SFT_PATH = "/v1/preview/sft-training-jobs";
const sftJobsOf = (model: TrainableModel) =>
  fake.svc.trainingJobs.filter((job) => job.kind === "sft" && job.model_id === model.id);
const creates = (from: number) =>
  fake.svc.requests.slice(from).filter((r) => r.method === "POST" && r.path === SFT_PATH);

describe("trainSFT state", () => {
  it("an abort while the job trains: the error names the job; a call again with the same rows follows that job, uploading nothing", async () => {
    const model = await register();
    const state = stateFile();
    fake.svc.state.trainable.jobMs = 400;
    const controller = new AbortController();
    const created: string[] = [];
    const err = await caught(() =>
      model.trainSFT(rows, {
        state,
        pollInterval: 5,
        signal: controller.signal,
        onJobCreated: (id) => created.push(id),
        onEvent: (e) => e.type === "gradient_step" && controller.abort(),
      }),
    );
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect(created).toHaveLength(1);
    const jobId = created[0]!;
    expect((err as Error).message).toContain(`SFT job ${jobId} goes on on the server`);
    expect((err as Error).message).toContain(`${state} holds it: call trainSFT again with the same rows`);
    const saved = readState(state);
    expect(saved).toMatchObject({ version: 1, modelId: model.id, sft: { jobId } });
    expect(saved.sft!.trainingDataUrl).toMatch(/^wandb-artifact:\/\/\/acme\/sft-state\/agent-\d+-sft-data-/);
    expect(sftJobsOf(model)[0]!.idempotency_key).toBe(saved.sft!.idempotencyKey);

    fake.svc.state.trainable.jobMs = undefined;
    const before = fake.svc.requests.length;
    const events: string[] = [];
    const result = await model.trainSFT(rows, {
      state,
      pollInterval: 5,
      onJobCreated: (id) => created.push(id),
      onEvent: (e) => events.push(e.type),
    });
    expect(result).toMatchObject({ jobId, step: 1, trainingDataUrl: saved.sft!.trainingDataUrl, datasetExisted: true });
    expect(events.at(-1)).toBe("training_ended");
    expect(typeof result.metrics.loss).toBe("number");
    // Taken up, not made again: no create, no upload, onJobCreated not called.
    expect(created).toEqual([jobId]);
    expect(creates(before)).toHaveLength(0);
    expect(fake.svc.requests.slice(before).filter((r) => r.method !== "GET")).toEqual([]);
    expect(sftJobsOf(model)).toHaveLength(1);
    expect(readState(state)).toEqual({ version: 1, modelId: model.id, trained: 0 });
  });

  it("the create window: a create whose answer was lost is sent again with the same key, and no second job is made", async () => {
    const model = await register();
    const state = stateFile();
    // The job is made, then the connection drops before its answer: its id never reaches trainSFT.
    fake.svc.inject(faults.reset({ path: SFT_PATH, afterBytes: 0 }));
    const err = await caught(() => model.trainSFT(rows, { state, pollInterval: 5, config: { learning_rate: 1e-5 } }));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(sftJobsOf(model)).toHaveLength(1);
    const saved = readState(state).sft!;
    expect(saved.jobId).toBeUndefined();
    expect(saved.config).toEqual({ learning_rate: 1e-5 });
    expect(sftJobsOf(model)[0]!.idempotency_key).toBe(saved.idempotencyKey);

    const before = fake.svc.requests.length;
    const created: string[] = [];
    const result = await model.trainSFT(rows, {
      state,
      pollInterval: 5,
      config: { learning_rate: 1e-5 },
      onJobCreated: (id) => created.push(id),
    });
    const sent = creates(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers["idempotency-key"]).toBe(saved.idempotencyKey);
    // The same request: the server answered with the job it had made.
    expect(sent[0]!.body).toBe(creates(0).find((r) => r.headers["idempotency-key"] === saved.idempotencyKey)!.body);
    expect(sftJobsOf(model).map((j) => j.id)).toEqual([result.jobId]);
    expect(created).toEqual([result.jobId]);
    expect(result.step).toBe(1);
    expect(readState(state).sft).toBeUndefined();
  });

  it("while a job is kept, other rows or another config are refused with 0 requests, naming the job and how to go on", async () => {
    const model = await register();
    const state = stateFile();
    fake.svc.state.trainable.jobMs = 400;
    const controller = new AbortController();
    await caught(() =>
      model.trainSFT(rows, {
        state,
        pollInterval: 5,
        signal: controller.signal,
        onJobCreated: () => controller.abort(),
      }),
    );
    fake.svc.state.trainable.jobMs = undefined;
    const jobId = readState(state).sft!.jobId!;
    const before = fake.svc.requests.length;

    const other = await caught(() => model.trainSFT([row("5+5?", "10")], { state, pollInterval: 5 }));
    expect(other).toBeInstanceOf(InferloopError);
    expect((other as Error).message).toContain(`holds SFT job ${jobId}, training on other rows (dataset `);
    expect((other as Error).message).toContain(`client.sftTrainingJobs.follow("${jobId}")`);
    expect((other as Error).message).toMatch(/pass state: false to start a second job now.*Nothing was sent\.$/);
    const config = await caught(() => model.trainSFT(rows, { state, config: { learning_rate: 1 } }));
    expect((config as Error).message).toContain(
      `holds SFT job ${jobId}, training on the same rows with another config`,
    );
    expect(fake.svc.requests.length).toBe(before);

    // The same rows take it up; then other rows train.
    expect((await model.trainSFT(rows, { state, pollInterval: 5 })).jobId).toBe(jobId);
    const next = await model.trainSFT([row("5+5?", "10")], { state, pollInterval: 5 });
    expect(next.step).toBe(2);
    expect(sftJobsOf(model).map((j) => j.id)).toEqual([jobId, next.jobId]);
  });

  it("state: false keeps nothing, and the abort says to follow the job by its id", async () => {
    const model = await register();
    const where = defaultStateStore(model, "train-sft.json").where;
    fake.svc.state.trainable.jobMs = 400;
    const controller = new AbortController();
    const err = await caught(() =>
      model.trainSFT(rows, {
        state: false,
        pollInterval: 5,
        signal: controller.signal,
        onJobCreated: () => controller.abort(),
      }),
    );
    fake.svc.state.trainable.jobMs = undefined;
    const jobId = sftJobsOf(model)[0]!.id;
    expect((err as Error).message).toContain(
      `No state is kept (state: false): follow it with client.sftTrainingJobs.follow("${jobId}")`,
    );
    expect(existsSync(where)).toBe(false);
    // Nothing kept: the same rows again make a second job.
    await model.trainSFT(rows, { state: false, pollInterval: 5 });
    expect(sftJobsOf(model)).toHaveLength(2);
    expect(existsSync(where)).toBe(false);
  });

  it("a failed job is over: the state forgets it, and the same rows then make a new job", async () => {
    const model = await register();
    const state = stateFile();
    fake.svc.inject(faults.trainingFailed("bad dataset", { path: SFT_PATH }));
    expect(await caught(() => model.trainSFT(rows, { state, pollInterval: 5 }))).toBeInstanceOf(TrainingJobFailedError);
    expect(readState(state).sft).toBeUndefined();
    await model.trainSFT(rows, { state, pollInterval: 5 });
    expect(sftJobsOf(model)).toHaveLength(2);
  });

  it("state of another model of the same name is not followed: a warning, and this call trains", async () => {
    const warnings = captureWarnings();
    const model = await register();
    const state = stateFile();
    const other: LoopState = {
      version: 1,
      modelId: "0b6f0c36-2f34-4a51-9b7e-6c0d3c1c0a11",
      trained: 0,
      sft: {
        dataset: { name: "x", digest: "d" },
        trainingDataUrl: "wandb-artifact:///acme/sft-state/x:v0",
        idempotencyKey: "k",
        jobId: "a1b2c3d4-0000-4000-8000-000000000000",
      },
    };
    writeFileSync(state, JSON.stringify(other));
    const result = await model.trainSFT(rows, { state, pollInterval: 5 });
    expect(result.jobId).not.toBe(other.sft!.jobId);
    expect(warnings.codes()).toEqual(["INFERLOOP_LOOP_STATE_OF_OTHER_MODEL"]);
    expect(warnings.messages()[0]).toContain(`its SFT job ${other.sft!.jobId} is not followed`);
    expect(readState(state)).toEqual({ version: 1, modelId: model.id, trained: 0 });
  });

  it("a bad state option is refused before anything is sent; the default file is train-sft.json beside train-loop.json", async () => {
    const model = await register();
    const before = fake.svc.requests.length;
    const err = await caught(() => model.trainSFT(rows, { state: 3 as unknown as false }));
    expect((err as Error).message).toMatch(/state: must be a file path, false \(keep no state\) or a store/);
    expect(fake.svc.requests.length).toBe(before);
    const owner = { id: "x", entity: "acme", project: "rl", name: "agent" };
    expect(defaultStateStore(owner, "train-sft.json").where).toBe(
      join(".inferloop", "acme", "rl", "agent", "train-sft.json"),
    );
  });
});
