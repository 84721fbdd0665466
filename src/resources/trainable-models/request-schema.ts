import * as z from "zod/mini";
import { trajectoryGroupSchema } from "../training-jobs/request-schema.js";
import type { Agrees, Check, SchemaOf } from "../schema-agreement.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import type {
  CheckpointDeleteParams,
  CheckpointListParams,
  TrainableModelCreateParams,
  TrainableModelLogParams,
  TrainingJobEventListParams,
} from "./request-types.js";

export type * from "./request-types.js";

ensureZodDefaults();

const required = (field: string, what: string) =>
  z.string({ error: `${field} is required: ${what}` }).check(z.minLength(1, { error: `${field} must not be empty` }));

const createParams = z.strictObject({
  entity: z.nullish(z.string()),
  project: required("project", "the W&B project the model is stored in"),
  name: required("name", "the model's name, unique within the project"),
  base_model: required("base_model", "a base model id, see trainableModels.baseModels()"),
  return_existing: z.optional(z.boolean()),
});
/**
 * Body of `POST /v1/preview/models`: `project`, `name` and `base_model` are required.
 *
 * @example
 * ```ts
 * trainableModelCreateParamsSchema.parse({ project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" });
 * ```
 */
export const trainableModelCreateParamsSchema: SchemaOf<TrainableModelCreateParams> = createParams;

const logParams = z.strictObject({
  split: required("split", 'e.g. "train" or "val"'),
  trajectory_groups: z.array(trajectoryGroupSchema),
});
/**
 * Body of `POST /v1/preview/models/{model_id}/log`.
 *
 * @example
 * ```ts
 * trainableModelLogParamsSchema.parse({ split: "val", trajectory_groups: [] });
 * ```
 */
export const trainableModelLogParamsSchema: SchemaOf<TrainableModelLogParams> = logParams;

const limit = z.optional(
  z
    .number({ error: "limit must be an integer from 1 to 100" })
    .check(
      z.int({ error: "limit must be an integer from 1 to 100" }),
      z.gte(1, { error: "limit must be at least 1" }),
      z.lte(100, { error: "limit must be at most 100 (the server's maximum page)" }),
    ),
);
const after = z.optional(z.string().check(z.minLength(1, { error: "after must be a non-empty id" })));

const checkpointListParams = z.strictObject({
  order: z.optional(z.enum(["asc", "desc"], { error: 'order must be "asc" or "desc"' })),
  limit,
  after,
});
/**
 * Query of `GET /v1/preview/models/{model_id}/checkpoints`: `limit` 1-100, `order` `asc|desc`.
 *
 * @example
 * ```ts
 * checkpointListParamsSchema.parse({ order: "desc", limit: 1 });
 * ```
 */
export const checkpointListParamsSchema: SchemaOf<CheckpointListParams> = checkpointListParams;

const checkpointDeleteParams = z.strictObject({
  steps: z.array(
    z.number({ error: "each step must be an integer" }).check(z.int({ error: "each step must be an integer" })),
  ),
});
/**
 * Body of `DELETE /v1/preview/models/{model_id}/checkpoints`: `steps` are integers.
 *
 * @example
 * ```ts
 * checkpointDeleteParamsSchema.parse({ steps: [1, 2] });
 * ```
 */
export const checkpointDeleteParamsSchema: SchemaOf<CheckpointDeleteParams> = checkpointDeleteParams;

const eventListParams = z.strictObject({ after, limit });
/**
 * Query of `GET /v1/preview/training-jobs/{id}/events`: `limit` 1-100.
 *
 * @example
 * ```ts
 * trainingJobEventListParamsSchema.parse({ limit: 100 });
 * ```
 */
export const trainingJobEventListParamsSchema: SchemaOf<TrainingJobEventListParams> = eventListParams;

// Compile-time: each schema accepts exactly what its named type describes.
type _Agreement = Check<
  [
    Agrees<z.input<typeof createParams>, TrainableModelCreateParams>,
    Agrees<z.input<typeof logParams>, TrainableModelLogParams>,
    Agrees<z.input<typeof checkpointListParams>, CheckpointListParams>,
    Agrees<z.input<typeof checkpointDeleteParams>, CheckpointDeleteParams>,
    Agrees<z.input<typeof eventListParams>, TrainingJobEventListParams>,
  ]
>;
