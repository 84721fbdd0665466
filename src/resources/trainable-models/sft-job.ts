// The one SFT-job call `model.trainSFT` needs, until `client.sftTrainingJobs` (issue 39, the
// training work) replaces it: create only; the job's events are the training jobs' route.
import { callEndpoint, endpoint } from "../../core/endpoint.js";
import { readJSON } from "../../core/http-client.js";
import type { HttpClient } from "../../core/http-client.js";
import type { RequestOptions } from "../../core/options.js";
import { expectObject, shapeError } from "../../core/response-shape.js";

/**
 * `POST /v1/preview/sft-training-jobs` as `model.trainSFT` sends it.
 *
 * @example
 * ```ts
 * const params: SftJobParams = { model_id: model.id, training_data_url: "wandb-artifact:///acme/sft/data:v0" };
 * ```
 */
export interface SftJobParams {
  model_id: string;
  training_data_url: string;
  config?: Record<string, unknown>;
}

// A create is not idempotent (a second attempt makes a second job): only retried when unsent.
const sftCreate = endpoint<SftJobParams, SftJobParams, { id: string }>({
  operation: "sft_training_jobs.create",
  method: "POST",
  path: "/v1/preview/sft-training-jobs",
  service: "inference",
  retry: "unsent-only",
  creates: "SFT training job",
  body: (params) => params,
  read: async (res) => {
    const body = expectObject(await readJSON<unknown>(res), "SFT training job response");
    if (typeof body.id !== "string" || body.id === "")
      throw shapeError("SFT training job response", "id", body.id, "a non-empty string");
    return body as { id: string };
  },
});

/** Creates an SFT job; resolves to its id. */
export async function createSftJob(
  http: HttpClient,
  params: SftJobParams,
  options: RequestOptions | undefined,
): Promise<string> {
  return (await callEndpoint(http, sftCreate, { params }, options)).id;
}
