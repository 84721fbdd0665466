/**
 * The training service's routes, as W&B Training serves them under `/v1/preview`: training
 * jobs (RL and SFT), their records and events, then the trainable models, their checkpoints
 * and the base models.
 */
import type { ArtifactStore } from "../artifacts/store.js";
import { jsonResponse } from "../responses.js";
import type { Route } from "../route.js";
import { route } from "../route.js";
import { isRecord } from "../util.js";
import { validateBody } from "../validate.js";
import { deleteCheckpoints, listCheckpoints } from "./checkpoints.js";
import { createSftJobCheck } from "./checks.js";
import { listEvents, retrieveJob, type TrainingJobStore } from "./jobs.js";
import { createModel, deleteModel, listBaseModels, logTrajectories } from "./models.js";
import { readSftDataset } from "./sft-dataset.js";
import type { TrainableStore } from "./store.js";

/** The training routes: jobs (RL and SFT) first, then trainable models. */
export const TRAINING_ROUTES: ReadonlyArray<
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
      // batch of its rows (`sft-dataset.ts`). The body is checked first, as FastAPI does.
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
    handle: ({ state, params }) => retrieveJob(state.trainable, params.job_id),
  }),
  route({
    method: "GET",
    path: "/v1/preview/training-jobs/{job_id}/events",
    auth: "bearer",
    handle: ({ req, state, params }) => listEvents(state.trainable, params.job_id, new URLSearchParams(req.query)),
  }),
  route({
    method: "POST",
    path: "/v1/preview/models",
    auth: "bearer",
    handle: ({ req, state }) => createModel(state.trainable, req),
  }),
  route({
    method: "GET",
    path: "/v1/preview/base-models",
    auth: "bearer",
    handle: ({ state }) => listBaseModels(state.trainable),
  }),
  route({
    method: "DELETE",
    path: "/v1/preview/models/{model_id}",
    auth: "bearer",
    handle: ({ state, params }) => deleteModel(state.trainable, params.model_id),
  }),
  route({
    method: "GET",
    path: "/v1/preview/models/{model_id}/checkpoints",
    auth: "bearer",
    handle: ({ req, state, params }) =>
      listCheckpoints(state.trainable, params.model_id, new URLSearchParams(req.query)),
  }),
  route({
    method: "DELETE",
    path: "/v1/preview/models/{model_id}/checkpoints",
    auth: "bearer",
    handle: ({ req, state, params }) => deleteCheckpoints(state.trainable, params.model_id, req),
  }),
  route({
    method: "POST",
    path: "/v1/preview/models/{model_id}/log",
    auth: "bearer",
    handle: ({ req, state, params }) => logTrajectories(state.trainable, params.model_id, req),
  }),
];
