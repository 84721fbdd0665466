/**
 * Response of `client.trainingJobs.create(...)`: the new job's UUID. Unknown members are kept.
 *
 * @example
 * ```ts
 * const { id }: TrainingJobCreateResponse = await client.trainingJobs.create(params);
 * ```
 */
export interface TrainingJobCreateResponse {
  id: string;
  [key: string]: unknown;
}
