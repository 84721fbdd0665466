/**
 * `model.trainLoop`'s state over real HTTP against the fake service: the job in flight is kept
 * (its create's key before it is sent, its id as soon as it answers), so a loop started again
 * follows it instead of creating a second job for its step; state of another model is not
 * followed; a create whose answer was lost is sent again with the same key; a loop at its
 * target says so.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIUserAbortError,
  type LoopState,
  type LoopStateStore,
  NotFoundError,
  type TrainableModel,
  TrainingJobFailedError,
  type TrainLoopEvent,
  type TrainLoopRolloutContext,
  type TrainLoopStep,
} from "../../src/index.js";
import { defaultStateStore } from "../../src/lib/training/loop-state-file.js";
import { faults } from "../../src/testing/index.js";
import { captureWarnings } from "../warnings.js";
import { caught, useFakeService } from "./helpers.js";
import { stepOfJob, stepRollouts } from "./loop-rollouts.js";

const fake = useFakeService({ seedCalls: false, trainingJobMs: 60 });
const dir = mkdtempSync(join(tmpdir(), "inferloop-loop-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const stateFile = () => join(dir, `state-${++files}.json`);

async function register(name = "stateful"): Promise<TrainableModel> {
  return fake.client.trainableModels.register({ project: "rl", name, base_model: "OpenPipe/Qwen3-14B-Instruct" });
}

/** Two rollouts per step on `modelName` (the prompt names the step), rewards 1 and 0. */
const rollouts = (ctx: TrainLoopRolloutContext) => stepRollouts(fake.client, { logprobs: true })(ctx);

async function collect(iterable: AsyncIterable<TrainLoopStep>): Promise<TrainLoopStep[]> {
  const out: TrainLoopStep[] = [];
  for await (const s of iterable) out.push(s);
  return out;
}

const jobsOf = (model: TrainableModel) => fake.svc.state.training.list.filter((job) => job.model_id === model.id);
const readState = (path: string) => JSON.parse(readFileSync(path, "utf8")) as LoopState;
/** The step each of the model's jobs trained, read from its trajectories' prompts ("step N"). */
const stepsOfJobs = (model: TrainableModel) => jobsOf(model).map(stepOfJob);

const base = { pollInterval: 5, maxStepsOffPolicy: 1, rollouts };

describe("trainLoop state", () => {
  it("an abort while a job trains: the error names the job; a new loop follows the same job id to its end and goes on", async () => {
    const model = await register();
    const state = stateFile();
    fake.svc.state.trainable.jobMs = 400;
    const controller = new AbortController();
    const events: TrainLoopEvent[] = [];
    const err = await caught(() =>
      collect(
        model.trainLoop({
          ...base,
          steps: 4,
          state,
          signal: controller.signal,
          onEvent: (e) => {
            events.push(e);
            // Step 2's job is training: stop there.
            if (e.type === "job" && e.step === 2 && e.event.type === "gradient_step") controller.abort();
          },
        }),
      ),
    );
    expect(err).toBeInstanceOf(APIUserAbortError);
    const created = events.filter((e) => e.type === "job_created");
    expect(created.map((e) => e.step)).toEqual([1, 2]);
    const job2 = (created[1] as Extract<TrainLoopEvent, { type: "job_created" }>).jobId;
    expect((err as Error).message).toContain(`Job ${job2} (step 2) goes on on the server`);
    expect((err as Error).message).toContain(`${state} holds it`);
    expect((err as Error).message).toMatch(/run the loop again to follow it/);
    // Saved before the loop ended: the job of step 2 with its id, its request dropped.
    const saved = readState(state);
    expect(saved).toMatchObject({ version: 1, modelId: model.id, trained: 1, job: { step: 2, jobId: job2 } });
    expect(saved.job?.request).toBeUndefined();

    fake.svc.state.trainable.jobMs = 60;
    const again: TrainLoopEvent[] = [];
    const steps = await collect(model.trainLoop({ ...base, steps: 4, state, onEvent: (e) => again.push(e) }));
    // Step 3's rollouts start at once (sampling step 1, within the bound), and step 2's job is followed.
    expect(again.filter((e) => e.type.startsWith("job_"))[0]).toEqual({ type: "job_resumed", step: 2, jobId: job2 });
    expect(again.filter((e) => e.type === "rollouts_started").map((e) => e.step)).toEqual([3, 4]);
    expect(steps.map((s) => [s.step, s.jobId === job2])).toEqual([
      [2, true],
      [3, false],
      [4, false],
    ]);
    // The resumed step keeps what its rollouts were: sampled step and mean reward.
    expect(steps[0]).toMatchObject({ sampledStep: 0, reward: 0.5 });
    expect(typeof steps[0]!.metrics.loss).toBe("number");
    expect(stepsOfJobs(model)).toEqual([1, 2, 3, 4]);
    expect(again.at(-1)).toEqual({ type: "target_reached", step: 4 });
    expect(readState(state)).toEqual({ version: 1, modelId: model.id, trained: 4 });
  });

  it("a loop already at its target says so through onEvent and ends, creating nothing", async () => {
    const model = await register();
    const state = stateFile();
    await collect(model.trainLoop({ ...base, steps: 2, state }));
    const sent = fake.svc.requests.length;
    const events: TrainLoopEvent[] = [];
    expect(await collect(model.trainLoop({ ...base, steps: 2, state, onEvent: (e) => events.push(e) }))).toEqual([]);
    expect(events).toEqual([{ type: "target_reached", step: 2 }]);
    // One request: the latest step.
    expect(fake.svc.requests.length).toBe(sent + 1);
  });

  it("state of another model of the same name is not followed: a warning, and this model's state replaces it", async () => {
    const warnings = captureWarnings();
    const model = await register();
    const state = stateFile();
    const other: LoopState = {
      version: 1,
      modelId: "0b6f0c36-2f34-4a51-9b7e-6c0d3c1c0a11",
      trained: 0,
      job: {
        step: 1,
        idempotencyKey: "k-1",
        jobId: "a1b2c3d4-0000-4000-8000-000000000000",
        sampledStep: 0,
        rolloutsMs: 5,
      },
    };
    writeFileSync(state, JSON.stringify(other));
    const events: TrainLoopEvent[] = [];
    const steps = await collect(model.trainLoop({ ...base, steps: 1, state, onEvent: (e) => events.push(e) }));
    expect(steps.map((s) => s.step)).toEqual([1]);
    expect(events.some((e) => e.type === "job_resumed")).toBe(false);
    expect(fake.svc.requests.some((r) => r.path.includes(other.job!.jobId!))).toBe(false);
    expect(warnings.codes()).toEqual(["INFERLOOP_LOOP_STATE_OF_OTHER_MODEL"]);
    expect(warnings.messages()[0]).toContain(`belongs to model ${other.modelId}, not ${model.id}`);
    expect(readState(state)).toEqual({ version: 1, modelId: model.id, trained: 1 });
  });

  it("the create window: a create whose answer was lost is sent again with the same key, and no second job is made", async () => {
    const model = await register();
    const state = stateFile();
    // Long enough for the next loop to start while it trains (once trained, nothing is sent again).
    fake.svc.state.trainable.jobMs = 600;
    // The job is made, then the connection drops before its answer: its id never reaches the loop.
    fake.svc.inject(faults.reset({ path: "/v1/preview/training-jobs", afterBytes: 0 }));
    const err = await caught(() => collect(model.trainLoop({ ...base, steps: 2, state })));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(jobsOf(model)).toHaveLength(1);
    const saved = readState(state);
    expect(saved.job).toMatchObject({ step: 1, sampledStep: 0 });
    expect(saved.job?.jobId).toBeUndefined();
    expect(saved.job?.request?.trajectory_groups).toHaveLength(1);
    const key = saved.job!.idempotencyKey;
    expect(jobsOf(model)[0]!.idempotency_key).toBe(key);

    const events: TrainLoopEvent[] = [];
    const before = fake.svc.requests.length;
    const steps = await collect(model.trainLoop({ ...base, steps: 2, state, onEvent: (e) => events.push(e) }));
    // The same request with the same key: the server answered with the job it had made.
    const creates = fake.svc.requests
      .slice(before)
      .filter((r) => r.method === "POST" && r.path === "/v1/preview/training-jobs");
    expect(creates[0]!.headers["idempotency-key"]).toBe(key);
    expect(creates[0]!.body).toBe(fake.svc.requests.find((r) => r.headers["idempotency-key"] === key)!.body);
    expect(fake.svc.requests.filter((r) => r.headers["idempotency-key"] === key)).toHaveLength(2);
    expect(events.find((e) => e.type === "job_created")).toEqual({
      type: "job_created",
      step: 1,
      jobId: jobsOf(model)[0]!.id,
    });
    expect(steps.map((s) => s.step)).toEqual([1, 2]);
    expect(stepsOfJobs(model)).toEqual([1, 2]);
  });

  it("a create saved but never sent (stopped just after the save) is sent by the next loop", async () => {
    const model = await register();
    // The rollouts of step 1 as a loop would have saved them before its create.
    const groups = await rollouts({
      step: 1,
      sampledStep: 0,
      modelName: model.inferenceName(),
      signal: new AbortController().signal,
      onProgress: () => {},
    });
    for (const t of groups[0]!.trajectories) t.initial_policy_version = t.final_policy_version = 0;
    let kept: LoopState | undefined = JSON.parse(
      JSON.stringify({
        version: 1,
        modelId: model.id,
        trained: 0,
        job: {
          step: 1,
          idempotencyKey: "key-of-step-1",
          sampledStep: 0,
          rolloutsMs: 7,
          request: { trajectory_groups: groups },
        },
      }),
    );
    const store: LoopStateStore = {
      load: async () => kept,
      save: async (s) => {
        kept = JSON.parse(JSON.stringify(s));
      },
    };
    const calls: number[] = [];
    const steps = await collect(
      model.trainLoop({
        ...base,
        steps: 1,
        state: store,
        rollouts: (ctx) => {
          calls.push(ctx.step);
          return rollouts(ctx);
        },
      }),
    );
    expect(steps.map((s) => [s.step, s.durations.rollouts])).toEqual([[1, 7]]);
    expect(calls).toEqual([]);
    expect(jobsOf(model).map((j) => j.idempotency_key)).toEqual(["key-of-step-1"]);
    expect(kept).toEqual({ version: 1, modelId: model.id, trained: 1 });
  });

  it("a job that ended while no loop ran is followed for its metrics and handed out; a failed one is dropped", async () => {
    const model = await register();
    const state = stateFile();
    const controller = new AbortController();
    await caught(() =>
      collect(
        model.trainLoop({
          ...base,
          steps: 3,
          state,
          signal: controller.signal,
          onEvent: (e) => e.type === "job_created" && controller.abort(),
        }),
      ),
    );
    // Job 1 ends on the server meanwhile.
    while ((await model.latestStep()) < 1) await new Promise((r) => setTimeout(r, 10));
    const again: TrainLoopEvent[] = [];
    const steps = await collect(model.trainLoop({ ...base, steps: 1, state, onEvent: (e) => again.push(e) }));
    expect(steps.map((s) => s.step)).toEqual([1]);
    expect(again.find((e) => e.type === "job_resumed")).toMatchObject({ type: "job_resumed", step: 1 });
    expect(jobsOf(model)).toHaveLength(1);

    // A job that failed is over: the state forgets it, and a new loop samples its step again.
    fake.svc.inject(faults.trainingFailed("CUDA out of memory"));
    expect(await caught(() => collect(model.trainLoop({ ...base, steps: 2, state })))).toBeInstanceOf(
      TrainingJobFailedError,
    );
    expect(readState(state).job).toBeUndefined();
    expect((await collect(model.trainLoop({ ...base, steps: 2, state }))).map((s) => s.step)).toEqual([2]);
    expect(stepsOfJobs(model)).toEqual([1, 2, 2]);
  });

  it("a saved job the server does not know (404) stops the loop once; the state forgets it and the next loop trains", async () => {
    const model = await register();
    const state = stateFile();
    const unknown = "a1b2c3d4-0000-4000-8000-00000000dead";
    writeFileSync(
      state,
      JSON.stringify({
        version: 1,
        modelId: model.id,
        trained: 0,
        job: { step: 1, idempotencyKey: "k", jobId: unknown, sampledStep: 0, rolloutsMs: 1 },
      }),
    );
    expect(await caught(() => collect(model.trainLoop({ ...base, steps: 1, state })))).toBeInstanceOf(NotFoundError);
    expect(readState(state).job).toBeUndefined();
    expect((await collect(model.trainLoop({ ...base, steps: 1, state }))).map((s) => s.step)).toEqual([1]);
  });

  it("state: false keeps nothing, and the abort says to wait for the job before a new loop", async () => {
    const model = await register();
    fake.svc.state.trainable.jobMs = 400;
    const controller = new AbortController();
    const err = await caught(() =>
      collect(
        model.trainLoop({
          ...base,
          steps: 2,
          state: false,
          signal: controller.signal,
          onEvent: (e) => e.type === "job_created" && controller.abort(),
        }),
      ),
    );
    expect((err as Error).message).toMatch(
      /No state is kept \(state: false\): wait for it to end \(client\.trainingJobs\.follow\("/,
    );
  });

  it("the default state file is .inferloop/<entity>/<project>/<name>/train-loop.json, names escaped", () => {
    const owner = { id: "x", entity: "acme", project: "rl", name: "agent" };
    expect(defaultStateStore(owner).where).toBe(join(".inferloop", "acme", "rl", "agent", "train-loop.json"));
    expect(defaultStateStore({ ...owner, name: "../up" }).where).toBe(
      join(".inferloop", "acme", "rl", "%2E.%2Fup", "train-loop.json"),
    );
  });
});
