/**
 * `model.trainLoop` over real HTTP against the fake service: the strict and the pipelined loop,
 * the staleness bound, one job at a time, policy versions on the wire, failures, aborts and
 * resuming, evaluation and checkpoint retention.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/core/pipeline/retry.js";
import {
  APIUserAbortError,
  RequestValidationError,
  type TrainableModel,
  TrainingJobFailedError,
  type TrainLoopEvent,
  type TrainLoopOptions,
  type TrainLoopStep,
} from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { caught, useFakeService } from "./helpers.js";
import { stepRollouts } from "./loop-rollouts.js";

const BASE = "OpenPipe/Qwen3-14B-Instruct";
const fake = useFakeService({ seedCalls: false, trainingJobMs: 60 });

async function register(name = "looper"): Promise<TrainableModel> {
  return fake.client.trainableModels.register({ project: "rl", name, base_model: BASE });
}

/**
 * Rollouts that sample `modelName` on the fake (so the checkpoint must exist), two per group,
 * after waiting `delayMs` (the rollouts' own length); rewards 1 and 0.
 */
function rolloutsOn(delayMs: (step: number) => number = () => 0) {
  return stepRollouts(fake.client, { delayMs });
}

async function collect(iterable: AsyncIterable<TrainLoopStep>): Promise<TrainLoopStep[]> {
  const out: TrainLoopStep[] = [];
  for await (const s of iterable) out.push(s);
  return out;
}

/**
 * The jobs the fake received for `model`. Counted per model: a test that ends while a job's
 * creation is on its way (a failed or aborted loop) may see it land in the next test.
 */
function jobsOf(model: TrainableModel) {
  return fake.svc.state.training.list.filter((job) => job.model_id === model.id);
}

/** The policy versions of every trajectory in each of `model`'s jobs, job by job. */
function policyVersionsSent(model: TrainableModel): Array<Array<[unknown, unknown]>> {
  return jobsOf(model).map((job) =>
    (job.request["trajectory_groups"] as Array<{ trajectories: Array<Record<string, unknown>> }>).flatMap((g) =>
      g.trajectories.map((t): [unknown, unknown] => [t["initial_policy_version"], t["final_policy_version"]]),
    ),
  );
}

function checkpointSteps(model: TrainableModel): number[] {
  return fake.svc.state.trainable.models.find((m) => m.id === model.id)!.checkpoints.map((c) => c.step);
}

// No state kept: these tests resume from the model's checkpoints (train-loop-state.test.ts
// covers the state).
const base = { pollInterval: 5, state: false } satisfies Partial<TrainLoopOptions>;

describe("trainLoop", () => {
  it("strict (maxStepsOffPolicy 0): samples each new checkpoint by its pinned name and sends its policy version", async () => {
    const model = await register();
    const names: string[] = [];
    const rollouts = rolloutsOn();
    const steps = await collect(
      model.trainLoop({
        ...base,
        steps: 3,
        maxStepsOffPolicy: 0,
        rollouts: (ctx) => {
          names.push(ctx.modelName);
          return rollouts(ctx);
        },
      }),
    );
    expect(steps.map((s) => [s.step, s.sampledStep])).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    expect(names).toEqual([model.inferenceName(), model.inferenceName(1), model.inferenceName(2)]);
    expect(policyVersionsSent(model)).toEqual([
      [
        [0, 0],
        [0, 0],
      ],
      [
        [1, 1],
        [1, 1],
      ],
      [
        [2, 2],
        [2, 2],
      ],
    ]);
    for (const s of steps) {
      expect(s.jobId).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof s.metrics.loss).toBe("number");
      expect(s.reward).toBe(0.5);
      expect(s.evalMetrics).toBeUndefined();
    }
    expect(checkpointSteps(model)).toEqual([1, 2, 3]);
  });

  it("maxStepsOffPolicy 1: the next step's rollouts run while a job trains, on the newest checkpoint", async () => {
    const model = await register();
    const at = { rolloutStarted: new Map<number, number>(), jobEnded: new Map<number, number>() };
    const rollouts = rolloutsOn();
    const steps = await collect(
      model.trainLoop({
        ...base,
        steps: 4,
        maxStepsOffPolicy: 1,
        rollouts: (ctx) => {
          at.rolloutStarted.set(ctx.step, performance.now());
          return rollouts(ctx);
        },
        onEvent: (e) => {
          if (e.type === "job" && e.event.type === "training_ended") at.jobEnded.set(e.step, performance.now());
        },
      }),
    );
    expect(steps.map((s) => [s.step, s.sampledStep])).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 2],
    ]);
    // Step 3's rollouts start when checkpoint 1 lands, while job 2 still trains.
    for (const step of [3, 4]) expect(at.rolloutStarted.get(step)!).toBeLessThan(at.jobEnded.get(step - 1)!);
    expect(policyVersionsSent(model).map((job) => job[0]![0])).toEqual([0, 0, 1, 2]);
  });

  it("runs one job at a time, in step order", async () => {
    const model = await register();
    const store = fake.svc.state.trainable;
    const startJob = store.startJob.bind(store);
    // At each job's creation: how many earlier jobs had not ended (an ended job has added its
    // checkpoint once the events that are due are released).
    const unfinishedAtCreate: number[] = [];
    store.startJob = (job, failure) => {
      const earlier = jobsOf(model).filter((j) => j.id !== job.id);
      if (earlier.length > 0) store.advance();
      unfinishedAtCreate.push(earlier.length - checkpointSteps(model).length);
      startJob(job, failure);
    };
    try {
      const steps = await collect(model.trainLoop({ ...base, steps: 4, maxStepsOffPolicy: 2, rollouts: rolloutsOn() }));
      expect(steps.map((s) => s.step)).toEqual([1, 2, 3, 4]);
      expect(unfinishedAtCreate).toEqual([0, 0, 0, 0]);
      expect(steps.map((s) => s.jobId)).toEqual(jobsOf(model).map((j) => j.id));
    } finally {
      store.startJob = startJob;
    }
  });

  it("resumes from the model's checkpoints: no step trained twice, none skipped", async () => {
    const model = await register();
    const first = await collect(model.trainLoop({ ...base, steps: 2, maxStepsOffPolicy: 1, rollouts: rolloutsOn() }));
    expect(first.map((s) => s.step)).toEqual([1, 2]);
    const again = await collect(model.trainLoop({ ...base, steps: 4, maxStepsOffPolicy: 1, rollouts: rolloutsOn() }));
    expect(again.map((s) => [s.step, s.sampledStep])).toEqual([
      [3, 2],
      [4, 2],
    ]);
    expect(await collect(model.trainLoop({ ...base, steps: 4, maxStepsOffPolicy: 1, rollouts: rolloutsOn() }))).toEqual(
      [],
    );
    expect(jobsOf(model)).toHaveLength(4);
    expect(checkpointSteps(model)).toEqual([1, 2, 3, 4]);
  });

  it("an abort stops the loop: rollouts aborted and ended, no job created after it; a new loop resumes", async () => {
    const model = await register();
    const controller = new AbortController();
    let running = 0;
    const aborted: number[] = [];
    let job2Started!: () => void;
    const job2 = new Promise<void>((resolve) => (job2Started = resolve));
    const rollouts = rolloutsOn(() => 20);
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const timersBefore = timers();
    const err = await caught(() =>
      collect(
        model.trainLoop({
          ...base,
          steps: 8,
          maxStepsOffPolicy: 1,
          signal: controller.signal,
          onEvent: (e) => {
            if (e.type === "job" && e.step === 2) job2Started();
          },
          rollouts: async (ctx) => {
            running++;
            try {
              // Step 3's rollouts run while job 2 trains: the abort comes then.
              if (ctx.step === 3) {
                await job2;
                controller.abort();
              }
              return await rollouts(ctx);
            } catch (e) {
              if (ctx.signal.aborted) aborted.push(ctx.step);
              // A rollout may take a moment to wind down (closing what it opened): the loop waits.
              await new Promise((r) => setTimeout(r, 30));
              throw e;
            } finally {
              running--;
            }
          },
        }),
      ),
    );
    expect(err).toBeInstanceOf(APIUserAbortError);
    // The loop ends once everything it started has: no rollout is left running.
    expect(running).toBe(0);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
    expect(aborted).toEqual([3]);
    expect(jobsOf(model)).toHaveLength(2);
    // Job 2 was training when the loop stopped: it ends on the server, and then a new loop resumes.
    // (The fake releases a job's events as requests come: latestStep() is one.)
    let latest = await model.latestStep();
    while (latest < 2) {
      await new Promise((r) => setTimeout(r, 10));
      latest = await model.latestStep();
    }
    expect(latest).toBe(2);
    const resumed = await collect(model.trainLoop({ ...base, steps: 4, maxStepsOffPolicy: 1, rollouts: rolloutsOn() }));
    expect(resumed.map((s) => [s.step, s.sampledStep])).toEqual([
      [3, 2],
      [4, 2],
    ]);
    expect(checkpointSteps(model)).toEqual([1, 2, 3, 4]);
    expect(jobsOf(model)).toHaveLength(4);
  });

  it("leaving the for await early stops the loop quietly and creates no further job", async () => {
    const model = await register();
    let calls = 0;
    const rollouts = rolloutsOn(() => 20);
    for await (const s of model.trainLoop({
      ...base,
      steps: 6,
      maxStepsOffPolicy: 0,
      rollouts: (ctx) => {
        calls++;
        return rollouts(ctx);
      },
    })) {
      if (s.step === 2) break;
    }
    // Strict: the rollouts of step 3 had started (and were aborted); no job was made from them.
    expect(calls).toBe(3);
    expect(jobsOf(model)).toHaveLength(2);
  });

  it("a failed rollout stops the loop with its error; the other rollouts are aborted, no job is made from them", async () => {
    const model = await register();
    const boom = new Error("rollout 2 failed");
    const abortedSteps: number[] = [];
    const rollouts = rolloutsOn();
    const err = await caught(() =>
      collect(
        model.trainLoop({
          ...base,
          steps: 5,
          maxStepsOffPolicy: 2,
          rollouts: async (ctx) => {
            if (ctx.step === 2) {
              await sleep(10, ctx.signal);
              throw boom;
            }
            if (ctx.step === 3) {
              await sleep(60_000, ctx.signal).catch((e) => {
                abortedSteps.push(ctx.step);
                throw e;
              });
            }
            return rollouts(ctx);
          },
        }),
      ),
    );
    expect(err).toBe(boom);
    expect(abortedSteps).toEqual([3]);
    expect(jobsOf(model).length).toBeLessThanOrEqual(1);
  });

  it("a failed job stops the loop with TrainingJobFailedError and nothing after it is trained", async () => {
    const model = await register();
    let completed = 0;
    const err = await caught(async () => {
      for await (const _ of model.trainLoop({
        ...base,
        steps: 5,
        maxStepsOffPolicy: 1,
        rollouts: rolloutsOn(),
        onEvent: (e) => {
          if (e.type === "trained" && e.step === 1)
            fake.svc.inject({ ...faults.trainingFailed("CUDA out of memory"), path: "/v1/preview/training-jobs" });
        },
      }))
        completed++;
    });
    expect(err).toBeInstanceOf(TrainingJobFailedError);
    expect((err as Error).message).toContain("CUDA out of memory");
    expect(jobsOf(model)).toHaveLength(2);
    expect(checkpointSteps(model)).toEqual([1]);
    // Step 1 had trained before job 2 failed: it is handed out before the error.
    expect(completed).toBe(1);
  });

  it("eval runs on trained checkpoints every evalEvery steps, by their pinned names", async () => {
    const model = await register();
    const evaluated: Array<[number, string]> = [];
    const steps = await collect(
      model.trainLoop({
        ...base,
        steps: 4,
        maxStepsOffPolicy: 1,
        rollouts: rolloutsOn(),
        evalEvery: 2,
        eval: async ({ step, modelName, signal }) => {
          evaluated.push([step, modelName]);
          const reply = await fake.client.chat.completions.create(
            { model: modelName, messages: [{ role: "user", content: "eval" }], max_completion_tokens: 4 },
            { signal },
          );
          return { words: (reply.choices[0]?.message.content ?? "").split(" ").length, step };
        },
      }),
    );
    expect(evaluated).toEqual([
      [2, model.inferenceName(2)],
      [4, model.inferenceName(4)],
    ]);
    expect(steps.map((s) => s.evalMetrics?.step)).toEqual([undefined, 2, undefined, 4]);
  });

  it("retention prunes after each step, keeping the best and never a checkpoint still sampled", async () => {
    const model = await register();
    const pruned: Array<Extract<TrainLoopEvent, { type: "checkpoints_pruned" }>> = [];
    const prunedAfter = new Map<number, () => void>();
    const waitPruned = (step: number, signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        prunedAfter.set(step, resolve);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    // Step 2 trains on the best rewards, the others on worse ones.
    const rewardOf = (step: number) => (step === 2 ? 1 : 0.5);
    const sampled = rolloutsOn();
    const steps = await collect(
      model.trainLoop({
        ...base,
        steps: 5,
        maxStepsOffPolicy: 1,
        retention: { keepLatest: 1, keepBest: 1, metric: "reward" },
        rollouts: async (ctx) => {
          // Sample (by the pinned name) only once the step before has been trained and pruned:
          // a checkpoint deleted while these rollouts still use it would fail them with a 404.
          if (ctx.step >= 2) await waitPruned(ctx.step - 1, ctx.signal);
          const groups = await sampled(ctx);
          for (const g of groups) g.trajectories.forEach((t, i) => (t.reward = rewardOf(ctx.step) - i / 10));
          return groups;
        },
        onEvent: (e) => {
          if (e.type !== "checkpoints_pruned") return;
          pruned.push(e);
          prunedAfter.get(e.step)?.();
        },
      }),
    );
    expect(steps.map((s) => [s.step, s.sampledStep])).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 2],
      [5, 3],
    ]);
    // After step 2, step 1 (neither the latest nor the best) was still sampled for step 3, and
    // after step 4, step 3 for step 5: each was deleted once no rollout used it.
    expect(pruned.map((p) => [p.step, p.kept, p.deleted])).toEqual([
      [1, [1], []],
      [2, [1, 2], []],
      [3, [2, 3], [1]],
      [4, [2, 3, 4], []],
      [5, [2, 5], [3, 4]],
    ]);
    expect(checkpointSteps(model)).toEqual([2, 5]);
    // Each kept step says why: step 1 was kept after step 2 only because step 3's rollouts sampled it.
    expect(pruned[1]!.reasons[1]).toEqual(["in use"]);
    expect(pruned[1]!.reasons[2]).toEqual(expect.arrayContaining(["latest", "keepLatest", "best"]));
  });

  it("refuses bad options at once, before anything is sent", async () => {
    const model = await register();
    const sent = fake.svc.requests.length;
    const rollouts = rolloutsOn();
    for (const [options, path] of [
      [{ steps: 2, maxStepsOffPolicy: -1, rollouts }, "maxStepsOffPolicy"],
      [{ steps: 1.5, maxStepsOffPolicy: 0, rollouts }, "steps"],
      [{ steps: 2, maxStepsOffPolicy: 0 }, "rollouts"],
      [{ steps: 2, maxStepsOffPolicy: 0, rollouts, evalEvery: 2 }, "evalEvery"],
      [{ steps: 2, maxStepsOffPolicy: 0, rollouts, eval: () => ({}), evalEvery: 0 }, "evalEvery"],
      // Checked before the first job, not when a step first prunes or follows its job.
      [{ steps: 2, maxStepsOffPolicy: 0, rollouts, retention: { keepLatest: -1 } }, "retention.keepLatest"],
      [{ steps: 2, maxStepsOffPolicy: 0, rollouts, retention: { keepBest: 2 } }, "retention.metric"],
      [
        { steps: 2, maxStepsOffPolicy: 0, rollouts, retention: { keepLatest: 1, metrics: "reward" } },
        "retention.metrics",
      ],
      [{ steps: 2, maxStepsOffPolicy: 0, rollouts, pollInterval: -5 }, "pollInterval"],
      [{ steps: 2, maxStepsOffPolicy: 0, rollouts, jobTimeout: "x" }, "jobTimeout"],
      [{ steps: 2, maxStepsOffPolicy: 0, rollouts, onEvent: "log" }, "onEvent"],
      [{ steps: 2, maxStepsOffPolicy: 0, rollouts, evalevery: 2 }, "evalevery"],
      [{ steps: 2, rollouts, state: 42 }, "state"],
      [{ steps: 2, rollouts, state: { load: () => undefined } }, "state"],
      // Before step 1's rollouts run, not when its job is made.
      [
        { steps: 2, maxStepsOffPolicy: 0, rollouts, experimental_config: { kl_penalty_coeff: 0.1 } },
        "experimental_config.kl_penalty_coeff",
      ],
    ] as const) {
      const err = await caught(() => model.trainLoop(options as unknown as TrainLoopOptions));
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).issues.map((i) => i.path)).toContain(path);
    }
    expect(fake.svc.requests.length).toBe(sent);
  });

  it("property: whatever the rollout and job lengths, a step never trains on a checkpoint more than k behind", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 4, maxLength: 4 }),
        async (k, rolloutMs, jobMs) => {
          fake.svc.reset();
          const model = await register();
          const store = fake.svc.state.trainable;
          const rollouts = rolloutsOn((step) => rolloutMs[step - 1]!);
          const steps = await collect(
            model.trainLoop({
              ...base,
              steps: 4,
              maxStepsOffPolicy: k,
              // The next job's length, set as the rollouts of its step end.
              rollouts: async (ctx) => {
                const groups = await rollouts(ctx);
                store.jobMs = jobMs[ctx.step - 1]!;
                return groups;
              },
            }),
          );
          expect(steps.map((s) => s.step)).toEqual([1, 2, 3, 4]);
          const versions = policyVersionsSent(model);
          steps.forEach((s, i) => {
            const lag = s.step - 1 - s.sampledStep;
            expect(lag).toBeGreaterThanOrEqual(0);
            expect(lag).toBeLessThanOrEqual(k);
            expect(versions[i]!.every(([initial, final]) => initial === s.sampledStep && final === s.sampledStep)).toBe(
              true,
            );
          });
        },
      ),
      { numRuns: 10 },
    );
  });
});
