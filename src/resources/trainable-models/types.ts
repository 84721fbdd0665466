/**
 * A trainable model as the server describes it (`ModelResponse`). Unknown members are kept.
 *
 * @example
 * ```ts
 * const m: TrainableModelResponse = await client.trainableModels.create({ project: "rl", name: "agent", base_model });
 * console.log(m.id, m.entity);
 * ```
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
 *
 * @example
 * ```ts
 * const newest: Checkpoint | undefined = (await client.trainableModels.checkpoints.list(modelId, { order: "desc", limit: 1 }).pages().next()).value?.[0];
 * ```
 */
export interface Checkpoint {
  id: string;
  step: number;
  metrics: Record<string, number>;
  [key: string]: unknown;
}

/**
 * Answer of `client.trainableModels.delete`.
 *
 * @example
 * ```ts
 * const { deleted_checkpoints }: TrainableModelDeleteResponse = await client.trainableModels.delete(modelId);
 * ```
 */
export interface TrainableModelDeleteResponse {
  model_id: string;
  deleted_checkpoints: number;
  deleted_run: boolean;
  [key: string]: unknown;
}

/**
 * Answer of `client.trainableModels.checkpoints.delete`.
 *
 * @example
 * ```ts
 * const { deleted_count, not_found_steps }: CheckpointDeleteResponse = await client.trainableModels.checkpoints.delete(modelId, { steps: [1] });
 * ```
 */
export interface CheckpointDeleteResponse {
  deleted_count: number;
  not_found_steps: number[];
  [key: string]: unknown;
}

/**
 * What `model.train(...)` resolves to: the job, the step it produced, and the mean of each
 * numeric member of its `gradient_step` events.
 *
 * @example
 * ```ts
 * const { jobId, step, metrics }: TrainResult = await model.train(groups);
 * console.log(step, metrics.loss);
 * ```
 */
export interface TrainResult {
  jobId: string;
  step: number;
  metrics: Record<string, number>;
}
