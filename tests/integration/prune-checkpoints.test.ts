/**
 * `model.pruneCheckpoints` over real HTTP against the fake service: which steps it keeps by
 * their metrics (`checkpoints.list`), what it deletes, and what it refuses before sending.
 */
import { describe, expect, it } from "vitest";
import { RequestValidationError, type TrainableModel, type TrajectoryGroup } from "../../src/index.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false, trainingStepMs: 0 });

/** One group whose mean reward is `reward` (two rollouts apart, so the group teaches something). */
function groupWithMean(reward: number): TrajectoryGroup[] {
  return [
    {
      trajectories: [0.05, -0.05].map((d, i) => ({
        messages_and_choices: [
          { role: "user", content: "Say hi" },
          { finish_reason: "stop", index: 0, message: { role: "assistant", content: `hi ${i}` } },
        ],
        reward: reward + d,
      })),
    },
  ];
}

/** A model trained one step per reward: step N's checkpoint has `metrics.reward` = rewards[N-1]. */
async function trained(rewards: number[]): Promise<TrainableModel> {
  const model = await fake.client.trainableModels.register({
    project: "rl",
    name: "pruned",
    base_model: "OpenPipe/Qwen3-14B-Instruct",
  });
  // Hand-built choices carry no logprobs: the trainer is told to train them anyway.
  const experimental_config = { allow_training_without_logprobs: true };
  for (const r of rewards) await model.train(groupWithMean(r), { pollInterval: 1, experimental_config });
  return model;
}

async function steps(model: TrainableModel): Promise<number[]> {
  return (await fake.client.trainableModels.checkpoints.list(model.id, { limit: 100 }).toArray()).map((c) => c.step);
}

const deletes = () => fake.svc.requests.filter((r) => r.method === "DELETE");

describe("model.pruneCheckpoints", () => {
  it("by default keeps the latest step only, deleting the rest in one request", async () => {
    const model = await trained([0.2, 0.9, 0.1, 0.3]);
    expect(await model.pruneCheckpoints()).toEqual({
      kept: [4],
      deleted: [1, 2, 3],
      reasons: { 4: ["latest", "keepLatest"] },
    });
    expect(await steps(model)).toEqual([4]);
    expect(deletes().map((r) => r.json)).toEqual([{ steps: [1, 2, 3] }]);
  });

  it("keeps the newest keepLatest and the keepBest best by a metric (max by default)", async () => {
    const model = await trained([0.2, 0.9, 0.1, 0.3, 0.4]);
    expect(await model.pruneCheckpoints({ keepLatest: 2, keepBest: 1, metric: "reward" })).toEqual({
      kept: [2, 4, 5],
      deleted: [1, 3],
      reasons: { 2: ["best"], 4: ["keepLatest"], 5: ["latest", "keepLatest"] },
    });
    expect(await steps(model)).toEqual([2, 4, 5]);
  });

  it("mode min keeps the lowest values; a tie keeps the newer step", async () => {
    const model = await trained([0.5, 0.1, 0.7, 0.1, 0.9, 0.6]);
    expect(await model.pruneCheckpoints({ keepLatest: 1, keepBest: 1, metric: "reward", mode: "min" })).toEqual({
      kept: [4, 6],
      deleted: [1, 2, 3, 5],
      reasons: { 4: ["best"], 6: ["latest", "keepLatest"] },
    });
  });

  it("never deletes the latest step, even with keepLatest 0 and the worst value", async () => {
    const model = await trained([0.9, 0.5, 0.1]);
    expect(await model.pruneCheckpoints({ keepLatest: 0, keepBest: 1, metric: "reward" })).toEqual({
      kept: [1, 3],
      deleted: [2],
      reasons: { 1: ["best"], 3: ["latest"] },
    });
    expect(await model.pruneCheckpoints({ keepLatest: 0 })).toEqual({
      kept: [3],
      deleted: [1],
      reasons: { 3: ["latest"] },
    });
    expect(await steps(model)).toEqual([3]);
  });

  it("keepLatest 0 with keepBest 2 keeps three steps when the latest is not among the best, and says why", async () => {
    const model = await trained([0.9, 0.8, 0.1, 0.2]);
    expect(await model.pruneCheckpoints({ keepLatest: 0, keepBest: 2, metric: "reward" })).toEqual({
      kept: [1, 2, 4],
      deleted: [3],
      reasons: { 1: ["best"], 2: ["best"], 4: ["latest"] },
    });
  });

  it("the fake's checkpoints differ per step, so a training metric such as the loss ranks them", async () => {
    const model = await trained([0.5, 0.5, 0.5, 0.5]);
    const all = await fake.client.trainableModels.checkpoints.list(model.id).toArray();
    const losses = all.map((c) => c.metrics.loss);
    expect(new Set(losses).size).toBe(4);
    const lowest = all.reduce((a, b) => (b.metrics.loss! < a.metrics.loss! ? b : a)).step;
    const { kept } = await model.pruneCheckpoints({
      keepLatest: 0,
      keepBest: 1,
      metric: "loss",
      mode: "min",
      dryRun: true,
    });
    expect(kept).toEqual([...new Set([lowest, 4])].sort((a, b) => a - b));
  });

  it("steps without the metric are not ranked", async () => {
    const model = await trained([0.2, 0.9, 0.3]);
    expect(await model.pruneCheckpoints({ keepBest: 2, metric: "val/reward", dryRun: true })).toEqual({
      kept: [3],
      deleted: [1, 2],
      reasons: { 3: ["latest", "keepLatest"] },
    });
  });

  it("dryRun says what would go and deletes nothing; nothing to delete sends no delete", async () => {
    const model = await trained([0.2, 0.9, 0.3]);
    expect(await model.pruneCheckpoints({ keepBest: 1, metric: "reward", dryRun: true })).toEqual({
      kept: [2, 3],
      deleted: [1],
      reasons: { 2: ["best"], 3: ["latest", "keepLatest"] },
    });
    expect(await model.pruneCheckpoints({ keepLatest: 3 })).toMatchObject({ kept: [1, 2, 3], deleted: [] });
    expect(deletes()).toHaveLength(0);
    expect(await steps(model)).toEqual([1, 2, 3]);
  });

  it("refuses bad options before anything is sent, naming the option", async () => {
    const model = await trained([0.5]);
    const sent = fake.svc.requests.length;
    for (const [options, path] of [
      [{ keepBest: 1 }, "metric"],
      [{ keepLatest: -1 }, "keepLatest"],
      [{ keepBest: 1.5, metric: "reward" }, "keepBest"],
      [{ metric: "reward", mode: "maximum" }, "mode"],
      [{ metric: "" }, "metric"],
      // A misspelt option would be dropped, and the checkpoints it meant to keep deleted.
      [{ keepLatest: 1, metrics: "reward" }, "metrics"],
      [{ keeplatest: 3 }, "keeplatest"],
    ] as const) {
      const err = await caught(() => model.pruneCheckpoints(options as never));
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).issues.map((i) => i.path)).toContain(path);
      expect((err as Error).message).toMatch(/Invalid pruneCheckpoints options: .*Nothing was sent\./);
    }
    expect(fake.svc.requests.length).toBe(sent);
  });
});

describe("client.trainableModels.checkpoints.prune (a model known by its id)", () => {
  it("prunes as the handle does, with only the model's id", async () => {
    const { id } = await trained([0.2, 0.9, 0.1, 0.3]);
    const checkpoints = fake.client.trainableModels.checkpoints;
    const reasons = { 2: ["best"], 4: ["latest", "keepLatest"] };
    expect(await checkpoints.prune(id, { keepBest: 1, metric: "reward", dryRun: true })).toEqual({
      kept: [2, 4],
      deleted: [1, 3],
      reasons,
    });
    expect(deletes()).toHaveLength(0);
    expect(await checkpoints.prune(id, { keepBest: 1, metric: "reward" })).toEqual({
      kept: [2, 4],
      deleted: [1, 3],
      reasons,
    });
    expect(deletes().map((r) => r.json)).toEqual([{ steps: [1, 3] }]);
    const sent = fake.svc.requests.length;
    await expect(checkpoints.prune(id, { keepBest: 1 })).rejects.toBeInstanceOf(RequestValidationError);
    expect(fake.svc.requests.length).toBe(sent);
  });
});
