// The pipelined RL loop behind `model.trainLoop`: the rollouts of the next steps sample the
// newest checkpoint while a job trains, never more than `maxStepsOffPolicy` steps behind the
// step they train; jobs run one at a time, in step order.

import * as z from "zod/mini";
import { safeParse } from "zod/v4/core";
import { inputIssues } from "../../core/checks/input-checks.js";
import { type ListsEveryKey, optionNameIssues } from "../../core/checks/option-checks.js";
import {
  APIUserAbortError,
  InferloopError,
  RequestValidationError,
  type ValidationIssue,
} from "../../core/errors/errors.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { TrainResult } from "../../wire/trainable-models/types.js";
import { experimentalConfigKeyHint, experimentalConfigSchema } from "../../wire/training-jobs/experimental-config.js";
import type { TrajectoryGroup } from "../../wire/training-jobs/request-schema.js";
import type { LoopEvaluation } from "../evaluations/loop.js";
import { type PruneCheckpointsOptions, type PruneCheckpointsResult, pruneOptionIssues } from "./prune-checkpoints.js";
import type { TrainLoopEvent, TrainLoopOptions, TrainLoopStep, TrainOptions } from "./types.js";

/** @internal What the loop needs of a trainable model's handle. */
export interface LoopModel {
  inferenceName(step?: number): string;
  latestStep(options?: RequestOptions): Promise<number>;
  train(groups: TrajectoryGroup[], options?: TrainOptions): Promise<TrainResult>;
}

/** @internal `pruneCheckpoints`, sparing the steps in `inUse`. */
export type PruneWithInUse = (
  options: PruneCheckpointsOptions,
  requestOptions: RequestOptions,
  inUse: Iterable<number>,
) => Promise<PruneCheckpointsResult>;

interface Batch {
  groups: TrajectoryGroup[];
  sampledStep: number;
  ms: number;
}

const isCount = (n: unknown, min: number) => typeof n === "number" && Number.isSafeInteger(n) && n >= min;

// A job's experimental_config, as training_jobs.create checks it.
const loopConfig = z.looseObject({ experimental_config: z.nullish(experimentalConfigSchema) });

const TRAIN_LOOP_OPTION_NAMES = [
  "steps",
  "rollouts",
  "maxStepsOffPolicy",
  "experimental_config",
  "evalEvery",
  "eval",
  "retention",
  "signal",
  "onEvent",
  "pollInterval",
  "jobTimeout",
  "evaluation",
] as const;
const trainLoopListWhole: ListsEveryKey<TrainLoopOptions, typeof TRAIN_LOOP_OPTION_NAMES> = true;
void trainLoopListWhole;

function checkOptions(options: TrainLoopOptions): void {
  const issues: ValidationIssue[] = [];
  const o = options as Partial<TrainLoopOptions> | undefined;
  if (!isCount(o?.steps, 0))
    issues.push({ path: "steps", message: `must be an integer >= 0 (the step to end at), got ${String(o?.steps)}` });
  if (typeof o?.rollouts !== "function")
    issues.push({ path: "rollouts", message: "must be a function that resolves to the step's trajectory groups" });
  if (!isCount(o?.maxStepsOffPolicy, 0))
    issues.push({
      path: "maxStepsOffPolicy",
      message: `must be an integer >= 0 (0: strictly on-policy; 1: sample while a job trains), got ${String(o?.maxStepsOffPolicy)}`,
    });
  if (o?.evalEvery !== undefined && !isCount(o.evalEvery, 1))
    issues.push({ path: "evalEvery", message: `must be an integer >= 1, got ${String(o.evalEvery)}` });
  if (o?.eval !== undefined && typeof o.eval !== "function")
    issues.push({ path: "eval", message: "must be a function that resolves to the step's metrics" });
  if (o?.evalEvery !== undefined && o.eval === undefined)
    issues.push({ path: "evalEvery", message: "needs eval: the function that evaluates a checkpoint" });
  // Checked here, not when a step's job is made, prunes or is followed: by then its rollouts
  // have run, or a job was made.
  if (o?.experimental_config != null) {
    const config = safeParse(loopConfig, { experimental_config: o.experimental_config });
    if (!config.success)
      for (const i of inputIssues(config.error.issues, experimentalConfigKeyHint))
        issues.push({ path: i.path.join("."), message: i.message, code: i.code });
  }
  if (o?.retention !== undefined) issues.push(...pruneOptionIssues(o.retention, "retention."));
  for (const key of ["pollInterval", "jobTimeout"] as const) {
    const v = o?.[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0))
      issues.push({ path: key, message: `must be a number of ms >= 0, got ${String(v)}` });
  }
  if (o?.onEvent !== undefined && typeof o.onEvent !== "function")
    issues.push({ path: "onEvent", message: "must be a function that takes the loop's events" });
  if (o !== undefined && o !== null) issues.push(...optionNameIssues(o, TRAIN_LOOP_OPTION_NAMES, "known"));
  if (issues.length > 0) throw new RequestValidationError(issues, "trainLoop options");
}

const mean = (xs: number[]) => (xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length);

function rewardsOf(groups: TrajectoryGroup[]): number[] {
  return groups.flatMap((g) => g.trajectories.map((t) => t.reward).filter((r): r is number => typeof r === "number"));
}

function checkGroups(step: number, groups: unknown): TrajectoryGroup[] {
  if (!Array.isArray(groups) || groups.some((g) => !Array.isArray((g as { trajectories?: unknown })?.trajectories)))
    throw new TypeError(
      `trainLoop: rollouts for step ${step} must resolve to an array of trajectory groups ({ trajectories }), as gatherTrajectoryGroups does`,
    );
  return groups as TrajectoryGroup[];
}

/**
 * One run of the loop. The trainer (`run`) takes the steps in order; rollouts start as soon as
 * the staleness bound allows, and a failure anywhere aborts everything through `inner`.
 */
class LoopRun {
  readonly #model: LoopModel;
  readonly #prune: PruneWithInUse;
  readonly #o: TrainLoopOptions;
  readonly #evaluation: LoopEvaluation | undefined;
  readonly #inner = new AbortController();
  /** Everything started that may still be running: awaited before the loop ends. */
  readonly #pending = new Set<Promise<unknown>>();
  /** Checkpoints sampled by running rollouts or evaluations, with how many use each. */
  readonly #inUse = new Map<number, number>();
  readonly #batches = new Map<number, Promise<Batch>>();
  readonly #ready: TrainLoopStep[] = [];
  #wake: (() => void) | undefined;
  #failure: { error: unknown } | undefined;
  #failed: Promise<never>;
  #fail!: (error: unknown) => void;
  #ended = false;
  #latest = 0;
  #nextLaunch = 0;
  #emitted: Promise<void> = Promise.resolve();
  #pruned: Promise<void> = Promise.resolve();

  constructor(model: LoopModel, prune: PruneWithInUse, options: TrainLoopOptions, evaluation?: LoopEvaluation) {
    this.#model = model;
    this.#evaluation = evaluation;
    this.#prune = prune;
    this.#o = { ...options };
    this.#failed = new Promise<never>((_, reject) => {
      this.#fail = (error) => {
        if (this.#failure !== undefined || this.#ended) return;
        this.#failure = { error };
        reject(error);
        this.#inner.abort(error);
        this.#wake?.();
      };
    });
    this.#failed.catch(() => {});
  }

  get #signal(): AbortSignal {
    return this.#inner.signal;
  }

  /** Starts the trainer; the user's signal stops everything. */
  start(): void {
    const user = this.#o.signal;
    const onAbort = () => this.#fail(new APIUserAbortError("The training loop was aborted.", { cause: user?.reason }));
    if (user?.aborted) return onAbort();
    user?.addEventListener("abort", onAbort, { once: true });
    const run = this.#run()
      .then(
        () => this.#emitted.then(() => this.#finish()),
        (error: unknown) => this.#fail(error),
      )
      .finally(() => user?.removeEventListener("abort", onAbort));
    void this.#track(run);
  }

  /**
   * The next trained step, undefined at the end; once the steps trained before a failure are
   * handed out, rejects with its error.
   */
  async next(): Promise<TrainLoopStep | undefined> {
    for (;;) {
      const item = this.#ready.shift();
      if (item !== undefined) return item;
      if (this.#failure !== undefined) throw this.#failure.error;
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }

  /** Stops whatever still runs (quietly) and waits until all of it has settled. */
  async close(): Promise<void> {
    if (!this.#ended && this.#failure === undefined)
      this.#fail(new APIUserAbortError("The training loop was stopped."));
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  #finish(): void {
    this.#ended = true;
    this.#wake?.();
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#pending.add(promise);
    const done = () => this.#pending.delete(promise);
    promise.then(done, done);
    return promise;
  }

  /** Resolves as `promise` does, or rejects at once when the loop fails. */
  #guard<T>(promise: PromiseLike<T>): Promise<T> {
    return Promise.race([Promise.resolve(promise), this.#failed]);
  }

  #emit(event: TrainLoopEvent): void {
    if (this.#failure !== undefined) return;
    try {
      this.#o.onEvent?.(event);
    } catch (error) {
      this.#fail(error);
    }
  }

  #use(step: number, by: number): void {
    const n = (this.#inUse.get(step) ?? 0) + by;
    if (n > 0) this.#inUse.set(step, n);
    else this.#inUse.delete(step);
  }

  #name(step: number): string {
    return step === 0 ? this.#model.inferenceName() : this.#model.inferenceName(step);
  }

  /** Starts the rollouts of every step the bound allows now, on the newest checkpoint. */
  #launch(): void {
    const k = this.#o.maxStepsOffPolicy;
    while (
      this.#failure === undefined &&
      this.#nextLaunch <= this.#o.steps &&
      this.#nextLaunch - 1 - k <= this.#latest
    ) {
      const step = this.#nextLaunch++;
      const sampledStep = this.#latest;
      const modelName = this.#name(sampledStep);
      const started = performance.now();
      this.#use(sampledStep, 1);
      this.#emit({ type: "rollouts_started", step, sampledStep, modelName });
      const batch = this.#track(
        Promise.resolve()
          .then(() =>
            this.#o.rollouts({
              step,
              sampledStep,
              modelName,
              signal: this.#signal,
              onProgress: (p) =>
                this.#emit({ type: "rollout_progress", step, done: p.done, failed: p.failed, total: p.total }),
            }),
          )
          .then((groups): Batch => {
            const checked = checkGroups(step, groups);
            const ms = performance.now() - started;
            const rewards = rewardsOf(checked);
            this.#emit({
              type: "rollouts_ended",
              step,
              sampledStep,
              groups: checked.length,
              trajectories: checked.reduce((n, g) => n + g.trajectories.length, 0),
              reward: mean(rewards),
              ms,
            });
            return { groups: checked, sampledStep, ms };
          })
          .finally(() => this.#use(sampledStep, -1)),
      );
      // A failed rollout stops the loop at once, not when its step's turn to train comes.
      batch.catch((error: unknown) => this.#fail(error));
      this.#batches.set(step, batch);
    }
  }

  async #run(): Promise<void> {
    const o = this.#o;
    this.#latest = await this.#guard(this.#track(this.#model.latestStep({ signal: this.#signal })));
    this.#nextLaunch = this.#latest + 1;
    this.#evaluate((e, context) => e.atStart(context), this.#latest)?.catch((error: unknown) => this.#fail(error));
    this.#launch();
    for (let step = this.#latest + 1; step <= o.steps; step++) {
      const batch = await this.#guard(this.#batches.get(step)!);
      this.#batches.delete(step);
      // The loop, not the rollout function, records which policy sampled each trajectory.
      for (const group of batch.groups)
        for (const t of group.trajectories) {
          t.initial_policy_version = batch.sampledStep;
          t.final_policy_version = batch.sampledStep;
        }
      if (this.#signal.aborted) return;
      const started = performance.now();
      const train: TrainOptions = {
        signal: this.#signal,
        onEvent: (event) => this.#emit({ type: "job", step, event }),
      };
      if (o.experimental_config !== undefined) train.experimental_config = o.experimental_config;
      if (o.pollInterval !== undefined) train.pollInterval = o.pollInterval;
      if (o.jobTimeout !== undefined) train.timeout = o.jobTimeout;
      const result = await this.#guard(this.#track(this.#model.train(batch.groups, train)));
      if (result.step !== step)
        throw new InferloopError(
          `trainLoop: job ${result.jobId} should have made step ${step}, but the model's latest step is now ${result.step}: ` +
            "another job trained this model meanwhile (one left running by an aborted loop ends on the server). " +
            "Run one loop per model, and resume once that job has ended.",
        );
      const trainingMs = performance.now() - started;
      this.#latest = step;
      this.#emit({ type: "trained", step, jobId: result.jobId, metrics: result.metrics, ms: trainingMs });
      this.#launch();
      const after = this.#afterStep(step, batch, result, trainingMs);
      after.catch((error: unknown) => this.#fail(error));
      // Steps reach the caller in order, each once its evaluation and pruning are done.
      // (A failed step has already failed the loop: the chain itself never rejects.)
      this.#emitted = this.#emitted
        .then(() => after)
        .then(
          (item) => {
            if (this.#failure !== undefined) return;
            this.#ready.push(item);
            this.#wake?.();
          },
          () => {},
        );
    }
  }

  /** Evaluation and pruning of a trained step, while the next job trains. */
  #afterStep(step: number, batch: Batch, result: TrainResult, trainingMs: number): Promise<TrainLoopStep> {
    const o = this.#o;
    const evalEvery = o.evalEvery ?? 1;
    let evaluated: Promise<Record<string, number> | undefined> = Promise.resolve(undefined);
    if (o.eval !== undefined && step % evalEvery === 0) {
      const run = o.eval;
      const started = performance.now();
      this.#use(step, 1);
      evaluated = this.#track(
        Promise.resolve()
          .then(() => run({ step, sampledStep: step, modelName: this.#name(step), signal: this.#signal }))
          .then((metrics) => {
            this.#emit({ type: "eval_ended", step, metrics, ms: performance.now() - started });
            return metrics;
          })
          .finally(() => this.#use(step, -1)),
      );
    }
    const retention = o.retention;
    if (retention !== undefined) {
      // One pruning at a time, each sparing the checkpoints still sampled or evaluated.
      this.#pruned = this.#track(
        this.#pruned.then(async () => {
          if (this.#failure !== undefined) return;
          const { kept, deleted } = await this.#prune(retention, { signal: this.#signal }, [...this.#inUse.keys()]);
          this.#emit({ type: "checkpoints_pruned", step, kept, deleted });
        }),
      );
    }
    const pruned = this.#pruned;
    const evaluation = this.#evaluate((e, context) => e.afterStep(context), step);
    return this.#track(
      Promise.all([evaluated, pruned, evaluation]).then(([evalMetrics, , stepEvaluation]) => ({
        step,
        jobId: result.jobId,
        metrics: result.metrics,
        sampledStep: batch.sampledStep,
        evalMetrics,
        reward: mean(rewardsOf(batch.groups)),
        durations: { rollouts: batch.ms, training: trainingMs },
        ...(stepEvaluation === undefined ? {} : { evaluation: stepEvaluation }),
      })),
    );
  }

  /** A Weave evaluation of checkpoint `step` (`options.evaluation`), the checkpoint kept meanwhile. */
  #evaluate<T>(
    start: (
      e: LoopEvaluation,
      context: { step: number; modelName: string; signal: AbortSignal },
    ) => Promise<T> | undefined,
    step: number,
  ): Promise<T> | undefined {
    const running =
      this.#evaluation && start(this.#evaluation, { step, modelName: this.#name(step), signal: this.#signal });
    if (running === undefined) return undefined;
    this.#use(step, 1);
    return this.#track(running.finally(() => this.#use(step, -1)));
  }
}

/**
 * @internal `model.trainLoop`: checks the options at once, and starts on the first `next()`.
 * Leaving the `for await` early (`break`, an error in its body) stops the loop like an abort,
 * but quietly.
 */
export function trainLoop(
  model: LoopModel,
  prune: PruneWithInUse,
  options: TrainLoopOptions,
  evaluation?: LoopEvaluation,
): AsyncGenerator<TrainLoopStep, void, undefined> {
  checkOptions(options);
  return (async function* () {
    const run = new LoopRun(model, prune, options, evaluation);
    run.start();
    try {
      for (;;) {
        const item = await run.next();
        if (item === undefined) return;
        yield item;
      }
    } finally {
      await run.close();
    }
  })();
}
