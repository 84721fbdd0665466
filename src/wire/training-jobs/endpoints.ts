import { cursorPages } from "../../core/lists/paging.js";
import { endpoint } from "../../core/pipeline/endpoint.js";
import { readWithId } from "../../core/pipeline/read-body.js";
import { ignoredSettings } from "./experimental-config.js";
import { type TrainingJobBody, trainingJobBody } from "./job-body.js";
import { refuseUntrainableJob } from "./logprobs-rule.js";
import { trainingJobCreateParamsSchema, trainingJobEventListParamsSchema } from "./request-schema.js";
import type { TrainingJobCreateResponse, TrainingJobEvent, TrainingJobResponse } from "./types.js";
export const eventsList = endpoint({
  operation: "training_jobs.events.list",
  method: "GET",
  path: "/v1/preview/training-jobs/{jobId}/events",
  service: "training",
  retry: "safe",
  query: trainingJobEventListParamsSchema,
  page: cursorPages<TrainingJobEvent>("training job event"),
});

export const trainingJobsRetrieve = endpoint({
  operation: "training_jobs.retrieve",
  method: "GET",
  path: "/v1/preview/training-jobs/{jobId}",
  service: "training",
  retry: "safe",
  read: readWithId<TrainingJobResponse>,
});

// Checked while it is copied (trainingJobBody keeps each trajectory as prewritten JSON text) and
// sent in pieces. The review sees `experimental_config` with `extraBody`'s settings merged in: it
// refuses a job that would train nothing unless that config allows it, and says the checks'
// findings (rewards that teach nothing, settings the trainer ignores) before sending.
export const trainingJobsCreate = endpoint({
  operation: "training_jobs.create",
  method: "POST",
  path: "/v1/preview/training-jobs",
  service: "training",
  retry: "unsent-only",
  creates: "training job",
  body: {
    schema: trainingJobCreateParamsSchema,
    check: trainingJobBody,
    prepare: (job: TrainingJobBody) => job.body,
    // A setting newer than the SDK, sent through extraBody, joins the checked ones.
    merges: ["experimental_config"],
    inPieces: true,
    review: (job: TrainingJobBody, sent: Record<string, unknown>, what: string) => {
      refuseUntrainableJob(job.checks, sent["experimental_config"], what);
      return [...job.checks.warnings(), ...ignoredSettings(sent["experimental_config"])];
    },
  },
  read: readWithId<TrainingJobCreateResponse>,
});
