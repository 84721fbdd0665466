import * as z from "zod/mini";
import { cursorAfter, cursorLimit } from "../cursor-params.js";
import { type Fields, type SchemaOf, strictObject } from "../request-shapes.js";
import { trajectoryGroupSchema } from "../training-jobs/request-schema.js";
import { ensureZodDefaults } from "../zod-defaults.js";

ensureZodDefaults();

const required = (field: string, what: string) =>
  z.string({ error: `${field} is required: ${what}` }).check(z.minLength(1, { error: `${field} must not be empty` }));
const createParams = strictObject({
  /** Team or user of the API key; the server fills it in when absent or null. */
  entity: z.nullish(z.string()),
  /** W&B project the model is stored in. */
  project: required("project", "the W&B project the model is stored in"),
  /** Name of the model, unique within the project. */
  name: required("name", "the model's name, unique within the project"),
  /** Base model id or Hugging Face path (see `client.trainableModels.baseModels()`). */
  base_model: required("base_model", "a base model id, see trainableModels.baseModels()"),
  /** Return the model of the same name if there is one instead of failing (default false). */
  return_existing: z.optional(z.boolean()),
});
/**
 * Body of `POST /v1/preview/models` (`client.trainableModels.create`).
 */
export interface TrainableModelCreateParams extends Fields<typeof createParams.shape> {}

/**
 * Body of `POST /v1/preview/models`: `project`, `name` and `base_model` are required.
 */
export const trainableModelCreateParamsSchema: SchemaOf<TrainableModelCreateParams> = createParams;

/**
 * Params of `client.trainableModels.register`: create with `return_existing: true`.
 */
export type TrainableModelRegisterParams = Omit<TrainableModelCreateParams, "return_existing">;
const logParams = strictObject({
  /** The split the trajectories belong to, e.g. `"train"` or `"val"`. */
  split: required("split", 'e.g. "train" or "val"'),
  /** The trajectory groups to log, in the shape `trainingJobs.create` takes. */
  trajectory_groups: z.array(trajectoryGroupSchema),
});
/**
 * Body of `POST /v1/preview/models/{model_id}/log`.
 */
export interface TrainableModelLogParams extends Fields<typeof logParams.shape> {}

/**
 * Body of `POST /v1/preview/models/{model_id}/log`.
 */
export const trainableModelLogParamsSchema: SchemaOf<TrainableModelLogParams> = logParams;
const checkpointListParams = strictObject({
  /** `asc` (the server's default: oldest step first) or `desc`. */
  order: z.optional(z.enum(["asc", "desc"], { error: 'order must be "asc" or "desc"' })),
  /** Items per page, 1-100 (server default 20). */
  limit: cursorLimit,
  /** Start after the checkpoint with this id. */
  after: cursorAfter,
});
/**
 * Query of `GET /v1/preview/models/{model_id}/checkpoints`.
 */
export interface CheckpointListParams extends Fields<typeof checkpointListParams.shape> {}

/**
 * Query of `GET /v1/preview/models/{model_id}/checkpoints`: `limit` 1-100, `order` `asc|desc`.
 */
export const checkpointListParamsSchema: SchemaOf<CheckpointListParams> = checkpointListParams;
const checkpointDeleteParams = strictObject({
  /** The steps to delete (integers). */
  steps: z.array(
    z.number({ error: "each step must be an integer" }).check(z.int({ error: "each step must be an integer" })),
  ),
});
/**
 * Body of `DELETE /v1/preview/models/{model_id}/checkpoints`.
 */
export interface CheckpointDeleteParams extends Fields<typeof checkpointDeleteParams.shape> {}

/**
 * Body of `DELETE /v1/preview/models/{model_id}/checkpoints`: `steps` are integers.
 */
export const checkpointDeleteParamsSchema: SchemaOf<CheckpointDeleteParams> = checkpointDeleteParams;
