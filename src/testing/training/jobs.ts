/**
 * Training jobs. `POST /v1/preview/training-jobs` (RL) and `POST /v1/preview/sft-training-jobs`
 * (SFT) validate the body like the training API (FastAPI 422), create a job `{id}` and remember it; an `Idempotency-Key` already seen returns
 * the same job without creating another (and 422 when the same key comes with a different body).
 * The job's life (its status and events) is its timeline's (`timeline.ts`), read here through
 * `GET /v1/preview/training-jobs/{job_id}[/events]`; a job that ends adds a checkpoint to its
 * model (`store.ts`).
 */

import { detailError, jsonResponse, requireJsonBody } from "../responses.js";
import type { FakeRequest, FakeTrainingJob, ResponsePlan } from "../types.js";
import { isoMicros, randomUuid } from "../util.js";
import { validateBody } from "../validate.js";
import { createJobCheck, createSftJobCheck } from "./checks.js";
import { notFound, page, queryIssues } from "./pages.js";
import type { TrainableStore } from "./store.js";
import { jobView } from "./timeline.js";

// Called after validation, so every group has a `trajectories` list of objects (an SFT job
// has no groups).
function rewardsOf(body: Record<string, unknown>): (number | null)[][] {
  const groups = (body["trajectory_groups"] ?? []) as Array<{ trajectories: Array<{ reward?: unknown }> }>;
  return groups.map((g) => g.trajectories.map((t) => (typeof t.reward === "number" ? t.reward : null)));
}

/**
 * Training jobs created so far, with the idempotency keys already used.
 */
export class TrainingJobStore {
  readonly list: FakeTrainingJob[] = [];
  private readonly byKey = new Map<string, { job: FakeTrainingJob; body: string }>();

  /**
   * Forgets every job and key.
   */
  clear(): void {
    this.list.length = 0;
    this.byKey.clear();
  }

  /**
   * Handles the create route (auth already checked).
   */
  handleCreate(req: FakeRequest, onCreated?: (job: FakeTrainingJob) => void, kind: "rl" | "sft" = "rl"): ResponsePlan {
    const parsed = requireJsonBody(req.body, req.json);
    if (!parsed.ok) return parsed.error;
    const issues = validateBody(kind === "sft" ? createSftJobCheck : createJobCheck, parsed.value);
    if (issues.length > 0) return detailError(issues);
    const body = parsed.value as Record<string, unknown> & { model_id: string };
    const key = req.headers["idempotency-key"];
    const canonical = JSON.stringify(body);
    if (key !== undefined && key !== "") {
      const previous = this.byKey.get(key);
      if (previous !== undefined) {
        if (previous.body !== canonical) {
          return detailError([
            {
              loc: ["header", "idempotency-key"],
              msg: "Idempotency-Key was already used with a different request body",
              type: "idempotency_key_reused",
            },
          ]);
        }
        return jsonResponse(200, { id: previous.job.id }, { "idempotent-replayed": "true" });
      }
    }
    const job: FakeTrainingJob = {
      id: randomUuid(),
      kind,
      model_id: body.model_id,
      idempotency_key: key === undefined || key === "" ? null : key,
      request: body,
      rewards: rewardsOf(body),
      created_at: isoMicros(Date.now()),
    };
    this.list.push(job);
    onCreated?.(job);
    if (job.idempotency_key !== null) this.byKey.set(job.idempotency_key, { job, body: canonical });
    return jsonResponse(200, { id: job.id });
  }
}

/** `GET /v1/preview/training-jobs/{job_id}`: the job's record and status. */
export function retrieveJob(store: TrainableStore, jobId: string): ResponsePlan {
  store.advance();
  const t = store.timelines.get(jobId);
  return t === undefined ? notFound("Training job") : jsonResponse(200, jobView(t));
}

/** `GET /v1/preview/training-jobs/{job_id}/events`: a cursor page of the events emitted so far. */
export function listEvents(store: TrainableStore, jobId: string, query: URLSearchParams): ResponsePlan {
  store.advance();
  const t = store.timelines.get(jobId);
  if (t === undefined) return notFound("Training job");
  const issues = queryIssues(query, false);
  if (issues.length > 0) return detailError(issues);
  const body = page(t.planned.slice(0, t.emitted), query);
  return body === undefined
    ? detailError([{ loc: ["query", "after"], msg: "No event with this id in the job", type: "value_error" }])
    : jsonResponse(200, body);
}
