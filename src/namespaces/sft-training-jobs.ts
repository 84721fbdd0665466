import type { APIPromise } from "../core/pipeline/api-promise.js";
import { callLazyEndpoint } from "../core/pipeline/lazy-endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { TrainingJobFollowOptions } from "../lib/training/follow-events.js";
import type { SFTTrainingJobCreateParams } from "../wire/sft-training-jobs/request-schema.js";
import type { TrainingJobCreateResponse, TrainingJobEvent, TrainingJobResponse } from "../wire/training-jobs/types.js";
import type { TrainingJobEvents } from "./training-job-events.js";
import { TrainingJobs } from "./training-jobs.js";

// Loaded at the first call: a page that never trains does not carry the training service's schemas.
const wire = () => import("../wire/sft-training-jobs/endpoints.js");

/**
 * Supervised fine-tuning jobs (`POST /v1/preview/sft-training-jobs`, Bearer auth, on
 * `trainingBaseURL`): a trainable model is fine-tuned on a dataset uploaded as a W&B artifact.
 * An SFT job is a training job of the same service: its events and its record are read through
 * the training jobs' routes (W&B's API has no SFT-specific route for either).
 *
 * @example
 * ```ts
 * const { id } = await client.sftTrainingJobs.create(
 *   { model_id: trainable.id, training_data_url: "wandb-artifact:///acme/sft/agent-data:v0" },
 *   { idempotencyKey: crypto.randomUUID() },
 * );
 * for await (const event of client.sftTrainingJobs.follow(id)) console.log(event.type);
 * ```
 */
export class SFTTrainingJobs extends APIResource {
  // The training jobs' routes: an SFT job's events and record live there. ART's client reads an
  // SFT job's events there (OpenPipe/ART src/art/serverless/client.py @029b7a28,
  // SFTTrainingJobs.events = TrainingJobEvents); no ART version reads a job's record.
  readonly #jobs = new TrainingJobs(this._http);
  /** The jobs' events (`GET /v1/preview/training-jobs/{id}/events`, as for RL jobs). */
  readonly events: TrainingJobEvents = this.#jobs.events;

  /**
   * Creates an SFT job from a dataset artifact. `config` sets the batch size (a number or
   * `"auto"`), the learning rate (one, or one per batch), which assistant turns are trained
   * (`"all"` or `"last"`) and metric logging. Bad input (a misspelt setting gets a "did you
   * mean") is refused before anything is sent.
   *
   * Never creates a job twice: without `idempotencyKey`, a failed create is retried only when
   * the request provably never reached the server; with it, it is sent as `Idempotency-Key`
   * on every attempt and all retryable failures are retried.
   *
   * @example
   * ```ts
   * const { id } = await client.sftTrainingJobs.create(
   *   {
   *     model_id: trainable.id,
   *     training_data_url: "wandb-artifact:///acme/sft/agent-data:v0",
   *     config: { batch_size: "auto", learning_rate: 5e-5, assistant_turns: "last" },
   *   },
   *   { idempotencyKey: crypto.randomUUID() },
   * );
   * ```
   */
  create(params: SFTTrainingJobCreateParams, options?: RequestOptions): APIPromise<TrainingJobCreateResponse> {
    return callLazyEndpoint(this._http, () => wire().then((w) => w.sftJobsCreate), { params }, options);
  }

  /**
   * One SFT job's record, through the route the server has for every training job
   * (`GET /v1/preview/training-jobs/{id}`; there is none under `sft-training-jobs`): `id` and
   * every member the server sends (such as `status`). Retried like any GET.
   *
   * @example
   * ```ts
   * const job = await client.sftTrainingJobs.retrieve(jobId);
   * console.log(job.id, job["status"]);
   * ```
   */
  retrieve(jobId: string, options?: RequestOptions): APIPromise<TrainingJobResponse> {
    return this.#jobs.retrieve(jobId, options);
  }

  /**
   * Follows an SFT job's events as `client.trainingJobs.follow` does: each event once, in
   * order, until `training_ended` (yielded last) or `training_failed` (rejects with
   * `TrainingJobFailedError`); transient failures are ridden out from the cursor, and `after`
   * re-attaches after a crash.
   *
   * @example
   * ```ts
   * for await (const event of client.sftTrainingJobs.follow(jobId, { pollInterval: 2_000 })) {
   *   if (event.type === "gradient_step") console.log("loss", event.data.loss);
   * }
   * ```
   */
  follow(jobId: string, options: TrainingJobFollowOptions = {}): AsyncIterable<TrainingJobEvent> {
    return this.#jobs.follow(jobId, options);
  }
}
