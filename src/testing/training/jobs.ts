/**
 * Training jobs. `POST /v1/preview/training-jobs` (RL) and `POST /v1/preview/sft-training-jobs`
 * (SFT) validate the body like the training API (FastAPI 422), create a job `{id}` and remember it; an `Idempotency-Key` already seen returns
 * the same job without creating another (and 422 when the same key comes with a different body).
 * The job's life (its status and events) is the training service's (`trainable.ts`), which
 * ends it with a new checkpoint of its model.
 */

import type { ArtifactStore } from "../artifacts/store.js";
import { detailError, jsonResponse, requireJsonBody } from "../responses.js";
import type { Route } from "../route.js";
import { route } from "../route.js";
import type { FakeRequest, ResponsePlan, TrainingJob } from "../types.js";
import { isoMicros, isRecord, randomUuid } from "../util.js";
import { validateBody } from "../validate.js";
import { createJobCheck, createSftJobCheck } from "./checks.js";
import { readSftDataset } from "./sft-dataset.js";
import type { TrainableStore } from "./store.js";

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
  readonly list: TrainingJob[] = [];
  private readonly byKey = new Map<string, { job: TrainingJob; body: string }>();

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
  handleCreate(req: FakeRequest, onCreated?: (job: TrainingJob) => void, kind: "rl" | "sft" = "rl"): ResponsePlan {
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
    const job: TrainingJob = {
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

/** The training jobs' routes (RL and SFT). */
export const TRAINING_JOB_ROUTES: ReadonlyArray<
  Route<{ training: TrainingJobStore; trainable: TrainableStore; artifacts: ArtifactStore }>
> = [
  route({
    method: "POST",
    path: "/v1/preview/training-jobs",
    auth: "bearer",
    handle: ({ req, state, fault }) => {
      const failure =
        fault?.kind === "trainingFailed" ? { message: fault.message, afterSteps: fault.afterSteps ?? 1 } : undefined;
      return state.training.handleCreate(req, (job) => state.trainable.startJob(job, failure));
    },
  }),
  // An SFT job is a training job of the same service: the events and record routes below
  // serve it too. W&B's API has no SFT-specific route for either, and ART's client reads an SFT
  // job's events through them (OpenPipe/ART src/art/serverless/client.py @029b7a28:
  // SFTTrainingJobs.events is a TrainingJobEvents on /preview/training-jobs/{id}/events).
  route({
    method: "POST",
    path: "/v1/preview/sft-training-jobs",
    auth: "bearer",
    handle: ({ req, state, fault }) => {
      // W&B Training refuses a dataset it cannot read (a 400); a usable one trains a step per
      // batch of its rows (sft-dataset.ts). The body is checked first, as FastAPI does.
      const url = isRecord(req.json) ? req.json["training_data_url"] : undefined;
      const checked = isRecord(req.json) ? validateBody(createSftJobCheck, req.json) : [];
      const found = typeof url === "string" && checked.length === 0 ? readSftDataset(state.artifacts, url) : undefined;
      if (found !== undefined && "problem" in found) return jsonResponse(400, { detail: found.problem });
      const failure =
        fault?.kind === "trainingFailed" ? { message: fault.message, afterSteps: fault.afterSteps ?? 1 } : undefined;
      return state.training.handleCreate(req, (job) => state.trainable.startJob(job, failure, found?.rows), "sft");
    },
  }),
  route({
    method: "GET",
    path: "/v1/preview/training-jobs/{job_id}",
    auth: "bearer",
    handle: ({ state, params }) => state.trainable.retrieveJob(params.job_id),
  }),
  route({
    method: "GET",
    path: "/v1/preview/training-jobs/{job_id}/events",
    auth: "bearer",
    handle: ({ req, state, params }) => state.trainable.listEvents(params.job_id, new URLSearchParams(req.query)),
  }),
];
