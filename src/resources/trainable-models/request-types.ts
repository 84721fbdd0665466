import type { TrajectoryGroup } from "../training-jobs/request-types.js";

/**
 * Body of `POST /v1/preview/models` (`client.trainableModels.create`).
 *
 * @example
 * ```ts
 * const params: TrainableModelCreateParams = { project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" };
 * ```
 */
export interface TrainableModelCreateParams {
  /** Team or user of the API key; the server fills it in when absent or null. */
  entity?: string | null;
  /** W&B project the model is stored in. */
  project: string;
  /** Name of the model, unique within the project. */
  name: string;
  /** Base model id or Hugging Face path (see `client.trainableModels.baseModels()`). */
  base_model: string;
  /** Return the model of the same name if there is one instead of failing (default false). */
  return_existing?: boolean;
}

/**
 * Params of `client.trainableModels.register`: create with `return_existing: true`.
 *
 * @example
 * ```ts
 * const params: TrainableModelRegisterParams = { project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" };
 * ```
 */
export type TrainableModelRegisterParams = Omit<TrainableModelCreateParams, "return_existing">;

/**
 * Body of `POST /v1/preview/models/{model_id}/log`.
 *
 * @example
 * ```ts
 * const params: TrainableModelLogParams = { split: "val", trajectory_groups: groups };
 * ```
 */
export interface TrainableModelLogParams {
  /** The split the trajectories belong to, e.g. `"train"` or `"val"`. */
  split: string;
  trajectory_groups: TrajectoryGroup[];
}

/**
 * Query of `GET /v1/preview/models/{model_id}/checkpoints`.
 *
 * @example
 * ```ts
 * const params: CheckpointListParams = { order: "desc", limit: 1 };
 * ```
 */
export interface CheckpointListParams {
  /** `asc` (the server's default: oldest step first) or `desc`. */
  order?: "asc" | "desc";
  /** Items per page, 1-100 (server default 20). */
  limit?: number;
  /** Start after the checkpoint with this id. */
  after?: string;
}

/**
 * Body of `DELETE /v1/preview/models/{model_id}/checkpoints`.
 *
 * @example
 * ```ts
 * const params: CheckpointDeleteParams = { steps: [1, 2, 3] };
 * ```
 */
export interface CheckpointDeleteParams {
  /** The steps to delete (integers). */
  steps: number[];
}

/**
 * Query of `GET /v1/preview/training-jobs/{id}/events`.
 *
 * @example
 * ```ts
 * const params: TrainingJobEventListParams = { after: "evt-12", limit: 100 };
 * ```
 */
export interface TrainingJobEventListParams {
  /** Start after the event with this id (a saved cursor). */
  after?: string;
  /** Items per page, 1-100 (server default 20). */
  limit?: number;
}
