import { shapeError } from "../../core/decoding/response-checks.js";
import { type APIResponse, readJSON } from "../../core/pipeline/http-client.js";
import { readObject } from "../../core/pipeline/read-body.js";
import type { RequestSpec } from "../../core/pipeline/request-spec.js";
import { trainableModelCreateParamsSchema, trainableModelLogParamsSchema } from "./request-schema.js";
import type { TrainableModelDeleteResponse, TrainableModelResponse } from "./types.js";

const MODEL_FIELDS = ["id", "entity", "project", "name", "base_model"] as const;

async function readModel(res: APIResponse, spec: RequestSpec): Promise<TrainableModelResponse> {
  const model = await readObject(res, spec);
  for (const key of MODEL_FIELDS)
    if (typeof model[key] !== "string" || model[key] === "")
      throw shapeError(`${spec.operation} response`, key, model[key], "a non-empty string");
  return model as TrainableModelResponse;
}

const createDeclaration = {
  method: "POST",
  path: "/v1/preview/models",
  service: "training",
  body: trainableModelCreateParamsSchema,
  read: readModel,
} as const;

export const modelsCreate = endpoint({
  ...createDeclaration,
  operation: "trainable_models.create",
  retry: "unsent-only",
  creates: "trainable model",
});

// `return_existing: true` makes the create idempotent by name: retried like a GET.
export const modelsRegister = endpoint({
  ...createDeclaration,
  operation: "trainable_models.register",
  retry: "safe",
});

export const modelsDelete = endpoint({
  operation: "trainable_models.delete",
  method: "DELETE",
  path: "/v1/preview/models/{modelId}",
  service: "training",
  retry: "safe",
  read: readObject<TrainableModelDeleteResponse>,
});

export const modelsLog = endpoint({
  operation: "trainable_models.log",
  method: "POST",
  path: "/v1/preview/models/{modelId}/log",
  service: "training",
  retry: "unsent-only",
  body: trainableModelLogParamsSchema,
  read: (res) => readJSON<unknown>(res),
});

export const baseModelsList = endpoint({
  operation: "trainable_models.base_models",
  method: "GET",
  path: "/v1/preview/base-models",
  service: "training",
  retry: "safe",
  read: async (res, spec) => {
    const body = await readJSON<unknown>(res);
    if (!Array.isArray(body) || body.some((n) => typeof n !== "string"))
      throw shapeError(`${spec.operation} response`, "", body, "an array of strings");
    return body as string[];
  },
});

import { cursorPages } from "../../core/lists/paging.js";
import { endpoint } from "../../core/pipeline/endpoint.js";
import { checkpointDeleteParamsSchema, checkpointListParamsSchema } from "./request-schema.js";
import type { Checkpoint, CheckpointDeleteResponse } from "./types.js";

export const checkpointsList = endpoint({
  operation: "trainable_models.checkpoints.list",
  method: "GET",
  path: "/v1/preview/models/{modelId}/checkpoints",
  service: "training",
  retry: "safe",
  query: checkpointListParamsSchema,
  page: cursorPages<Checkpoint>("checkpoint"),
});

// Steps already gone come back in `not_found_steps`, so a repeat is harmless: retried like a GET.
export const checkpointsDelete = endpoint({
  operation: "trainable_models.checkpoints.delete",
  method: "DELETE",
  path: "/v1/preview/models/{modelId}/checkpoints",
  service: "training",
  retry: "safe",
  body: checkpointDeleteParamsSchema,
  read: readObject<CheckpointDeleteResponse>,
});
