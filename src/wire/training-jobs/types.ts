/**
 * Response of `client.trainingJobs.create(...)`: the new job's UUID. Unknown members are kept.
 */
export interface TrainingJobCreateResponse {
  id: string;
  [key: string]: unknown;
}

/**
 * A training job as `client.trainingJobs.retrieve` returns it: `id` and every other member the
 * server sends (such as `status`), kept as they are.
 */
export interface TrainingJobResponse {
  id: string;
  [key: string]: unknown;
}

/**
 * The `data` of a training job's event. The spec leaves it open; the members below are the ones
 * ART's serverless backend reads (OpenPipe/ART `src/art/serverless/backend.py`: it takes
 * `num_sequences` of `training_started`, turns every `gradient_step` member into a float, and
 * reads `error_message` of `training_failed`), typed as numbers where the server sends numbers.
 * Any other member is kept as sent.
 */
export interface TrainingJobEventData {
  /** `training_started`: how many gradient steps to expect. */
  num_sequences?: number;
  /** `training_failed`: why. */
  error_message?: string;
  /** `gradient_step`: the training loss (RL and SFT). */
  loss?: number;
  /** `gradient_step` (RL): the policy loss. */
  policy_loss?: number;
  /** `gradient_step` (RL): the mean reward of the step's trajectories. */
  reward?: number;
  /** `gradient_step` (RL): their standard deviation. */
  reward_std_dev?: number;
  /** `gradient_step` (RL): the share of rollouts that raised. */
  exception_rate?: number;
  /** `gradient_step`: the policy's entropy. */
  entropy?: number;
  /** `gradient_step`: KL divergence from the sampling policy. */
  kl_div?: number;
  /** `gradient_step`: KL divergence from the reference policy. */
  kl_policy_ref?: number;
  /** `gradient_step`: the gradient's norm. */
  grad_norm?: number;
  /** `gradient_step`: the learning rate used. */
  learning_rate?: number;
  /** `gradient_step` (RL): groups sent. */
  num_groups_submitted?: number;
  /** `gradient_step` (RL): groups with something to learn (rewards that differ). */
  num_groups_trainable?: number;
  /** `gradient_step` (RL): trajectories in the step. */
  num_trajectories?: number;
  /** `gradient_step`: tokens in the step. */
  num_tokens?: number;
  /** `gradient_step`: tokens trained on. */
  num_trainable_tokens?: number;
  /** `gradient_step`: tokens the trainer processed. */
  train_tokens?: number;
  /** `gradient_step`: packed sequences (datums) in the step. */
  num_datums?: number;
  /** `gradient_step`: the trainer's throughput. */
  tokens_per_second?: number;
  [key: string]: unknown;
}

/**
 * One event of a training job (`GET /v1/preview/training-jobs/{id}/events`). `type` is one of
 * `training_started` (`data.num_sequences`: how many gradient steps to expect),
 * `gradient_step` (numeric metrics such as `data.loss`), `training_ended`, `training_failed`
 * (`data.error_message`), or any other string the server adds later (passed through as is).
 */
export interface TrainingJobEvent {
  id: string;
  type: "training_started" | "gradient_step" | "training_ended" | "training_failed" | (string & {});
  data: TrainingJobEventData;
  [key: string]: unknown;
}
