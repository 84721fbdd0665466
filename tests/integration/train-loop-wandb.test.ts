/**
 * `trainLoop`'s metrics in the model's W&B run, over real HTTP against the fake: each trained
 * step and each evaluation is one history row with ART's keys and `training_step`, `_step`
 * counts up across loops, `logTo: false` sends nothing, and W&B failing never fails the loop.
 */
import { describe, expect, it } from "vitest";
import {
  type Logger,
  type TrainableModel,
  type TrainLoopOptions,
  type TrainLoopRolloutContext,
  type TrainLoopStep,
  Trajectory,
} from "../../src/index.js";
import { clientFor, useFakeService } from "./helpers.js";

const BASE = "OpenPipe/Qwen3-14B-Instruct";
const fake = useFakeService({ seedCalls: false, trainingStepMs: 1 });

function collectingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => {};
  return { logger: { error: ignore, warn: (m) => warnings.push(m), info: ignore, debug: ignore }, warnings };
}

/** Two trajectories per step, rewards 1 and 0, each with a `correct` metric; one failed rollout. */
function rollouts({ step, modelName }: TrainLoopRolloutContext) {
  return [0, 1].map((seed) => {
    const t = new Trajectory({
      messages_and_choices: [
        { role: "user", content: `step ${step}` },
        {
          index: 0,
          finish_reason: "stop",
          logprobs: { content: [{ token: "a", logprob: -0.1, bytes: null, top_logprobs: [] }] },
          message: { role: "assistant", content: modelName },
        },
      ],
    });
    t.reward = 1 - seed;
    t.metrics = { correct: seed === 0 };
    return { trajectories: [t], exceptions: [] as { type: string; message: string; traceback: string }[] };
  });
}

const loop = (overrides: Partial<TrainLoopOptions> = {}): TrainLoopOptions => ({
  steps: 2,
  maxStepsOffPolicy: 0,
  pollInterval: 5,
  rollouts: (ctx) => {
    const groups = rollouts(ctx);
    // One group of both rollouts, and one failed rollout next to them.
    return [
      {
        trajectories: groups.flatMap((g) => g.trajectories),
        exceptions: [{ type: "Error", message: "x", traceback: "" }],
      },
    ];
  },
  eval: ({ step }) => ({ reward: step / 10, "val/accuracy": 1 }),
  ...overrides,
});

async function collect(iterable: AsyncIterable<TrainLoopStep>): Promise<TrainLoopStep[]> {
  const out: TrainLoopStep[] = [];
  for await (const s of iterable) out.push(s);
  return out;
}

const runOf = (model: TrainableModel) => fake.svc.state.wandbRuns.find(model.entity, model.project, model.run_id!);
const rowsOf = (model: TrainableModel) => fake.svc.state.wandbRuns.history(model.entity, model.project, model.run_id!);
const wandbRequests = () => fake.svc.requests.filter((r) => r.path === "/graphql" || r.path.startsWith("/files/"));

describe("trainLoop logs to the model's W&B run", () => {
  it("a 2-step loop with eval leaves one row per trained step and per eval, with ART's keys and training_step", async () => {
    const model = await fake.client.trainableModels.register({ project: "rl", name: "logged", base_model: BASE });
    expect(model.run_id).toBeTruthy();
    const steps = await collect(model.trainLoop(loop()));
    expect(steps.map((s) => s.step)).toEqual([1, 2]);

    const rows = rowsOf(model);
    expect(rows).toHaveLength(4);
    // W&B's own step counts the rows; ART's x-axis is training_step.
    expect(rows.map((r) => r._step)).toEqual([0, 1, 2, 3]);
    for (const r of rows) expect(typeof r._timestamp).toBe("number");
    const train = rows.filter((r) => "train/reward" in r);
    const val = rows.filter((r) => "val/reward" in r);
    expect(train.map((r) => r.training_step)).toEqual([1, 2]);
    expect(val.map((r) => r.training_step).sort()).toEqual([1, 2]);
    for (const r of train) {
      expect(r).toMatchObject({
        "train/reward": 0.5,
        "train/reward_std_dev": 0.5,
        "train/exception_rate": 1 / 3,
        "train/correct": 0.5,
        "data/step_num_scenarios": 1,
        // The server's count (trajectories trained) wins over the client's, as in ART.
        "data/step_num_trajectories": 2,
        "data/step_num_groups_trainable": 1,
      });
      // The job's gradient metrics under ART's names; the gradient step's index is no metric.
      expect(typeof r["loss/train"]).toBe("number");
      expect(typeof r["loss/grad_norm"]).toBe("number");
      expect(r["loss/learning_rate"]).toBe(5e-6);
      expect(r["time/step_backend_train_s"]).toBeGreaterThan(0);
      expect(Object.keys(r).filter((k) => k === "train/step" || k === "loss")).toEqual([]);
    }
    expect(val.find((r) => r.training_step === 2)).toMatchObject({ "val/reward": 0.2, "val/accuracy": 1 });

    const run = runOf(model)!;
    expect(run).toMatchObject({ state: "finished", exitcode: 0 });
    expect(run.summary).toMatchObject({ _step: 3, "val/accuracy": 1 });
    // Every key plotted against training_step, as ART's define_metric does.
    const m = JSON.parse(run.config)._wandb.value.m as Array<Record<string, unknown>>;
    const stepIndex = m.findIndex((e) => e["1"] === "training_step");
    expect(m[stepIndex]).toEqual({ "1": "training_step", "6": [3] });
    for (const key of ["train/reward", "loss/train", "val/reward"])
      expect(m.find((e) => e["1"] === key)).toEqual({ "1": key, "5": stepIndex + 1, "6": [1] });

    // W&B's key goes as Basic api:<key>, to the W&B host the client was given.
    const auth = `Basic ${Buffer.from(`api:${fake.svc.apiKey}`).toString("base64")}`;
    for (const r of wandbRequests()) expect(r.headers.authorization).toBe(auth);
    expect(wandbRequests().map((r) => (r.json as { operationName?: string }).operationName ?? r.path)).toEqual(
      expect.arrayContaining(["RunResumeStatus", "UpsertBucket", `/files/acme/rl/${model.run_id}/file_stream`]),
    );
  });

  it("a second loop resumes the run: rows are appended after the first loop's, _step goes on", async () => {
    const model = await fake.client.trainableModels.register({ project: "rl", name: "resumed", base_model: BASE });
    await collect(model.trainLoop(loop()));
    await collect(model.trainLoop(loop({ steps: 3, eval: undefined })));
    const rows = rowsOf(model);
    expect(rows.map((r) => r._step)).toEqual([0, 1, 2, 3, 4]);
    expect(rows.at(-1)).toMatchObject({ training_step: 3, "train/reward": 0.5 });
    // The first loop's rows are still there, untouched.
    expect(
      rows
        .slice(0, 4)
        .map((r) => r.training_step)
        .sort(),
    ).toEqual([1, 1, 2, 2]);
    expect(runOf(model)!.summary).toMatchObject({ "val/accuracy": 1, training_step: 3 });
  });

  it("logTo: false sends nothing to W&B; a loop with nothing to train sends nothing either", async () => {
    const model = await fake.client.trainableModels.register({ project: "rl", name: "quiet", base_model: BASE });
    await collect(model.trainLoop(loop({ logTo: false })));
    expect(wandbRequests()).toEqual([]);
    await collect(model.trainLoop(loop({ logTo: "wandb" })));
    expect(wandbRequests()).toEqual([]);
    expect(runOf(model)).toBeUndefined();
  });

  it("a W&B failure that passes loses no row and writes none twice; the loop never notices", async () => {
    const { logger, warnings } = collectingLogger();
    const client = clientFor(fake.svc, { logger, logLevel: "warn" });
    const model = await client.trainableModels.register({ project: "rl", name: "flaky", base_model: BASE });
    fake.svc.inject({ kind: "status", status: 503, path: /\/file_stream$/ });
    const steps = await collect(model.trainLoop(loop()));
    expect(steps.map((s) => s.step)).toEqual([1, 2]);
    const rows = rowsOf(model);
    expect(rows.map((r) => r._step)).toEqual([0, 1, 2, 3]);
    // The failed request was sent again as it was: the same lines at the same offsets.
    type Body = { files: Record<string, { offset: number; content: string[] }> };
    const [first, again] = fake.svc.requests
      .filter((r) => r.path.endsWith("/file_stream"))
      .map((r) => (r.json as Body).files["wandb-history.jsonl"]!);
    expect(again!.offset).toBe(first!.offset);
    expect(again!.content.slice(0, first!.content.length)).toEqual(first!.content);
    expect(warnings.filter((w) => w.includes("could not be sent"))).toHaveLength(1);
    expect(runOf(model)).toMatchObject({ state: "finished" });
  });

  it("a W&B that refuses the key: the loop trains every step and says once that nothing is logged", async () => {
    const { logger, warnings } = collectingLogger();
    const client = clientFor(fake.svc, { logger, logLevel: "warn" });
    const model = await client.trainableModels.register({ project: "rl", name: "refused", base_model: BASE });
    fake.svc.inject({ kind: "status", status: 401, path: "/graphql", times: Infinity });
    const steps = await collect(model.trainLoop(loop({ steps: 3 })));
    expect(steps.map((s) => s.step)).toEqual([1, 2, 3]);
    const said = warnings.filter((w) => w.includes("W&B run"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`acme/rl/${model.run_id}`);
    expect(said[0]).toContain("logTo: false");
    // One try: a refusal is not sent again.
    expect(fake.svc.requests.filter((r) => r.path === "/graphql")).toHaveLength(1);
    expect(said[0]).not.toContain(fake.svc.apiKey);
  });
});
