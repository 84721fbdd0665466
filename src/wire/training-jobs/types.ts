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
 * One event of a training job (`GET /v1/preview/training-jobs/{id}/events`). `type` is one of
 * `training_started` (`data.num_sequences`: how many gradient steps to expect),
 * `gradient_step` (numeric metrics such as `loss`), `training_ended`, `training_failed`
 * (`data.error_message`), or any other string the server adds later (passed through as is).
 */
export interface TrainingJobEvent {
  id: string;
  type: "training_started" | "gradient_step" | "training_ended" | "training_failed" | (string & {});
  data: Record<string, unknown>;
  [key: string]: unknown;
}
