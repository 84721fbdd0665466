/**
 * The training API's checks of a request body (FastAPI 422 issues): trajectories (shared by job
 * creation and a model's log) and a job's creation.
 */
import { anything, bool, datetime, dict, int, list, nullable, num, obj, oneOf, str, uuid } from "./validate.js";

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
const boolOrNull = { check: nullable(bool()) };

const experimentalConfigCheck = obj(
  {
    advantage_balance: numberOrNull,
    epsilon: numberOrNull,
    epsilon_high: numberOrNull,
    variant_k2_tau: numberOrNull,
    kimi_k2_tau: numberOrNull,
    learning_rate: numberOrNull,
    max_negative_advantage_importance_sampling_weight: numberOrNull,
    mask_prob_ratio: boolOrNull,
    ppo: boolOrNull,
    precalculate_logprobs: boolOrNull,
    scale_rewards: boolOrNull,
  },
  "forbid",
);

/** The check of a job's creation body. */
export const createJobCheck = obj(
  {
    model_id: { check: uuid(), required: true },
    trajectory_groups: {
      check: list(obj({ trajectories: { check: list(trajectoryCheck), required: true } }, "allow")),
      required: true,
    },
    experimental_config: { check: nullable(experimentalConfigCheck) },
  },
  "forbid",
);
