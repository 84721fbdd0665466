import { APIPromise } from "../../core/api-promise.js";
import { callEndpoint, endpoint, endpointRequest } from "../../core/endpoint.js";
import { type APIResponse, readJSON } from "../../core/http-client.js";
import { expectObject, shapeError } from "../../core/response-shape.js";
import type { Log } from "../../core/log.js";
import type { RequestOptions } from "../../core/options.js";
import type { RequestSpec } from "../../core/request-spec.js";
import { APIResource } from "../../core/resource.js";
import { warnOnce } from "../../core/warn-once.js";
import type { TrainingJobEvent } from "./types.js";
import type { TrainingJobResponse } from "./types.js";
import { TrainingJobEvents } from "./events.js";
import { followEvents, type TrainingJobFollowOptions } from "./follow.js";
import { trainingJobBody, type TrainingJobBody } from "./job-body.js";
import { warnOfIgnoredSettings } from "./experimental-config.js";
import { refuseUntrainableJob } from "./logprobs-rule.js";
import type { TrainingJobCreateParams } from "./request-schema.js";
import type { TrainingWarning } from "./trajectory-checks.js";
import type { TrainingJobCreateResponse } from "./types.js";

/** Without an id there is no job, whatever the status said (a proxy's page, a redirect). */
export async function readJob<T>(res: APIResponse, what: string): Promise<T> {
  const body = expectObject(await readJSON<unknown>(res), what);
  if (typeof body.id !== "string" || body.id === "") throw shapeError(what, "id", body.id, "a non-empty string");
  return body as T;
}

const trainingJobsRetrieve = endpoint<undefined, never, TrainingJobResponse>({
  operation: "training_jobs.retrieve",
  method: "GET",
  path: "/v1/preview/training-jobs/{jobId}",
  service: "training",
  retry: "safe",
  read: (res) => readJob(res, "training job"),
});

// Built and checked by trainingJobBody (a copy that keeps prewritten JSON text), sent in pieces.
const trainingJobsCreate = endpoint<TrainingJobBody["body"], TrainingJobBody["body"], TrainingJobCreateResponse>({
  operation: "training_jobs.create",
  method: "POST",
  path: "/v1/preview/training-jobs",
  service: "training",
  retry: "unsent-only",
  creates: "training job",
  body: (body) => body,
  bodyInPieces: true,
  // A setting newer than the SDK, sent through extraBody, joins the validated ones.
  extraBodyMerges: ["experimental_config"],
  read: (res) => readJob(res, "training job response"),
});

const SHOWN_PATHS = 3;

/**
 * One line per finding worded the same, so 64 flat groups of reward 0 make one warning, not 64,
 * and each line quotes its own findings' message (group 3's reward, not group 0's).
 */
/**
 * Without a log at `warn` (the default), each kind of finding reaches the user once per
 * process: `process.emitWarning` with code `INFERLOOP_<KIND>` (e.g. `INFERLOOP_UNIFORM_REWARDS`).
 */
function warnOfFindings(warnings: TrainingWarning[]): void {
  const seen = new Set<string>();
  for (const w of warnings) {
    if (seen.has(w.code)) continue;
    seen.add(w.code);
    const count = warnings.filter((x) => x.code === w.code).length;
    const more = count > 1 ? ` and ${count - 1} more` : "";
    warnOnce(`INFERLOOP_${w.code.toUpperCase()}`, `training job: ${w.message} [${w.code} at ${w.path}${more}]`);
  }
}

function logWarnings(log: Log, warnings: TrainingWarning[]): void {
  const byMessage = new Map<string, TrainingWarning[]>();
  for (const w of warnings) {
    const key = `${w.code} ${w.message}`;
    const list = byMessage.get(key);
    if (list === undefined) byMessage.set(key, [w]);
    else list.push(w);
  }
  for (const list of byMessage.values()) {
    const paths = list.slice(0, SHOWN_PATHS).map((w) => w.path);
    const more = list.length > SHOWN_PATHS ? ` and ${list.length - SHOWN_PATHS} more` : "";
    log.write("warn", `training job: ${list[0]!.message} [${list[0]!.code} at ${paths.join(", ")}${more}]`);
  }
}

/**
 * Reinforcement-learning training jobs (`/v1/preview`, Bearer auth).
 *
 * @example
 * ```ts
 * const { id } = await client.trainingJobs.create({ model_id, trajectory_groups }, { idempotencyKey: crypto.randomUUID() });
 * ```
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
    return callEndpoint(this._http, trainingJobsRetrieve, { pathArguments: { jobId } }, options);
  }

  /**
   * Follows a job's events as they arrive: each event is yielded once, in order, until
   * `training_ended` (yielded, then the iteration ends) or `training_failed` (the iteration
   * rejects with `TrainingJobFailedError`, whose message carries the server's `error_message`).
   * Unknown event types pass through. Polls every `pollInterval` ms (default 1000) from a cursor,
   * so 5xx, 429 and dropped connections are ridden out without losing or repeating an event.
   *
   * Save the last event's id: after a crash, `follow(jobId, { after })` re-attaches to the job
   * where you left it. `signal` stops at once (`APIUserAbortError`); `timeout` ends with an
   * error that names the job (which may still be running) and how to re-attach.
   *
   * @example
   * ```ts
   * for await (const event of client.trainingJobs.follow(jobId, { pollInterval: 2_000 })) {
   *   if (event.type === "gradient_step") console.log("loss", event.data.loss);
   *   saveCursor(event.id);
   * }
   * ```
   */
  follow(jobId: string, options: TrainingJobFollowOptions = {}): AsyncIterable<TrainingJobEvent> {
    const events = this.events;
    const log = this._http.config.log;
    return { [Symbol.asyncIterator]: () => followEvents(events, jobId, options, log) };
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
   *   { model_id: "5f1c1a7e-8a40-4c55-9c2e-3d3a8f0e6b11", trajectory_groups: [{ trajectories: [traj] }] },
   *   { idempotencyKey: crypto.randomUUID() },
   * );
   * ```
   */
  create(params: TrainingJobCreateParams, options?: RequestOptions): APIPromise<TrainingJobCreateResponse> {
    let spec: RequestSpec;
    let job: TrainingJobBody;
    try {
      // `Trajectory` objects pass as they are: the copy reads each through its toJSON().
      job = trainingJobBody(params);
      refuseUntrainableJob(
        job.checks,
        job.body["experimental_config"],
        this._http.config.extraBody,
        options?.extraBody,
      );
      spec = endpointRequest(trainingJobsCreate, { params: job.body });
    } catch (err) {
      return new APIPromise(Promise.reject(err));
    }
    const log = this._http.config.log;
    const warnings = job.checks.warnings();
    // The findings rule (warnFinding): in the client's log when it takes warn, else once per process.
    if (log.enabled("warn")) logWarnings(log, warnings);
    else warnOfFindings(warnings);
    return new APIPromise(this._http.request(spec, options, trainingJobsCreate.read));
  }
}
