/**
 * One table of the W&B Training API's wire shapes and request rules (from its published OpenAPI
 * spec, "Serverless Training" v1.0.0, `wandb/docs` `serverless-training/api-reference/openapi.json`,
 * and OpenPipe ART's `ServerlessBackend`, which consumes the events), written as short rows and
 * given in the shared row format (`request-case.ts`) as {@link TRAINING_REQUEST_CASES}: the
 * request-case runners send them through the SDK (refused before sending, or sent as written)
 * and to the fake (422 in FastAPI's `detail` envelope, or 200). The example responses
 * ({@link TRAINING_API_SHAPES}) are read by `tests/wire/training-api-shapes.test.ts` and
 * matched by the fake in `tests/testing/training-api-shapes.test.ts`.
 */
import type { Inferloop } from "../../src/index.js";
import type { ExperimentalConfig } from "../../src/wire/training-jobs/request-schema.js";
import type { RequestCase } from "./request-case.js";

/** The operation a row exercises, by its short name in the rows below. */
type TrainingOperation =
  | "createModel"
  | "listCheckpoints"
  | "deleteCheckpoints"
  | "listEvents"
  | "log"
  | "createJob"
  | "createSftJob";

interface TrainingRow {
  name: string;
  operation: TrainingOperation;
  /**
   * The body (createModel, deleteCheckpoints, log), the query parameters (lists), the
   * `experimental_config` (createJob: sent with {@link JOB_GROUPS}), or the SFT job's body
   * without `model_id` (createSftJob).
   */
  request: Record<string, unknown>;
  real: "accepted" | "refused";
  /**
   * The field the SDK names when it refuses the row before sending: every row the server
   * refuses, and the rows the server takes but the SDK refuses on purpose (the server ignores a
   * member it does not know, so a misspelt setting would train with the default; a job without
   * logprobs would train nothing).
   */
  sdkRefuses?: string;
  /** createJob: sent with {@link GROUPS_WITHOUT_LOGPROBS} instead of {@link JOB_GROUPS}. */
  noLogprobs?: true;
  /** The codes of the warnings the SDK emits as it sends the row. */
  sdkWarns?: string[];
  why: string;
}

const c = (
  operation: TrainingOperation,
  real: TrainingRow["real"],
  name: string,
  request: Record<string, unknown>,
  why: string,
  sdkRefuses?: string,
): TrainingRow => ({ operation, real, name, request, why, ...(sdkRefuses ? { sdkRefuses } : {}) });

/** The trajectory groups of a createJob case: one choice with logprobs, one without. */
export const JOB_GROUPS = [
  {
    trajectories: [
      {
        messages_and_choices: [
          { role: "user", content: "2+2?" },
          {
            finish_reason: "stop",
            index: 0,
            logprobs: { content: [{ token: "4", logprob: -0.1, bytes: [52], top_logprobs: [] }] },
            message: { role: "assistant", content: "4" },
          },
        ],
        reward: 1,
      },
      {
        messages_and_choices: [
          { role: "user", content: "2+2?" },
          { finish_reason: "stop", index: 0, message: { role: "assistant", content: "5" } },
        ],
        reward: 0,
      },
    ],
  },
];

/** Trajectory groups none of whose choices carries logprobs. */
export const GROUPS_WITHOUT_LOGPROBS = [
  {
    trajectories: [
      {
        messages_and_choices: [
          { role: "user", content: "2+2?" },
          { finish_reason: "stop", index: 0, message: { role: "assistant", content: "4" } },
        ],
        reward: 1,
      },
    ],
  },
];

// Sources: ECFG = `ExperimentalTrainingConfig` and SFT = `CreateSFTTrainingJob` /
// `SFTTrainingConfig` of W&B's OpenAPI ("Serverless Training" v1.0.0, wandb/docs
// serverless-training/api-reference/openapi.json @ 0a8cf77c): members nullable, enums as
// listed, no `additionalProperties: false` (pydantic ignores unknown members). ART =
// OpenPipe/ART src/art/serverless/client.py @ 029b7a28 (what ART sends); TOK = ART
// src/art/preprocessing/tokenize.py (a choice is trained only with logprobs unless
// allow_training_without_logprobs).
/** Every current setting of `experimental_config` (25), each with a value the server takes. */
export const EVERY_SETTING = {
  advantage_balance: 0.1,
  allow_training_without_logprobs: false,
  epsilon: 0.2,
  epsilon_high: 0.28,
  importance_sampling_level: "sequence",
  kimi_k2_tau: 0.5,
  kl_penalty_coef: 0.1,
  kl_penalty_reference_step: 2,
  kl_penalty_source: "sample",
  kl_penalty_step_lag: null,
  kl_ref_adapter_path: "/tmp/ref-adapter",
  learning_rate: 2e-5,
  logprob_calculation_chunk_size: 512,
  loss_fn: "ppo",
  mask_prob_ratio: false,
  max_negative_advantage_importance_sampling_weight: 2,
  normalize_advantages: false,
  num_trajectories_learning_rate_multiplier_power: 0.5,
  packed_sequence_length: 4096,
  plot_tensors: true,
  ppo: true,
  precalculate_logprobs: false,
  scale_learning_rate_by_reward_std_dev: true,
  scale_rewards: false,
  truncated_importance_sampling: 2,
} as const satisfies ExperimentalConfig;
/** The dataset SFT rows name: the fake refuses an SFT job whose dataset artifact it does not hold. */
const DATA = "wandb-artifact:///acme/rl/agent-data:v0";

const model = { project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" };

const TRAINING_ROWS: TrainingRow[] = [
  c("createModel", "accepted", "the required fields", model, "ModelCreate requires project, name, base_model"),
  c("createModel", "accepted", "entity null", { ...model, entity: null }, "entity: string | null"),
  c("createModel", "accepted", "return_existing true", { ...model, return_existing: true }, "return_existing: bool"),
  c(
    "createModel",
    "refused",
    "no project",
    { name: "a", base_model: model.base_model },
    "project is required",
    "project",
  ),
  c("createModel", "refused", "no name", { project: "rl", base_model: model.base_model }, "name is required", "name"),
  c("createModel", "refused", "no base_model", { project: "rl", name: "a" }, "base_model is required", "base_model"),
  c("createModel", "refused", "project a number", { ...model, project: 7 }, "project: string", "project"),
  c(
    "createModel",
    "refused",
    "return_existing a string",
    { ...model, return_existing: "yes" },
    "bool",
    "return_existing",
  ),
  c("listCheckpoints", "accepted", "no parameters", {}, "limit 20, order asc by default"),
  c("listCheckpoints", "accepted", "limit 1, desc", { limit: 1, order: "desc" }, "ART's get_step query"),
  c("listCheckpoints", "accepted", "limit 100", { limit: 100 }, "limit maximum 100"),
  c("listCheckpoints", "refused", "limit 0", { limit: 0 }, "limit minimum 1", "limit"),
  c("listCheckpoints", "refused", "limit 101", { limit: 101 }, "limit maximum 100", "limit"),
  c("listCheckpoints", "refused", "limit 2.5", { limit: 2.5 }, "limit: integer", "limit"),
  c("listCheckpoints", "refused", "order newest", { order: "newest" }, "order: asc | desc", "order"),
  c("listEvents", "accepted", "no parameters", {}, "limit 20 by default"),
  c("listEvents", "accepted", "limit 100", { limit: 100 }, "limit maximum 100"),
  c("listEvents", "refused", "limit 0", { limit: 0 }, "limit minimum 1", "limit"),
  c("listEvents", "refused", "limit 101", { limit: 101 }, "limit maximum 100", "limit"),
  c("deleteCheckpoints", "accepted", "two steps", { steps: [1, 2] }, "steps: int[]"),
  c("deleteCheckpoints", "accepted", "no steps", { steps: [] }, "an empty list is a list"),
  c("deleteCheckpoints", "refused", "a fractional step", { steps: [1.5] }, "steps: int[]", "steps.0"),
  c("deleteCheckpoints", "refused", "steps not a list", { steps: 1 }, "steps: int[]", "steps"),
  c("deleteCheckpoints", "refused", "no steps", {}, "steps is required", "steps"),
  c("log", "accepted", "split and groups", { split: "val", trajectory_groups: [] }, "LogRequest"),
  c("log", "refused", "no split", { trajectory_groups: [] }, "split is required", "split"),
  c("log", "refused", "no trajectory_groups", { split: "val" }, "trajectory_groups is required", "trajectory_groups"),
  {
    ...c("createJob", "accepted", "every current setting", EVERY_SETTING, "ECFG's 25 members, as ART sends them"),
    sdkWarns: ["INFERLOOP_MISSING_LOGPROBS"],
  },
  c(
    "createJob",
    "accepted",
    "every member null",
    { learning_rate: null, loss_fn: null, kl_penalty_source: null },
    "ECFG: all nullable",
  ),
  ...["token", "sequence", "average", "geometric_average"].map((level) =>
    c("createJob", "accepted", `importance_sampling_level ${level}`, { importance_sampling_level: level }, "ECFG enum"),
  ),
  c(
    "createJob",
    "accepted",
    "kl_penalty_source current_learner",
    { kl_penalty_source: "current_learner" },
    "ECFG enum",
  ),
  {
    ...c(
      "createJob",
      "accepted",
      "the spec's variant_k2_tau",
      { variant_k2_tau: 0.5 },
      "ignored by the server, sent as written",
    ),
    sdkWarns: ["INFERLOOP_IGNORED_SETTING"],
  },
  c(
    "createJob",
    "refused",
    "loss_fn grpo",
    { loss_fn: "grpo" },
    "ECFG: loss_fn is cispo | ppo",
    "experimental_config.loss_fn",
  ),
  c(
    "createJob",
    "refused",
    "importance_sampling_level tokens",
    { importance_sampling_level: "tokens" },
    "ECFG enum",
    "experimental_config.importance_sampling_level",
  ),
  c(
    "createJob",
    "refused",
    "kl_penalty_source reference",
    { kl_penalty_source: "reference" },
    "ECFG enum",
    "experimental_config.kl_penalty_source",
  ),
  c(
    "createJob",
    "refused",
    "a fractional packed_sequence_length",
    { packed_sequence_length: 4096.5 },
    "ECFG: integer",
    "experimental_config.packed_sequence_length",
  ),
  c(
    "createJob",
    "refused",
    "a fractional kl_penalty_step_lag",
    { kl_penalty_step_lag: 1.5 },
    "ECFG: integer",
    "experimental_config.kl_penalty_step_lag",
  ),
  c(
    "createJob",
    "refused",
    "ppo 2",
    { ppo: 2 },
    "ECFG: boolean (pydantic takes 0 and 1 only)",
    "experimental_config.ppo",
  ),
  c(
    "createJob",
    "refused",
    "kl_ref_adapter_path a number",
    { kl_ref_adapter_path: 5 },
    "ECFG: string",
    "experimental_config.kl_ref_adapter_path",
  ),
  c(
    "createJob",
    "accepted",
    "a misspelt setting (kl_penalty_coeff)",
    { kl_penalty_coeff: 0.1 },
    "ECFG has no additionalProperties: false, so the server ignores it and trains with the default",
    "experimental_config.kl_penalty_coeff",
  ),
  {
    ...c(
      "createJob",
      "accepted",
      "no choice carries logprobs",
      {},
      "TOK: every choice is dropped, nothing trains",
      "trajectory_groups",
    ),
    noLogprobs: true,
  },
  {
    ...c(
      "createJob",
      "accepted",
      "no choice carries logprobs, precalculate_logprobs alone",
      { precalculate_logprobs: true },
      "TOK drops them before the trainer recomputes logprobs (ART unsloth/train.py): nothing trains",
      "trajectory_groups",
    ),
    noLogprobs: true,
  },
  {
    ...c(
      "createJob",
      "accepted",
      "no choice carries logprobs, allow_training_without_logprobs",
      { allow_training_without_logprobs: true },
      "TOK: the choices are trained, with NaN logprobs",
    ),
    noLogprobs: true,
    sdkWarns: ["INFERLOOP_UNIFORM_REWARDS"],
  },
  c("createSftJob", "accepted", "the required fields", { training_data_url: DATA }, "SFT: model_id, training_data_url"),
  c("createSftJob", "accepted", "config null", { training_data_url: DATA, config: null }, "SFT: config nullable"),
  c(
    "createSftJob",
    "accepted",
    "every config member",
    {
      training_data_url: DATA,
      config: {
        batch_size: 8,
        learning_rate: [1e-4, 5e-5],
        assistant_turns: "last",
        metric_logging: { enabled: true, target_training_step: 3 },
      },
      experimental_config: { anything: 1 },
    },
    "SFT + ART's assistant_turns and SFTMetricLoggingConfig",
  ),
  c(
    "createSftJob",
    "accepted",
    'batch_size "auto"',
    { training_data_url: DATA, config: { batch_size: "auto" } },
    'SFT: int | "auto"',
  ),
  c(
    "createSftJob",
    "accepted",
    "one learning_rate",
    { training_data_url: DATA, config: { learning_rate: 5e-5 } },
    "SFT",
  ),
  c("createSftJob", "refused", "no training_data_url", {}, "SFT: training_data_url is required", "training_data_url"),
  c(
    "createSftJob",
    "refused",
    "training_data_url a number",
    { training_data_url: 7 },
    "SFT: string",
    "training_data_url",
  ),
  c(
    "createSftJob",
    "refused",
    'batch_size "big"',
    { training_data_url: DATA, config: { batch_size: "big" } },
    "SFT",
    "config.batch_size",
  ),
  c(
    "createSftJob",
    "refused",
    "a fractional batch_size",
    { training_data_url: DATA, config: { batch_size: 2.5 } },
    "SFT",
    "config.batch_size",
  ),
  c(
    "createSftJob",
    "refused",
    'learning_rate "fast"',
    { training_data_url: DATA, config: { learning_rate: "fast" } },
    "SFT",
    "config.learning_rate",
  ),
  c(
    "createSftJob",
    "refused",
    "learning_rate [true]",
    { training_data_url: DATA, config: { learning_rate: [true] } },
    "SFT",
    "config.learning_rate.0",
  ),
  c(
    "createSftJob",
    "refused",
    "metric_logging a string",
    { training_data_url: DATA, config: { metric_logging: "on" } },
    "SFT",
    "config.metric_logging",
  ),
  c(
    "createSftJob",
    "refused",
    "experimental_config a list",
    { training_data_url: DATA, experimental_config: [] },
    "SFT: object",
    "experimental_config",
  ),
  c(
    "createSftJob",
    "accepted",
    'assistant_turns "first"',
    { training_data_url: DATA, config: { assistant_turns: "first" } },
    "SFT has no assistant_turns (ignored); ART's is all | last",
    "config.assistant_turns",
  ),
  c(
    "createSftJob",
    "accepted",
    "a misspelt config member (batchsize)",
    { training_data_url: DATA, config: { batchsize: 8 } },
    "SFTTrainingConfig ignores it: the job would run with the default batch size",
    "config.batchsize",
  ),
];

/** Example responses in the spec's shapes (ids are UUIDs or opaque strings). */
export const TRAINING_API_SHAPES = {
  model: {
    id: "0f8fad5b-d9cb-469f-a165-70867728950e",
    entity: "acme",
    project: "rl",
    name: "agent",
    base_model: "OpenPipe/Qwen3-14B-Instruct",
    run_id: "run-1",
  },
  checkpoint: { id: "7c9e6679-7425-40de-944b-e07fc1f90ae7", step: 1, metrics: { loss: 0.5 } },
  page: { object: "list", data: [] as unknown[], first_id: "", last_id: "", has_more: false },
  deleteCheckpoints: { deleted_count: 1, not_found_steps: [9] },
  deleteModel: { model_id: "0f8fad5b-d9cb-469f-a165-70867728950e", deleted_checkpoints: 2, deleted_run: true },
  job: { id: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b" },
  events: [
    { id: "e1", type: "training_started", data: { num_sequences: 2 } },
    { id: "e2", type: "gradient_step", data: { loss: 0.6, reward: 0.5 } },
    { id: "e3", type: "gradient_step", data: { loss: 0.4, reward: 0.7 } },
    { id: "e4", type: "training_ended", data: {} },
  ],
  failedEvent: { id: "e9", type: "training_failed", data: { error_message: "out of memory" } },
  validationError: {
    detail: [{ loc: ["query", "limit"], msg: "Input should be less than or equal to 100", type: "less_than_equal" }],
  },
  baseModels: ["OpenPipe/Qwen3-14B-Instruct", "Qwen/Qwen3-30B-A3B-Instruct-2507"],
};

const SPEC = "wandb/docs serverless-training/api-reference/openapi.json (with ART's, where the rule says)";
const MODEL_ID = TRAINING_API_SHAPES.model.id;
const JOB_ID = TRAINING_API_SHAPES.job.id;

/** Makes a model on a fresh fake; the rows' {@link MODEL_ID} stands for its id. */
async function aModel(fake: Inferloop): Promise<Record<string, string>> {
  const created = await fake.trainableModels.create({ project: "rl", name: "agent", base_model: model.base_model });
  return { [MODEL_ID]: created.id };
}

/** Makes a model and a job of it; the rows' {@link JOB_ID} stands for the job's id. */
async function aJob(fake: Inferloop): Promise<Record<string, string>> {
  const ids = await aModel(fake);
  // Both choices with logprobs and rewards apart, so the SDK has nothing to warn of.
  const taught = JOB_GROUPS[0]!.trajectories[0]!;
  const trajectory_groups = [{ trajectories: [taught, { ...taught, reward: 0 }] }];
  const job = await fake.trainingJobs.create({
    model_id: ids[MODEL_ID]!,
    trajectory_groups: trajectory_groups as never,
  });
  return { ...ids, [JOB_ID]: job.id };
}

/** Makes a model and the dataset SFT rows train on ({@link DATA}). */
async function aModelAndDataset(fake: Inferloop): Promise<Record<string, string>> {
  const row = {
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ],
  };
  await fake.artifacts.upload({
    entity: "acme",
    project: "rl",
    name: "agent-data",
    type: "dataset",
    files: [{ name: "train.jsonl", data: `${JSON.stringify(row)}\n` }],
  });
  return aModel(fake);
}

interface Declared {
  operation: string;
  params: (row: TrainingRow) => Record<string, unknown>;
  pathArguments?: Record<string, string>;
  given?: RequestCase["given"];
}

/** An operation on the model `{modelId}` whose params are the row's request. */
const onModel = (operation: string): Declared => ({
  operation,
  params: (r) => r.request,
  pathArguments: { modelId: MODEL_ID },
  given: aModel,
});

/** Each short operation's declared one, its complete params, its path and what the fake must hold first. */
const DECLARED: Record<TrainingOperation, Declared> = {
  createModel: { operation: "trainable_models.create", params: (r) => r.request },
  listCheckpoints: onModel("trainable_models.checkpoints.list"),
  deleteCheckpoints: onModel("trainable_models.checkpoints.delete"),
  listEvents: {
    operation: "training_jobs.events.list",
    params: (r) => r.request,
    pathArguments: { jobId: JOB_ID },
    given: aJob,
  },
  log: onModel("trainable_models.log"),
  createJob: {
    operation: "training_jobs.create",
    params: (r) => ({
      model_id: MODEL_ID,
      trajectory_groups: r.noLogprobs ? GROUPS_WITHOUT_LOGPROBS : JOB_GROUPS,
      experimental_config: r.request,
    }),
    given: aModel,
  },
  createSftJob: {
    operation: "sft_training_jobs.create",
    params: (r) => ({ model_id: MODEL_ID, ...r.request }),
    given: aModelAndDataset,
  },
};

/** The training rows in the shared row format (`request-case.ts`). */
export const TRAINING_REQUEST_CASES: readonly RequestCase[] = TRAINING_ROWS.map((r) => {
  const d = DECLARED[r.operation];
  if (r.real === "refused" && r.sdkRefuses === undefined) throw new Error(`${r.name}: name the field the SDK refuses`);
  return {
    name: r.name,
    operation: d.operation,
    params: d.params(r),
    ...(d.pathArguments ? { pathArguments: d.pathArguments } : {}),
    real: r.real === "accepted" ? { accepted: true } : { status: 422 },
    sdk: r.sdkRefuses === undefined ? "sends" : { refuses: r.sdkRefuses },
    ...(r.sdkWarns ? { sdkWarns: r.sdkWarns } : {}),
    ...(d.given ? { given: d.given } : {}),
    source: SPEC,
    why: r.why,
  };
});

/** The JSON type of every member, recursively for objects (arrays by their first item): what "the same shape" means. */
export function shapeOf(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "array" : ["array", shapeOf(value[0])];
  if (typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, shapeOf(v)]),
    );
  return typeof value;
}
