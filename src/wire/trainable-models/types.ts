/**
 * A trainable model as the server describes it (`ModelResponse`). Unknown members are kept.
 */
export interface TrainableModelResponse {
  id: string;
  entity: string;
  project: string;
  name: string;
  base_model: string;
  run_id?: string | null;
  [key: string]: unknown;
}

/**
 * A checkpoint: one trained step of a model, with its metrics.
 */
export interface Checkpoint {
  id: string;
  step: number;
  metrics: Record<string, number>;
  [key: string]: unknown;
}

/**
 * Answer of `client.trainableModels.delete`.
 */
export interface TrainableModelDeleteResponse {
  model_id: string;
  deleted_checkpoints: number;
  deleted_run: boolean;
  [key: string]: unknown;
}

/**
 * Answer of `client.trainableModels.checkpoints.delete`.
 */
export interface CheckpointDeleteResponse {
  deleted_count: number;
  not_found_steps: number[];
  [key: string]: unknown;
}

/**
 * What `model.train(...)` resolves to: the job, the step it produced, and the mean of each
 * numeric member of its `gradient_step` events.
 */
export interface TrainResult {
  jobId: string;
  step: number;
  metrics: Record<string, number>;
}
