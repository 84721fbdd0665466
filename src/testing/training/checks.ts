/**
 * The training API's checks of a request body (FastAPI 422 issues): trajectories (shared by job
 * creation and a model's log), a job's creation (RL and SFT), a model's registration and the
 * deletion of checkpoints.
 */
import {
  anything,
  bool,
  datetime,
  dict,
  int,
  list,
  literal,
  nullable,
  num,
  obj,
  oneOf,
  str,
  uuid,
} from "../validate.js";

const toolCheck = obj(
  {
    type: { check: str(), required: true },
    function: {
      check: obj(
        {
          name: { check: str(), required: true },
          description: { check: nullable(str()) },
          parameters: { check: nullable(dict()) },
          strict: { check: nullable(bool()) },
        },
        "allow",
      ),
      required: true,
    },
  },
  "allow",
);

const historyCheck = obj(
  { messages_and_choices: { check: list(anything()), required: true }, tools: { check: nullable(list(toolCheck)) } },
  "allow",
);

/**
 * The check of one trajectory (shared with the log route).
 */
export const trajectoryCheck = obj(
  {
    messages_and_choices: { check: list(dict()), required: true },
    tools: { check: nullable(list(toolCheck)) },
    additional_histories: { check: nullable(list(historyCheck)) },
    reward: { check: num() },
    initial_policy_version: { check: nullable(int()) },
    final_policy_version: { check: nullable(int()) },
    metrics: { check: nullable(dict(oneOf(num(), bool()))) },
    metadata: { check: nullable(dict(oneOf(nullable(str()), num(), bool()))) },
    logs: { check: nullable(list(str())) },
    start_time: { check: nullable(datetime()) },
  },
  "allow",
);

const numberOrNull = { check: nullable(num()) };
const intOrNull = { check: nullable(int()) };
const boolOrNull = { check: nullable(bool()) };
const choice = (values: readonly string[]) => ({ check: nullable(literal(values)) });

/**
 * `ExperimentalTrainingConfig` of W&B Training's OpenAPI ("Serverless Training" v1.0.0): 25
 * nullable members, no `additionalProperties: false`, so pydantic ignores a member it does not
 * know (ART's `variant_k2_tau` spelling included) rather than refusing it.
 */
export const experimentalConfigCheck = obj(
  {
    advantage_balance: numberOrNull,
    allow_training_without_logprobs: boolOrNull,
    epsilon: numberOrNull,
    epsilon_high: numberOrNull,
    importance_sampling_level: choice(["token", "sequence", "average", "geometric_average"]),
    kimi_k2_tau: numberOrNull,
    kl_penalty_coef: numberOrNull,
    kl_penalty_reference_step: intOrNull,
    kl_penalty_source: choice(["current_learner", "sample"]),
    kl_penalty_step_lag: intOrNull,
    kl_ref_adapter_path: { check: nullable(str()) },
    learning_rate: numberOrNull,
    logprob_calculation_chunk_size: intOrNull,
    loss_fn: choice(["cispo", "ppo"]),
    mask_prob_ratio: boolOrNull,
    max_negative_advantage_importance_sampling_weight: numberOrNull,
    normalize_advantages: boolOrNull,
    num_trajectories_learning_rate_multiplier_power: numberOrNull,
    packed_sequence_length: intOrNull,
    plot_tensors: boolOrNull,
    ppo: boolOrNull,
    precalculate_logprobs: boolOrNull,
    scale_learning_rate_by_reward_std_dev: boolOrNull,
    scale_rewards: boolOrNull,
    truncated_importance_sampling: numberOrNull,
  },
  "allow",
);

/** Groups of trajectories, as a job trains on them and a model's log takes them. */
const trajectoryGroupsCheck = list(obj({ trajectories: { check: list(trajectoryCheck), required: true } }, "allow"));

/** The check of a job's creation body (`CreateTrainingJob`: unknown members are ignored). */
export const createJobCheck = obj(
  {
    model_id: { check: uuid(), required: true },
    trajectory_groups: { check: trajectoryGroupsCheck, required: true },
    experimental_config: { check: nullable(experimentalConfigCheck) },
  },
  "allow",
);

/**
 * The check of an SFT job's creation body (`CreateSFTTrainingJob` and `SFTTrainingConfig`:
 * unknown members ignored; ART's `assistant_turns` is not in the schema, so it passes unchecked).
 */
export const createSftJobCheck = obj(
  {
    model_id: { check: uuid(), required: true },
    training_data_url: { check: str(), required: true },
    config: {
      check: nullable(
        obj(
          {
            batch_size: { check: nullable(oneOf(int(), literal(["auto"]))) },
            learning_rate: { check: nullable(oneOf(num(), list(num()))) },
            metric_logging: { check: nullable(dict()) },
          },
          "allow",
        ),
      ),
    },
    experimental_config: { check: nullable(dict()) },
  },
  "allow",
);

/** The check of `POST /v1/preview/models` (register a trainable model). */
export const createModelCheck = obj(
  {
    entity: { check: nullable(str()) },
    project: { check: str(), required: true },
    name: { check: str(), required: true },
    base_model: { check: str(), required: true },
    return_existing: { check: bool() },
  },
  "forbid",
);

/** The check of `POST /v1/preview/models/{model_id}/log` (trajectories logged, not trained). */
export const logCheck = obj(
  {
    split: { check: str(), required: true },
    trajectory_groups: { check: trajectoryGroupsCheck, required: true },
  },
  "forbid",
);

/** The check of `DELETE /v1/preview/models/{model_id}/checkpoints`. */
export const deleteStepsCheck = obj({ steps: { check: list(int()), required: true } }, "forbid");
