// `POST /v1/preview/sft-training-jobs` as W&B Training's OpenAPI ("Serverless Training" v1.0.0,
// `CreateSFTTrainingJob`, `SFTTrainingConfig`) and ART's serverless client (which also sends
// `assistant_turns`, and `metric_logging` as `{ enabled, target_training_step }`) have it.
import * as z from "zod/mini";
import { modelIdSchema } from "../model-id.js";
import { type Fields, looseObject, type SchemaOf } from "../request-shapes.js";
import { ensureZodDefaults } from "../zod-defaults.js";

ensureZodDefaults();

const metricLogging = looseObject({
  /** Log evaluation metrics during the job. */
  enabled: z.optional(z.boolean()),
  /** The training step the logged metrics are attributed to. */
  target_training_step: z.optional(z.int()),
});

const sftTrainingConfig = z.strictObject({
  /** Rows per gradient step, or `"auto"` (the server picks; ART's default). */
  batch_size: z.nullish(
    z.union([z.int(), z.literal("auto")], {
      error: 'batch_size must be a whole number of rows or "auto"',
    }),
  ),
  /** Learning rate: one value, or one per batch. ART's default is 5e-5. */
  learning_rate: z.nullish(
    z.union([z.number(), z.array(z.number())], { error: "learning_rate must be a number or a list of numbers" }),
  ),
  /** Train on every assistant turn of a row (`"all"`, ART's default) or only on the last one. */
  assistant_turns: z.optional(z.enum(["all", "last"], { error: 'assistant_turns must be "all" or "last"' })),
  /** Metric logging during the job (`{ enabled, target_training_step }` as ART sends it). */
  metric_logging: z.nullish(metricLogging),
});

/**
 * Settings of an SFT job (`config` of `client.sftTrainingJobs.create`); each absent or null
 * member means the server's default.
 */
export interface SFTTrainingConfig extends Fields<typeof sftTrainingConfig.shape> {}

/**
 * Settings of an SFT job. Strict, with a "did you mean" for a misspelt member (the server would
 * ignore it); `extraBody: { config: { ... } }` is merged into it for a setting newer than the SDK.
 */
export const sftTrainingConfigSchema: SchemaOf<SFTTrainingConfig> = sftTrainingConfig;

const sftTrainingJobCreateParams = z.strictObject({
  /** UUID of the trainable model the job fine-tunes. */
  model_id: modelIdSchema,
  /**
   * The training data: a W&B artifact holding `train.jsonl` (one `{ messages, tools? }` row per
   * line), as `wandb-artifact:///{entity}/{project}/{name}:{version}`.
   */
  training_data_url: z
    .string({ error: "training_data_url is required: the dataset artifact's URL" })
    .check(z.minLength(1, { error: "training_data_url must not be empty" })),
  /** Batch size, learning rate, which assistant turns to train, metric logging. */
  config: z.nullish(sftTrainingConfigSchema),
  /** Further settings, passed to the trainer as they are (the server takes any object). */
  experimental_config: z.nullish(z.record(z.string(), z.unknown())),
});

/**
 * Body of `client.sftTrainingJobs.create` (`POST /v1/preview/sft-training-jobs`).
 */
export interface SFTTrainingJobCreateParams extends Fields<typeof sftTrainingJobCreateParams.shape> {}

/**
 * Body of `POST /v1/preview/sft-training-jobs`: `model_id` (a UUID) and `training_data_url` are
 * required.
 */
export const sftTrainingJobCreateParamsSchema: SchemaOf<SFTTrainingJobCreateParams> = sftTrainingJobCreateParams;

/** The members of the create body and of its `config`, for "did you mean" hints. */
export const SFT_JOB_KEYS: readonly string[] = Object.keys(sftTrainingJobCreateParams.shape);
export const SFT_CONFIG_KEYS: readonly string[] = Object.keys(sftTrainingConfig.shape);
