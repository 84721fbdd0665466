import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type ExperimentalConfig,
  experimentalConfigSchema,
  type TrainingJobCreateParams,
  type TrainingJobCreateResponse,
  type TrajectoryGroup,
  type TrajectoryParams,
  trainingJobCreateParamsSchema,
  trajectoryGroupSchema,
  trajectorySchema,
} from "../../../src/wire/training-jobs/index.js";

const model_id = "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b";

const choice = {
  finish_reason: "stop",
  index: 0,
  logprobs: {
    content: [
      {
        token: "4",
        logprob: -0.012,
        bytes: [52],
        top_logprobs: [
          { token: "4", logprob: -0.012, bytes: [52] },
          { token: "four", logprob: -4.5, bytes: null },
        ],
      },
    ],
    refusal: null,
  },
  message: { role: "assistant" as const, content: "4", refusal: null, tool_calls: null },
};

const fullTrajectory: TrajectoryParams = {
  messages_and_choices: [
    { role: "system", content: "Answer with a number." },
    { role: "user", content: [{ type: "text", text: "What is 2+2?" }] },
    choice,
    { role: "tool", content: "4", tool_call_id: "call_1" },
  ],
  tools: [
    {
      type: "function",
      function: {
        name: "add",
        description: "Adds two numbers",
        parameters: { type: "object", properties: {} },
        strict: true,
      },
    },
  ],
  additional_histories: [{ messages_and_choices: [{ role: "user", content: "again" }, choice], tools: null }],
  reward: 0.75,
  initial_policy_version: 3,
  final_policy_version: null,
  metrics: { correct: true, latency_s: 0.41, turns: 2 },
  metadata: { scenario: "arith-17", difficulty: 2, synthetic: false, note: null },
  logs: ["sampled at T=1.0"],
  start_time: "2025-03-18T17:04:12.345000Z",
};

const fullConfig: ExperimentalConfig = {
  advantage_balance: -0.5,
  epsilon: 0.2,
  epsilon_high: 0.28,
  variant_k2_tau: 0.1,
  kimi_k2_tau: 0.1,
  learning_rate: 5e-6,
  max_negative_advantage_importance_sampling_weight: 2,
  mask_prob_ratio: false,
  ppo: true,
  precalculate_logprobs: false,
  scale_rewards: true,
};

describe("trainingJobCreateParamsSchema: valid bodies pass unchanged", () => {
  const valid: Array<[string, TrainingJobCreateParams]> = [
    ["minimal", { model_id, trajectory_groups: [] }],
    [
      "one trajectory with only messages",
      { model_id, trajectory_groups: [{ trajectories: [{ messages_and_choices: [] }] }] },
    ],
    [
      "every trajectory field",
      { model_id, trajectory_groups: [{ trajectories: [fullTrajectory, { ...fullTrajectory, reward: -1 }] }] },
    ],
    [
      "group with the ART members and an extra one",
      {
        model_id,
        trajectory_groups: [
          {
            trajectories: [fullTrajectory],
            exceptions: [{ type: "TimeoutError", message: "rollout timed out", traceback: "..." }],
            metadata: { prompt_id: 17 },
            metrics: { pass_rate: 0.5 },
            logs: ["group 17"],
            extra_from_newer_art: true,
          },
        ],
      },
    ],
    ["every experimental_config member", { model_id, trajectory_groups: [], experimental_config: fullConfig }],
    [
      "experimental_config all null",
      {
        model_id,
        trajectory_groups: [],
        experimental_config: Object.fromEntries(Object.keys(fullConfig).map((key) => [key, null])),
      },
    ],
    ["empty experimental_config", { model_id, trajectory_groups: [], experimental_config: {} }],
    ["upper-case UUID", { model_id: model_id.toUpperCase(), trajectory_groups: [] }],
    ["UUIDv7", { model_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01", trajectory_groups: [] }],
    ["UUID without RFC version digits", { model_id: "00000000-0000-0000-0000-000000000001", trajectory_groups: [] }],
    [
      "start_time with an offset",
      {
        model_id,
        trajectory_groups: [{ trajectories: [{ messages_and_choices: [], start_time: "2025-03-18T19:04:12+02:00" }] }],
      },
    ],
    [
      "choice without logprobs",
      {
        model_id,
        trajectory_groups: [{ trajectories: [{ messages_and_choices: [{ ...choice, logprobs: null }] }] }],
      },
    ],
  ];

  it.each(valid)("%s", (_name, input) => {
    const result = trainingJobCreateParamsSchema.safeParse(input);
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toStrictEqual(input);
  });
});

describe("trainingJobCreateParamsSchema: invalid bodies are refused at the right path", () => {
  const withTrajectory = (patch: Record<string, unknown>) => ({
    model_id,
    trajectory_groups: [{ trajectories: [{ messages_and_choices: [], ...patch }] }],
  });
  const T = ["trajectory_groups", 0, "trajectories", 0];
  const invalid: Array<[string, unknown, PropertyKey[]]> = [
    ["missing model_id", { trajectory_groups: [] }, ["model_id"]],
    ["non-UUID model_id", { model_id: "my-model", trajectory_groups: [] }, ["model_id"]],
    ["UUID without dashes", { model_id: model_id.replaceAll("-", ""), trajectory_groups: [] }, ["model_id"]],
    ["UUID in braces", { model_id: `{${model_id}}`, trajectory_groups: [] }, ["model_id"]],
    ["UUID with a non-hex digit", { model_id: model_id.replace("3f", "3g"), trajectory_groups: [] }, ["model_id"]],
    ["missing trajectory_groups", { model_id }, ["trajectory_groups"]],
    ["trajectory_groups not an array", { model_id, trajectory_groups: {} }, ["trajectory_groups"]],
    ["unknown top-level key", { model_id, trajectory_groups: [], split: "train" }, []],
    ["group without trajectories", { model_id, trajectory_groups: [{}] }, ["trajectory_groups", 0, "trajectories"]],
    [
      "trajectory without messages_and_choices",
      { model_id, trajectory_groups: [{ trajectories: [{ reward: 1 }] }] },
      [...T, "messages_and_choices"],
    ],
    ["misspelt reward", withTrajectory({ rewards: 1 }), T],
    ["NaN reward", withTrajectory({ reward: Number.NaN }), [...T, "reward"]],
    ["Infinity reward", withTrajectory({ reward: Infinity }), [...T, "reward"]],
    ["-Infinity reward", withTrajectory({ reward: -Infinity }), [...T, "reward"]],
    ["reward as string", withTrajectory({ reward: "1" }), [...T, "reward"]],
    ["fractional policy version", withTrajectory({ initial_policy_version: 1.5 }), [...T, "initial_policy_version"]],
    ["policy version as string", withTrajectory({ final_policy_version: "2" }), [...T, "final_policy_version"]],
    ["metrics with a string", withTrajectory({ metrics: { note: "x" } }), [...T, "metrics", "note"]],
    ["metrics with NaN", withTrajectory({ metrics: { loss: Number.NaN } }), [...T, "metrics", "loss"]],
    ["metadata with an object", withTrajectory({ metadata: { nested: {} } }), [...T, "metadata", "nested"]],
    ["logs with a number", withTrajectory({ logs: [1] }), [...T, "logs", 0]],
    ["start_time without time zone", withTrajectory({ start_time: "2025-03-18T17:04:12" }), [...T, "start_time"]],
    ["start_time date only", withTrajectory({ start_time: "2025-03-18" }), [...T, "start_time"]],
    ["start_time not a date", withTrajectory({ start_time: "yesterday" }), [...T, "start_time"]],
    ["start_time as epoch number", withTrajectory({ start_time: 1742317452 }), [...T, "start_time"]],
    [
      "message without role",
      withTrajectory({ messages_and_choices: [{ content: "hi" }] }),
      [...T, "messages_and_choices", 0],
    ],
    [
      "choice with a non-assistant message",
      withTrajectory({ messages_and_choices: [{ ...choice, message: { role: "user", content: "x" } }] }),
      [...T, "messages_and_choices", 0],
    ],
    [
      "choice with a bad logprob",
      withTrajectory({
        messages_and_choices: [{ ...choice, logprobs: { content: [{ token: "4", logprob: "low" }] } }],
      }),
      [...T, "messages_and_choices", 0, "logprobs", "content", 0, "logprob"],
    ],
    [
      "tool without function name",
      withTrajectory({ tools: [{ type: "function", function: {} }] }),
      [...T, "tools", 0, "function", "name"],
    ],
    [
      "tool with strict not boolean",
      withTrajectory({ tools: [{ type: "function", function: { name: "f", strict: "yes" } }] }),
      [...T, "tools", 0, "function", "strict"],
    ],
    [
      "history without messages_and_choices",
      withTrajectory({ additional_histories: [{ tools: [] }] }),
      [...T, "additional_histories", 0, "messages_and_choices"],
    ],
    [
      "unknown experimental_config key",
      { model_id, trajectory_groups: [], experimental_config: { k2_tau: 0.1 } },
      ["experimental_config"],
    ],
    [
      "experimental_config number as string",
      { model_id, trajectory_groups: [], experimental_config: { learning_rate: "1e-5" } },
      ["experimental_config", "learning_rate"],
    ],
    [
      "experimental_config Infinity",
      { model_id, trajectory_groups: [], experimental_config: { epsilon: Infinity } },
      ["experimental_config", "epsilon"],
    ],
    [
      "experimental_config NaN",
      { model_id, trajectory_groups: [], experimental_config: { advantage_balance: Number.NaN } },
      ["experimental_config", "advantage_balance"],
    ],
    [
      "experimental_config boolean as number",
      { model_id, trajectory_groups: [], experimental_config: { ppo: 1 } },
      ["experimental_config", "ppo"],
    ],
  ];

  it.each(invalid)("%s", (_name, input, path) => {
    const result = trainingJobCreateParamsSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(path);
  });

  it("says that model_id must be a UUID", () => {
    const result = trainingJobCreateParamsSchema.safeParse({ model_id: "x", trajectory_groups: [] });
    expect(result.error?.issues[0]?.message).toBe("model_id must be a UUID");
  });
});

describe("sub-schemas and types", () => {
  it("exposes the trajectory, group and config schemas on their own", () => {
    expect(trajectorySchema.safeParse(fullTrajectory).success).toBe(true);
    expect(trajectoryGroupSchema.safeParse({ trajectories: [fullTrajectory] }).success).toBe(true);
    expect(experimentalConfigSchema.safeParse(fullConfig).success).toBe(true);
  });

  it("types the spec names", () => {
    expectTypeOf<ExperimentalConfig>().toHaveProperty("variant_k2_tau");
    expectTypeOf<ExperimentalConfig>().toHaveProperty("kimi_k2_tau");
    expectTypeOf<TrainingJobCreateParams["model_id"]>().toEqualTypeOf<string>();
    expectTypeOf<TrainingJobCreateParams["trajectory_groups"]>().toEqualTypeOf<TrajectoryGroup[]>();
    expectTypeOf<TrajectoryParams["reward"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<TrainingJobCreateResponse["id"]>().toEqualTypeOf<string>();
  });
});
