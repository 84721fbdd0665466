import type { APIPromise } from "../core/pipeline/api-promise.js";
import { callLazyEndpoint, lazyIterable } from "../core/pipeline/lazy-endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { TrainingJobFollowOptions } from "../lib/training/follow-events.js";
import type { TrainingJobCreateParams } from "../wire/training-jobs/request-schema.js";
import type { TrainingJobCreateResponse, TrainingJobEvent, TrainingJobResponse } from "../wire/training-jobs/types.js";
import { TrainingJobEvents } from "./training-job-events.js";

// Loaded at the first call: a page that never trains does not carry the jobs' schemas and checks.
const wire = () => import("../wire/training-jobs/endpoints.js");
const follow = () => import("../lib/training/follow-events.js");

/**
 * Reinforcement-learning training jobs (`/v1/preview`, Bearer auth).
 */
export class TrainingJobs extends APIResource {
  /** The jobs' events, as cursor lists. */
  readonly events: TrainingJobEvents = new TrainingJobEvents(this._http);

  /**
   * One job (`GET /v1/preview/training-jobs/{id}`), with every member the server sends kept
   * (the spec documents only `id`; servers add `status` and more). Retried like any GET.
   *
   * @example
   * ```ts
   * const job = await client.trainingJobs.retrieve(jobId);
   * console.log(job.id, job["status"]);
   * ```
   */
  retrieve(jobId: string, options?: RequestOptions): APIPromise<TrainingJobResponse> {
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.trainingJobsRetrieve),
      { pathArguments: { jobId } },
      options,
    );
  }

  /**
   * Follows a job's events as they arrive: each event is yielded once, in order, until
   * `training_ended` (yielded, then the iteration ends) or `training_failed` (the iteration
   * rejects with `TrainingJobFailedError`, whose message carries the server's `error_message`).
   * Unknown event types pass through. Polls from a cursor, so 5xx, 429 and dropped connections
   * are ridden out without losing or repeating an event. A young job is polled sooner (each wait
   * a quarter of the time followed so far, from 25 ms), and once per job a poll comes when the
   * pace of its gradient steps says it ends, so a short job is seen ending soon after it does;
   * from 4 x `pollInterval` on, every other wait is `pollInterval` (default 1000 ms), so a long
   * job is polled no more often than at that fixed interval.
   *
   * Save the last event's id: after a crash, `follow(jobId, { after })` re-attaches to the job
   * where you left it. `signal` stops at once (`APIUserAbortError`); `timeout` ends with an
   * error that names the job (which may still be running) and how to re-attach.
   *
   * @example
   * ```ts
   * let after: string | undefined; // kept somewhere that outlives the process
   * for await (const event of client.trainingJobs.follow(jobId, { pollInterval: 2_000, after })) {
   *   if (event.type === "gradient_step") console.log("loss", event.data.loss);
   *   after = event.id;
   * }
   * ```
   */
  follow(jobId: string, options: TrainingJobFollowOptions = {}): AsyncIterable<TrainingJobEvent> {
    const events = this.events;
    const log = this._http.config.log;
    return {
      [Symbol.asyncIterator]: () =>
        lazyIterable(() => follow().then((f) => f.followEvents(events, jobId, options, log))),
    };
  }

  /**
   * Create a training job from trajectory groups. A group's trajectories may be wire objects
   * or `Trajectory` objects (sent as their `toJSON()`), and groups may come straight from
   * `gatherTrajectoryGroups`.
   *
   * Before sending, `checkTrajectoryGroups` looks for training that would be wasted (groups
   * with equal rewards, trajectories without a reward, token/logprob counts that disagree,
   * choices without logprobs among others with them); with `logLevel: "warn"` or louder its
   * findings are logged, otherwise each kind is said once per process through
   * `process.emitWarning` (code `INFERLOOP_UNIFORM_REWARDS`, ...), and the job is still sent.
   *
   * Never creates a job twice: without `idempotencyKey`, a failed create is retried only when
   * the request provably never reached the server (connection refused, DNS failure). With
   * `idempotencyKey`, it is sent as `Idempotency-Key` on every attempt and all retryable
   * failures are retried.
   *
   * @example
   * ```ts
   * const { id } = await client.trainingJobs.create(
   *   { model_id: "5f1c1a7e-8a40-4c55-9c2e-3d3a8f0e6b11", trajectory_groups: groups },
   *   { idempotencyKey: crypto.randomUUID() },
   * );
   * ```
   */
  create(params: TrainingJobCreateParams, options?: RequestOptions): APIPromise<TrainingJobCreateResponse> {
    // `Trajectory` objects pass as they are: the copy reads each through its toJSON().
    return callLazyEndpoint(this._http, () => wire().then((w) => w.trainingJobsCreate), { params }, options);
  }
}
