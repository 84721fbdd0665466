// The shapes of a training run's saved state, in a module of their own so that the state's
// stores (a file in Node, memory elsewhere) and its keeper both name them without importing
// each other.
import type { SFTTrainingConfig } from "../../wire/sft-training-jobs/request-schema.js";
import type { ExperimentalConfig, TrajectoryGroup } from "../../wire/training-jobs/request-schema.js";

/**
 * The job of one step, kept from just before its create is sent until it has ended.
 */
export interface LoopJobState {
  /** The step this job trains. */
  step: number;
  /** Sent as `Idempotency-Key` on the create, and again on a resend after a restart. */
  idempotencyKey: string;
  /** The job's id, once the create has answered; absent while it is being sent. */
  jobId?: string;
  /** The checkpoint its rollouts sampled. */
  sampledStep: number;
  /** The mean reward of its trajectories. */
  reward?: number;
  /** How long its rollouts took, in ms. */
  rolloutsMs: number;
  /**
   * What the create sends, kept only until the job's id is known: a resend after a restart must
   * be the same request, or a server that honours the key refuses it.
   */
  request?: { trajectory_groups: TrajectoryGroup[]; experimental_config?: ExperimentalConfig | null | undefined };
}

/**
 * `model.trainSFT`'s job, kept from just before its create is sent until it has ended.
 */
export interface SFTJobState {
  /** The dataset artifact's name and the digest of its manifest: the rows the job trains on. */
  dataset: { name: string; digest: string };
  /** `wandb-artifact:///{entity}/{project}/{name}:v{N}`: the version the create names. */
  trainingDataUrl: string;
  /** The job's `config`, as sent. */
  config?: SFTTrainingConfig | null;
  /** Sent as `Idempotency-Key` on the create, and again on a resend after a restart. */
  idempotencyKey: string;
  /** The job's id, once the create has answered; absent while it is being sent. */
  jobId?: string;
}

/**
 * What `model.trainLoop` and `model.trainSFT` keep between runs (see {@link LoopStateStore}).
 */
export interface LoopState {
  /** The format's version: 1. */
  version: 1;
  /** The model's id: state of another id (a model made again under the same name) is not followed. */
  modelId: string;
  /** The newest step the loop saw trained. */
  trained: number;
  /** The job in flight: being created (no `jobId` yet) or training. */
  job?: LoopJobState | undefined;
  /** `trainSFT`'s job in flight (kept in its own file by default, `train-sft.json`). */
  sft?: SFTJobState | undefined;
}

/**
 * Where `model.trainLoop` (and `model.trainSFT`) keeps its {@link LoopState}: `save` is awaited
 * before a job's create is sent and once its id is known, so a store must have written the state
 * when `save` resolves. Give `trainLoop` and `trainSFT` a store each, or never run both at once.
 *
 * @example
 * ```ts
 * import type { LoopState, LoopStateStore } from "inferloop";
 *
 * let saved: string | undefined; // a database row, a key-value store...
 * const store: LoopStateStore = {
 *   load: async () => (saved === undefined ? undefined : (JSON.parse(saved) as LoopState)),
 *   save: async (state) => {
 *     saved = JSON.stringify(state);
 *   },
 * };
 * ```
 */
export interface LoopStateStore {
  load(): Promise<LoopState | undefined>;
  save(state: LoopState): Promise<void>;
}

/** @internal The model a loop's state belongs to. */
export interface StateOwner {
  readonly id: string;
  readonly entity: string;
  readonly project: string;
  readonly name: string;
}
