import type { PruneCheckpointsOptions } from "../../resources/trainable-models/prune-checkpoints.js";
import type { ExperimentalConfig, TrajectoryGroup } from "../../resources/training-jobs/request-schema.js";
import type { TrainingJobEvent } from "../../resources/training-jobs/types.js";
import type { GatherProgress } from "../trajectories/gather.js";

/**
 * What `rollouts` and `eval` of {@link TrainLoopOptions} are called with.
 *
 * @example
 * ```ts
 * const rollouts = ({ step, modelName, signal, onProgress }: TrainLoopRolloutContext) =>
 *   gatherTrajectoryGroups(groupsFor(modelName), { signal, onProgress });
 * ```
 */
export interface TrainLoopRolloutContext {
  /** The step these rollouts will train (`rollouts`), or the step to evaluate (`eval`). */
  step: number;
  /** The checkpoint sampled: `modelName`'s step (0: the base model, before any checkpoint). */
  sampledStep: number;
  /** The chat `model` to sample: `model.inferenceName(sampledStep)`, or `inferenceName()` at step 0. */
  modelName: string;
  /** Aborts when the loop stops (an error, an abort, a `break`): pass it to every call. */
  signal: AbortSignal;
  /** Pass it as `gatherTrajectoryGroups`' `onProgress`: it reaches `onEvent` as `rollout_progress`. */
  onProgress: (progress: GatherProgress) => void;
}

/**
 * What the loop reports to `onEvent`, each with the `step` it belongs to: rollouts starting,
 * progressing and ending; each event of the step's training job; the step trained; its
 * evaluation; the checkpoints pruned after it.
 *
 * @example
 * ```ts
 * const onEvent = (e: TrainLoopEvent) => {
 *   if (e.type === "rollout_progress") console.log(`step ${e.step}: ${e.done}/${e.total} rollouts`);
 *   if (e.type === "job" && e.event.type === "gradient_step") console.log("loss", e.event.data.loss);
 * };
 * ```
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
      /** The mean reward of the trajectories (undefined when none has one). */
      reward: number | undefined;
      ms: number;
    }
  | { type: "job"; step: number; event: TrainingJobEvent }
  | { type: "trained"; step: number; jobId: string; metrics: Record<string, number>; ms: number }
  | { type: "eval_ended"; step: number; metrics: Record<string, number>; ms: number }
  | { type: "checkpoints_pruned"; step: number; kept: number[]; deleted: number[] };

/**
 * Options of `model.trainLoop`.
 *
 * @example
 * ```ts
 * const options: TrainLoopOptions = {
 *   steps: 20,
 *   maxStepsOffPolicy: 1,
 *   rollouts: ({ modelName, signal }) => gatherTrajectoryGroups(groupsFor(modelName), { signal }),
 * };
 * ```
 */
export interface TrainLoopOptions {
  /** The step the loop ends at (absolute: a model at step 3 trains steps 4 to `steps`). */
  steps: number;
  /**
   * The rollouts of one step, called once per step to train: resolves to the scored groups
   * (`gatherTrajectoryGroups`' result). The loop sets each trajectory's policy versions.
   */
  rollouts: (context: TrainLoopRolloutContext) => TrajectoryGroup[] | PromiseLike<TrajectoryGroup[]>;
  /**
   * How many steps the sampled checkpoint may lag behind the one a job trains from: 0 samples,
   * trains, then samples the new step; k >= 1 samples the next steps while a job trains.
   */
  maxStepsOffPolicy: number;
  /** Loss and optimizer settings of every job. */
  experimental_config?: ExperimentalConfig | null;
  /** Evaluate every this many trained steps (default 1 when `eval` is given). */
  evalEvery?: number;
  /** Evaluates a trained checkpoint; its metrics are the step's `evalMetrics`. */
  eval?: (
    context: Omit<TrainLoopRolloutContext, "onProgress">,
  ) => Record<string, number> | PromiseLike<Record<string, number>>;
  /** Prune checkpoints after each step (`model.pruneCheckpoints`), sparing those still sampled. */
  retention?: Omit<PruneCheckpointsOptions, "dryRun">;
  /** Stops the loop: rollouts aborted, no job created after it, rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
  /** Progress: rollouts, job events, evaluation and pruning, as they happen. */
  onEvent?: (event: TrainLoopEvent) => void;
  /** Time between polls of a job's events, in ms (default 1000). */
  pollInterval?: number;
  /** Give up waiting for one job after this many ms (default: no limit). */
  jobTimeout?: number;
}

/**
 * One trained step of `model.trainLoop`, in step order.
 *
 * @example
 * ```ts
 * for await (const s of model.trainLoop(options))
 *   console.log(`step ${s.step} (sampled ${s.sampledStep}) reward ${s.reward?.toFixed(2)} loss ${s.metrics.loss}`);
 * ```
 */
export interface TrainLoopStep {
  /** The checkpoint this step's job made. */
  step: number;
  jobId: string;
  /** The mean of each numeric `gradient_step` member of the job. */
  metrics: Record<string, number>;
  /** The checkpoint the step's rollouts sampled: `step - 1 - sampledStep` is 0 to `maxStepsOffPolicy`. */
  sampledStep: number;
  /** `eval`'s metrics for this step, or undefined when it was not evaluated. */
  evalMetrics: Record<string, number> | undefined;
  /** The mean reward of the trajectories trained on (undefined when none has one). */
  reward: number | undefined;
  /** How long this step's rollouts and job took, in ms (run one after the other, they add up). */
  durations: { rollouts: number; training: number };
}
