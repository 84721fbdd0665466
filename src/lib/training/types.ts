import type { ExperimentalConfig, TrajectoryGroup } from "../../wire/training-jobs/request-schema.js";
import type { TrainingJobEvent } from "../../wire/training-jobs/types.js";
import type { GatherProgress } from "../trajectories/gather.js";
import type { LoopLogTarget } from "../wandb-runs/loop-log.js";
import type { LoopStateStore } from "./loop-state.js";
import type { CheckpointKeepReason, PruneCheckpointsOptions } from "./prune-checkpoints.js";

/**
 * What `rollouts` and `eval` of {@link TrainLoopOptions} are called with.
 */
export interface TrainLoopRolloutContext {
  /** The step to train (`rollouts`) or to evaluate (`eval`). */
  step: number;
  /** `modelName`'s step (0: before any checkpoint). */
  sampledStep: number;
  /** The chat `model` to sample: `inferenceName(sampledStep)`, `inferenceName()` at step 0. */
  modelName: string;
  /** Aborts when the loop stops: pass it to every call. */
  signal: AbortSignal;
  /** For `gatherTrajectoryGroups`: reaches `onEvent` as `rollout_progress`. */
  onProgress: (progress: GatherProgress) => void;
}

/**
 * What the loop reports to `onEvent`, each with its `step`. `job_created` comes as soon as a
 * step's job exists (its id is saved first), `job_resumed` when a new loop takes up a job a
 * stopped one left in flight, and `target_reached` when the loop ends at `steps` (at once when
 * a re-run finds nothing left to train).
 */
export type TrainLoopEvent =
  | { type: "rollouts_started"; step: number; sampledStep: number; modelName: string }
  | ({ type: "rollout_progress"; step: number } & GatherProgress)
  | {
      type: "rollouts_ended";
      step: number;
      sampledStep: number;
      groups: number;
      trajectories: number;
      reward: number | undefined;
      ms: number;
    }
  | { type: "job_created"; step: number; jobId: string }
  | { type: "job_resumed"; step: number; jobId: string }
  | { type: "job"; step: number; event: TrainingJobEvent }
  | { type: "trained"; step: number; jobId: string; metrics: Record<string, number>; ms: number }
  | { type: "eval_started"; step: number }
  | { type: "eval_ended"; step: number; metrics: Record<string, number>; ms: number }
  | {
      type: "checkpoints_pruned";
      step: number;
      kept: number[];
      deleted: number[];
      reasons: Record<number, CheckpointKeepReason[]>;
    }
  | { type: "target_reached"; step: number };

/**
 * Options of `model.trainLoop`.
 */
export interface TrainLoopOptions {
  /** The step to end at (absolute: a model at step 3 trains steps 4 to `steps`). */
  steps: number;
  /** Called once per step to train: resolves to its scored groups. */
  rollouts: (context: TrainLoopRolloutContext) => TrajectoryGroup[] | PromiseLike<TrajectoryGroup[]>;
  /**
   * How many steps a sampled checkpoint may lag (0: strictly on-policy). Default 4, as in ART's
   * PipelineTrainer.
   */
  maxStepsOffPolicy?: number;
  /** Loss and optimizer settings of every job. */
  experimental_config?: ExperimentalConfig | null;
  /** Evaluate every this many steps (default 1). */
  evalEvery?: number;
  /** Evaluates a trained checkpoint: the step's `evalMetrics`. */
  eval?: (
    context: Omit<TrainLoopRolloutContext, "onProgress">,
  ) => Record<string, number> | PromiseLike<Record<string, number>>;
  /** `pruneCheckpoints` after each step, sparing checkpoints still sampled. */
  retention?: Omit<PruneCheckpointsOptions, "dryRun">;
  /** Stops the loop (`APIUserAbortError`). */
  signal?: AbortSignal;
  /** Progress, as it happens. */
  onEvent?: (event: TrainLoopEvent) => void;
  /** The longest wait between polls of a job's events, in ms (default 1000; a young job is polled sooner). */
  pollInterval?: number;
  /** Give up waiting for one job after this many ms. */
  jobTimeout?: number;
  /**
   * Where the loop keeps its state (the job in flight, from just before its create is sent
   * until it ends), so that a loop started again after any stop follows that job instead of
   * creating a second one for its step. Default: in Node, the file
   * `.inferloop/<entity>/<project>/<name>/train-loop.json` in the working directory; in
   * browsers and edge runtimes, memory (for the page's life). A string is the path of the file;
   * `false` keeps none; or a store of your own.
   */
  state?: string | false | LoopStateStore;
  /**
   * Where each trained step's metrics (reward mean and spread, the groups' metrics, the job's
   * gradient metrics) and each `eval`'s metrics are logged, as ART logs them (`train/reward`,
   * `loss/train`, `val/...`, with `training_step`): `"wandb"`, the model's W&B run (its
   * `run_id`); `false`, nowhere. Default: `"wandb"` when the model has a `run_id`. Logging
   * never fails the loop: a failure is warned about once.
   */
  logTo?: LoopLogTarget;
}

/**
 * One trained step of `model.trainLoop`.
 */
export interface TrainLoopStep {
  /** The checkpoint this step's job made. */
  step: number;
  jobId: string;
  /** The mean of each numeric `gradient_step` member. */
  metrics: Record<string, number>;
  /** The checkpoint its rollouts sampled (`step - 1 - sampledStep` <= `maxStepsOffPolicy`). */
  sampledStep: number;
  /** `eval`'s metrics, when evaluated. */
  evalMetrics: Record<string, number> | undefined;
  /** The mean reward of its trajectories. */
  reward: number | undefined;
  /** How long its rollouts and its job took, in ms. */
  durations: { rollouts: number; training: number };
}

/**
 * Options of {@link TrainableModel.train}.
 */
export interface TrainOptions {
  /** Loss and optimizer settings for this job. */
  experimental_config?: ExperimentalConfig | null;
  /** Sent as `Idempotency-Key`: the create is then retried on every retryable failure. */
  idempotencyKey?: string;
  /** Called with each event as it arrives (progress lines, saving the cursor). */
  onEvent?: (event: TrainingJobEvent) => void;
  /**
   * Called with the job's id as soon as the create answers, and awaited before the job is
   * followed: keep it where a new process finds it (the training API lists no jobs), to
   * re-attach with `client.trainingJobs.follow(jobId)` after a crash.
   */
  onJobCreated?: (jobId: string) => unknown;
  /** The longest wait between polls of the job's events, in ms (default 1000; a young job is polled sooner). */
  pollInterval?: number;
  /** Stops waiting at once (`APIUserAbortError`); the job itself is not cancelled. */
  signal?: AbortSignal;
  /** Give up waiting after this many ms; the error names the job and how to re-attach. */
  timeout?: number;
}
