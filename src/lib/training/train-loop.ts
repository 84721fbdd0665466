// The pipelined RL loop behind `model.trainLoop`: the rollouts of the next steps sample the
// newest checkpoint while a job trains, never more than `maxStepsOffPolicy` steps behind the
// step they train; jobs run one at a time, in step order. The job in flight is kept in the
// loop's state (loop-state.ts), so a loop started again follows it instead of making another.

import * as z from "zod/mini";
import { safeParse } from "zod/v4/core";
import { inputIssues } from "../../core/checks/input-checks.js";
import { type ListsEveryKey, optionNameIssues } from "../../core/checks/option-checks.js";
import {
  APIError,
  APIUserAbortError,
  InferloopError,
  RequestValidationError,
  type ValidationIssue,
} from "../../core/errors/errors.js";
import type { Log } from "../../core/errors/log.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { TrainingJobFailedError } from "../../wire/training-jobs/errors.js";
import { experimentalConfigKeyHint, experimentalConfigSchema } from "../../wire/training-jobs/experimental-config.js";
import type { TrajectoryGroup } from "../../wire/training-jobs/request-schema.js";
import type { TrainingJobEvent } from "../../wire/training-jobs/types.js";
import { type LoopRunLog, logToIssues } from "../wandb-runs/loop-log.js";
import {
  type LoopJobState,
  type LoopState,
  LoopStateKeeper,
  leftBehind,
  type StateOwner,
  stateOptionIssue,
} from "./loop-state.js";
import { type PruneCheckpointsOptions, type PruneCheckpointsResult, pruneOptionIssues } from "./prune-checkpoints.js";
import type { TrainLoopEvent, TrainLoopOptions, TrainLoopStep } from "./types.js";

/** @internal What the loop needs of a trainable model's handle. */
export interface LoopModel extends StateOwner {
  inferenceName(step?: number): string;
  latestStep(options?: RequestOptions): Promise<number>;
  /** Creates a step's job, sent with `idempotencyKey`; resolves to its id. */
  createJob(
    request: NonNullable<LoopJobState["request"]>,
    options: { idempotencyKey: string; signal: AbortSignal },
  ): PromiseLike<string>;
  /** Follows a job to its end; resolves to the mean of its `gradient_step` metrics. */
  followJob(
    jobId: string,
    options: {
      pollInterval: number | undefined;
      timeout: number | undefined;
      signal: AbortSignal;
      onEvent: (event: TrainingJobEvent) => void;
    },
  ): Promise<Record<string, number>>;
  /** Where findings go. */
  readonly log: Log;
}

/**
 * The default of `maxStepsOffPolicy`: ART's PipelineTrainer samples up to 4 steps behind
 * (OpenPipe/ART `src/art/pipeline_trainer/trainer.py`, `max_steps_off_policy: int | None = 4`).
 */
export const DEFAULT_MAX_STEPS_OFF_POLICY = 4;

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
  reward: number | undefined;
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
  "state",
  "logTo",
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
  if (o?.maxStepsOffPolicy !== undefined && !isCount(o.maxStepsOffPolicy, 0))
    issues.push({
      path: "maxStepsOffPolicy",
      message: `must be an integer >= 0 (0: strictly on-policy; 1: sample while a job trains), got ${String(o.maxStepsOffPolicy)}`,
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
  const stateIssue = stateOptionIssue(o?.state);
  if (stateIssue !== undefined) issues.push({ path: "state", message: stateIssue });
  if (o?.onEvent !== undefined && typeof o.onEvent !== "function")
    issues.push({ path: "onEvent", message: "must be a function that takes the loop's events" });
  issues.push(...logToIssues(o?.logTo));
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
  readonly #k: number;
  readonly #keeper: LoopStateKeeper;
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
  /** The model's W&B run, when the loop logs there (`logTo`). */
  readonly #log: LoopRunLog | undefined;

  constructor(model: LoopModel, prune: PruneWithInUse, options: TrainLoopOptions, log?: LoopRunLog) {
    this.#log = log;
    this.#model = model;
    this.#prune = prune;
    this.#o = { ...options };
    this.#k = options.maxStepsOffPolicy ?? DEFAULT_MAX_STEPS_OFF_POLICY;
    this.#keeper = new LoopStateKeeper(options.state, model);
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
    // Said when it happens: what is in flight then, and how a new loop takes it up.
    const onAbort = () =>
      this.#fail(
        new APIUserAbortError(`The training loop was aborted. ${leftBehind(this.#keeper)}`, { cause: user?.reason }),
      );
    if (user?.aborted) return onAbort();
    user?.addEventListener("abort", onAbort, { once: true });
    const run = this.#run()
      .then(
        () =>
          this.#emitted.then(() => {
            if (this.#latest >= this.#o.steps) this.#emit({ type: "target_reached", step: this.#latest });
            this.#finish();
          }),
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
    await this.#log?.finish(this.#failure?.error);
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
    const k = this.#k;
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
            const reward = mean(rewardsOf(checked));
            this.#emit({
              type: "rollouts_ended",
              step,
              sampledStep,
              groups: checked.length,
              trajectories: checked.reduce((n, g) => n + g.trajectories.length, 0),
              reward,
              ms,
            });
            return { groups: checked, sampledStep, ms, reward };
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
    const latest = await this.#guard(this.#track(this.#model.latestStep({ signal: this.#signal })));
    const saved = await this.#guard(this.#track(this.#keeper.load(this.#model.log)));
    const resumed = this.#toResume(saved, latest);
    if (resumed !== saved.job) await this.#save({ ...saved, job: resumed });
    this.#latest = latest;
    this.#nextLaunch = (resumed?.step ?? latest) + 1;
    this.#launch();
    if (resumed !== undefined)
      await this.#train(resumed, {
        groups: [],
        sampledStep: resumed.sampledStep,
        ms: resumed.rolloutsMs,
        reward: resumed.reward,
      });
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
      const request: NonNullable<LoopJobState["request"]> = { trajectory_groups: batch.groups };
      if (o.experimental_config !== undefined) request.experimental_config = o.experimental_config;
      const job: LoopJobState = {
        step,
        idempotencyKey: crypto.randomUUID(),
        sampledStep: batch.sampledStep,
        rolloutsMs: batch.ms,
        request,
      };
      if (batch.reward !== undefined) job.reward = batch.reward;
      await this.#train(job, batch);
    }
  }

  /**
   * The saved job still to take up, given the model's latest step: a job whose step is trained
   * (and more after it), or a create whose step has been trained since, is done; one of the
   * step after the latest (or the latest: it ended while no loop ran) is followed, or its create
   * sent again.
   */
  #toResume(saved: LoopState, latest: number): LoopJobState | undefined {
    const job = saved.job;
    if (job === undefined) return undefined;
    if (job.jobId === undefined) return job.step === latest + 1 && job.request !== undefined ? job : undefined;
    return job.step === latest + 1 || job.step === latest ? job : undefined;
  }

  /** Saves the state; tracked, so that the loop ends only once it is written. */
  #save(state: LoopState): Promise<void> {
    return this.#guard(this.#track(this.#keeper.set(state)));
  }

  /**
   * One step's job: its create (the key and the request saved before it is sent, the id as soon
   * as it answers), unless it has an id already; then followed to its end.
   */
  async #train(job: LoopJobState, batch: Batch): Promise<void> {
    const o = this.#o;
    const { step } = job;
    const started = performance.now();
    const state = () => this.#keeper.state;
    let jobId = job.jobId;
    if (jobId === undefined) {
      await this.#save({ ...state(), job });
      const request = job.request!;
      // The id is saved as soon as the create answers, even if the loop stops meanwhile.
      const created = this.#track(
        Promise.resolve(
          this.#model.createJob(request, { idempotencyKey: job.idempotencyKey, signal: this.#signal }),
        ).then(
          async (id) => {
            const { request: _sent, ...rest } = job;
            await this.#keeper.set({ ...state(), job: { ...rest, jobId: id } });
            return id;
          },
          async (error: unknown) => {
            // Refused: no job was made, and a new loop must not send it again.
            if (refusedOutright(error)) await this.#keeper.set({ ...state(), job: undefined });
            throw error;
          },
        ),
      );
      jobId = await this.#guard(created);
      this.#emit({ type: "job_created", step, jobId });
    } else this.#emit({ type: "job_resumed", step, jobId });
    const followed = this.#track(
      this.#model
        .followJob(jobId, {
          pollInterval: o.pollInterval,
          timeout: o.jobTimeout,
          signal: this.#signal,
          onEvent: (event) => this.#emit({ type: "job", step, event }),
        })
        .catch(async (error: unknown) => {
          // A failed job is over, and one the server does not know cannot be followed: a new
          // loop samples its step again.
          if (error instanceof TrainingJobFailedError || (error instanceof APIError && error.status === 404))
            await this.#keeper.set({ ...state(), job: undefined });
          throw error;
        }),
    );
    const metrics = await this.#guard(followed);
    const trainedStep = await this.#guard(this.#track(this.#model.latestStep({ signal: this.#signal })));
    if (trainedStep !== step)
      throw new InferloopError(
        `trainLoop: job ${jobId} should have made step ${step}, but the model's latest step is now ${trainedStep}: ` +
          "another job trained this model meanwhile (one left running by a loop with `state: false` ends on the server). " +
          "Run one loop per model, and resume once that job has ended.",
      );
    await this.#save({ ...state(), trained: step, job: undefined });
    const trainingMs = performance.now() - started;
    this.#latest = step;
    this.#emit({ type: "trained", step, jobId, metrics, ms: trainingMs });
    this.#launch();
    const after = this.#afterStep(step, batch, { jobId, metrics }, trainingMs);
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

  /** Evaluation and pruning of a trained step, while the next job trains. */
  #afterStep(
    step: number,
    batch: Batch,
    result: { jobId: string; metrics: Record<string, number> },
    trainingMs: number,
  ): Promise<TrainLoopStep> {
    const o = this.#o;
    const evalEvery = o.evalEvery ?? 1;
    this.#log?.trained({ step, groups: batch.groups, jobMetrics: result.metrics, trainingMs });
    let evaluated: Promise<Record<string, number> | undefined> = Promise.resolve(undefined);
    if (o.eval !== undefined && step % evalEvery === 0) {
      const run = o.eval;
      const started = performance.now();
      this.#use(step, 1);
      this.#emit({ type: "eval_started", step });
      evaluated = this.#track(
        Promise.resolve()
          .then(() => run({ step, sampledStep: step, modelName: this.#name(step), signal: this.#signal }))
          .then((metrics) => {
            this.#emit({ type: "eval_ended", step, metrics, ms: performance.now() - started });
            this.#log?.evaluated(step, metrics);
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
          const { kept, deleted, reasons } = await this.#prune(retention, { signal: this.#signal }, [
            ...this.#inUse.keys(),
          ]);
          this.#emit({ type: "checkpoints_pruned", step, kept, deleted, reasons });
        }),
      );
    }
    const pruned = this.#pruned;
    return this.#track(
      Promise.all([evaluated, pruned]).then(([evalMetrics]) => ({
        step,
        jobId: result.jobId,
        metrics: result.metrics,
        sampledStep: batch.sampledStep,
        evalMetrics,
        reward: batch.reward,
        durations: { rollouts: batch.ms, training: trainingMs },
      })),
    );
  }
}

/**
 * @internal Whether a create's failure says that no job was made: the server refused it (a 4xx
 * other than a timeout, a conflict or a rate limit), or it was refused before sending. Anything
 * else (a reset, a 5xx, an abort) leaves it unknown, and the saved key covers it. trainSFT's too.
 */
export function refusedOutright(error: unknown): boolean {
  if (error instanceof RequestValidationError) return true;
  return (
    error instanceof APIError && error.status >= 400 && error.status < 500 && ![408, 409, 429].includes(error.status)
  );
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
  openLog?: (options: TrainLoopOptions) => LoopRunLog | undefined,
): AsyncGenerator<TrainLoopStep, void, undefined> {
  checkOptions(options);
  const log = openLog?.(options);
  return (async function* () {
    const run = new LoopRun(model, prune, options, log);
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
