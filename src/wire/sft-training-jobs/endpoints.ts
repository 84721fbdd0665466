import type { $ZodIssue } from "zod/v4/core";
import { memberFieldHint, topLevelFieldHint } from "../../core/checks/field-hint.js";
import { inputIssues } from "../../core/checks/input-checks.js";
import { endpoint } from "../../core/pipeline/endpoint.js";
import { readWithId } from "../../core/pipeline/read-body.js";
import type { TrainingJobCreateResponse } from "../training-jobs/types.js";
import { SFT_CONFIG_KEYS, SFT_JOB_KEYS, sftTrainingJobCreateParamsSchema } from "./request-schema.js";

const jobKeyHint = topLevelFieldHint(SFT_JOB_KEYS);
const configKeyHint = memberFieldHint("config", SFT_CONFIG_KEYS);

// A create is not idempotent (a second attempt makes a second job): only retried when unsent.
export const sftJobsCreate = endpoint({
  operation: "sft_training_jobs.create",
  method: "POST",
  path: "/v1/preview/sft-training-jobs",
  service: "training",
  retry: "unsent-only",
  creates: "SFT training job",
  body: {
    schema: sftTrainingJobCreateParamsSchema,
    issues: (issues: readonly $ZodIssue[]) =>
      inputIssues(issues, (key, path) => jobKeyHint(key, path) || configKeyHint(key, path)),
    // Settings newer than the SDK, sent through extraBody, join the validated ones.
    merges: ["config", "experimental_config"],
  },
  read: readWithId<TrainingJobCreateResponse>,
});
