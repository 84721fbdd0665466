import * as z from "zod/mini";
import { cursorAfter, cursorLimit } from "../cursor-params.js";
import { type Fields, looseObjectNoTypos, type SchemaOf, strictObject } from "../shape.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { isTokenLogprob } from "./token-logprob-check.js";

ensureZodDefaults();

// Own patterns rather than z.guid() / z.iso.datetime(): those pull zod's whole table of
// format regexes into browser bundles. GUID: the 8-4-4-4-12 hex shape, any version digit.
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// ISO 8601 date-time with seconds optional fraction, and `Z` or an offset (as z.iso.datetime({offset:true})).
const ISO_DATETIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;
const trajectoryMessage = z.looseObject({
  /** Role of the message's author (`system`, `user`, `assistant`, `tool`, ...). Not empty. */
  role: z.string().check(z.minLength(1)),
  /** The message's content: a string, content parts, or null. */
  content: z.optional(z.union([z.string(), z.array(z.unknown()), z.null()])),
});
/**
 * A plain chat message inside `messages_and_choices`: context the model saw, not trained on.
 * Other members (`name`, `tool_calls`, `tool_call_id`, ...) are sent unchecked.
 *
 * @example
 * ```ts
 * const message: TrajectoryMessage = { role: "user", content: "What is 2+2?" };
 * ```
 */
export interface TrajectoryMessage extends Fields<typeof trajectoryMessage.shape> {
  [key: string]: unknown;
}

/**
 * A plain chat message inside `messages_and_choices`: context the model saw, not trained on.
 * Loose: `name`, `tool_calls`, `tool_call_id` and the like pass through unchecked.
 *
 * @example
 * ```ts
 * trajectoryMessageSchema.parse({ role: "user", content: "What is 2+2?" });
 * ```
 */
export const trajectoryMessageSchema: SchemaOf<TrajectoryMessage> = trajectoryMessage;

const tokenLogprobEntryShape = {
  /** The token's text. */
  token: z.string(),
  /** Its natural-log probability. */
  logprob: z.number(),
  /** Its UTF-8 bytes, when the token is not valid text on its own. */
  bytes: z.nullish(z.array(z.int())),
};
/**
 * Log-probability of one sampled token.
 *
 * @example
 * ```ts
 * const entry: TokenLogprobEntry = { token: "4", logprob: -0.01, bytes: [52] };
 * ```
 */
export interface TokenLogprobEntry extends Fields<typeof tokenLogprobEntryShape> {
  /** Further members, sent as given. */
  [key: string]: unknown;
}
const tokenLogprob = z.looseObject({
  ...tokenLogprobEntryShape,
  /** The most likely tokens at this position. */
  top_logprobs: z.optional(z.array<SchemaOf<TokenLogprobEntry>>(z.looseObject(tokenLogprobEntryShape))),
});
/**
 * Log-probability of one sampled token, with its most likely alternatives.
 *
 * @example
 * ```ts
 * const logprob: TokenLogprob = { token: "4", logprob: -0.01, bytes: [52], top_logprobs: [] };
 * ```
 */
export interface TokenLogprob extends Fields<typeof tokenLogprob.shape> {
  /** Further members, sent as given. */
  [key: string]: unknown;
}

/**
 * Log-probability of one sampled token, with its most likely alternatives.
 *
 * @example
 * ```ts
 * tokenLogprobSchema.parse({ token: "4", logprob: -0.01, bytes: [52], top_logprobs: [] });
 * ```
 */
export const tokenLogprobSchema: SchemaOf<TokenLogprob> = tokenLogprob;

// A choice of a large job holds thousands of token entries; zod's walk of each one costs more
// than JSON.stringify's writing and the copy together. A plain loop finds the first entry that
// tokenLogprobSchema would refuse, and only that entry goes through zod, for the same issues.
// z.custom plus a refinement, not z.array(...): an array schema runs a schema per entry. Typed
// as the list of entries it checks.
const tokenLogprobList = z
  .custom<z.input<typeof tokenLogprobSchema>[]>((v) => Array.isArray(v), { error: "Invalid input: expected array" })
  .check(
    z.superRefine((entries, ctx) => {
      let at = 0;
      while (at < entries.length && isTokenLogprob(entries[at], true)) at++;
      if (at === entries.length) return;
      const result = z.safeParse(tokenLogprobSchema, entries[at]);
      for (const issue of result.error?.issues ?? []) ctx.addIssue({ ...issue, path: [at, ...issue.path] });
    }),
  );
const trajectoryChoice = z.looseObject({
  /** Why generation ended (`stop`, `length`, `tool_calls`, ...). */
  finish_reason: z.string(),
  /** Index of the choice in its completion; 0 or more. */
  index: z.int().check(z.nonnegative()),
  /** Log-probabilities of the sampled tokens. */
  logprobs: z.nullish(
    z.looseObject({
      /** One entry per token of the content. */
      content: z.nullish(tokenLogprobList),
      /** One entry per token of a refusal. */
      refusal: z.nullish(tokenLogprobList),
    }),
  ),
  /** The message the model wrote. */
  message: z.looseObject({
    /** Always `"assistant"`. */
    role: z.literal("assistant"),
    /** Its text. */
    content: z.nullish(z.string()),
  }),
});
/**
 * A sampled choice inside `messages_and_choices`, as a chat completion returned it: the turns
 * the model is trained on. Sample with `logprobs: true`: trainers refuse choices without them
 * unless configured otherwise.
 *
 * @example
 * ```ts
 * const choice: TrajectoryChoice = {
 *   finish_reason: "stop",
 *   index: 0,
 *   logprobs: { content: [{ token: "4", logprob: -0.01, bytes: [52], top_logprobs: [] }] },
 *   message: { role: "assistant", content: "4" },
 * };
 * ```
 */
export interface TrajectoryChoice extends Fields<typeof trajectoryChoice.shape> {
  [key: string]: unknown;
}

/**
 * A sampled choice inside `messages_and_choices`, as a chat completion returns it: the turns the
 * model is trained on. Request `logprobs: true` when sampling; trainers reject choices without
 * them unless configured otherwise, so `logprobs` is not required here.
 *
 * @example
 * ```ts
 * trajectoryChoiceSchema.parse({
 *   finish_reason: "stop",
 *   index: 0,
 *   logprobs: { content: [{ token: "4", logprob: -0.01, bytes: [52], top_logprobs: [] }] },
 *   message: { role: "assistant", content: "4" },
 * });
 * ```
 */
export const trajectoryChoiceSchema: SchemaOf<TrajectoryChoice> = trajectoryChoice;
const trajectoryTool = z.looseObject({
  /** Kind of tool, `"function"`. Not empty. */
  type: z.string().check(z.minLength(1)),
  /** The function offered. */
  function: z.looseObject({
    /** Name the model calls it by. Not empty. */
    name: z.string().check(z.minLength(1)),
    /** What it does. */
    description: z.optional(z.string()),
    /** JSON Schema of its arguments. */
    parameters: z.optional(z.record(z.string(), z.unknown())),
    /** Whether arguments were held to `parameters` exactly. */
    strict: z.nullish(z.boolean()),
  }),
});
/**
 * A tool the model could call, in the chat-completions `tools` shape.
 *
 * @example
 * ```ts
 * const tool: TrajectoryTool = { type: "function", function: { name: "add", parameters: { type: "object" } } };
 * ```
 */
export interface TrajectoryTool extends Fields<typeof trajectoryTool.shape> {
  [key: string]: unknown;
}

/**
 * A tool the model could call, in the chat-completions `tools` shape.
 *
 * @example
 * ```ts
 * trajectoryToolSchema.parse({
 *   type: "function",
 *   function: { name: "add", description: "Adds numbers", parameters: { type: "object" }, strict: true },
 * });
 * ```
 */
export const trajectoryToolSchema: SchemaOf<TrajectoryTool> = trajectoryTool;

/**
 * An entry of `messages_and_choices`: a message (context) or a sampled choice (trained on).
 *
 * @example
 * ```ts
 * const entries: TrajectoryEntry[] = [{ role: "user", content: "hi" }];
 * ```
 */
export type TrajectoryEntry = TrajectoryChoice | TrajectoryMessage;
const messagesAndChoices = z.array<SchemaOf<TrajectoryEntry>>(
  z.union([trajectoryChoiceSchema, trajectoryMessageSchema]),
);
const tools = z.nullish(z.array(trajectoryToolSchema));
const trajectoryHistory = strictObject({
  /** The conversation: messages as context, choices as trainable turns. */
  messages_and_choices: messagesAndChoices,
  /** The tools offered during it. */
  tools,
});
/**
 * An extra conversation of the same trajectory, tokenized separately and sharing its advantage.
 *
 * @example
 * ```ts
 * const history: TrajectoryHistory = { messages_and_choices: [{ role: "user", content: "hi" }], tools: null };
 * ```
 */
export interface TrajectoryHistory extends Fields<typeof trajectoryHistory.shape> {}

/**
 * An extra conversation of the same trajectory, tokenized separately and sharing its advantage.
 *
 * @example
 * ```ts
 * trajectoryHistorySchema.parse({ messages_and_choices: [{ role: "user", content: "hi" }] });
 * ```
 */
export const trajectoryHistorySchema: SchemaOf<TrajectoryHistory> = trajectoryHistory;
const trajectory = strictObject({
  /** The conversation: messages as context, choices (with logprobs) as trainable turns. */
  messages_and_choices: messagesAndChoices,
  /** The tools offered during the rollout. */
  tools,
  /** Further conversations of the same rollout (sub-agents, retries), sharing its advantage. */
  additional_histories: z.nullish(z.array(trajectoryHistorySchema)),
  /**
   * How good the rollout was; only differences within a group matter. Default 0. `undefined`
   * is left out of the body, so a `Trajectory` not yet scored passes under
   * `exactOptionalPropertyTypes` (the checks then warn that it has no reward).
   */
  reward: z.optional(z.number()),
  /** Version of the policy (training step) that started the rollout. */
  initial_policy_version: z.nullish(z.int()),
  /** Version of the policy that finished it, when it changed during the rollout. */
  final_policy_version: z.nullish(z.int()),
  /** Named numbers or flags about the rollout, logged next to training metrics. */
  metrics: z.optional(z.record(z.string(), z.union([z.number(), z.boolean()]))),
  /** Named values describing the rollout (scenario id, difficulty, ...), for logs. */
  metadata: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  /** Free-form log lines of the rollout. */
  logs: z.optional(z.array(z.string())),
  /** When the rollout started, ISO 8601 with a `Z` or an offset (ART itself never sends it). */
  start_time: z.optional(
    z
      .string()
      .check(z.regex(ISO_DATETIME, { error: "start_time must be an ISO 8601 date-time, e.g. 2025-03-18T17:04:12Z" })),
  ),
});
/**
 * One rollout: the conversation (messages as context, choices as trainable turns) and its reward.
 *
 * @example
 * ```ts
 * const trajectory: TrajectoryParams = {
 *   messages_and_choices: [
 *     { role: "user", content: "What is 2+2?" },
 *     { finish_reason: "stop", index: 0, logprobs: { content: [] }, message: { role: "assistant", content: "4" } },
 *   ],
 *   reward: 1,
 * };
 * ```
 */
export interface TrajectoryParams extends Fields<typeof trajectory.shape> {}

/**
 * One rollout: the conversation (messages as context, choices as trainable turns) and its
 * reward. Strict, because a misspelt `reward` would otherwise train on the server's default of 0.
 *
 * @example
 * ```ts
 * trajectorySchema.parse({
 *   messages_and_choices: [
 *     { role: "user", content: "What is 2+2?" },
 *     { finish_reason: "stop", index: 0, logprobs: { content: [] }, message: { role: "assistant", content: "4" } },
 *   ],
 *   reward: 1,
 *   metrics: { correct: true, latency_s: 0.4 },
 * });
 * ```
 */
export const trajectorySchema: SchemaOf<TrajectoryParams> = trajectory;
// Loose (ART's other group members pass), but a near miss of a known one (`trajectorys`) is refused.
const trajectoryGroup = looseObjectNoTypos({
  /** The rollouts of the group. */
  trajectories: z.array(trajectorySchema),
  /** Rollouts that failed, recorded instead of their trajectories. */
  exceptions: z.optional(
    z.array(
      z.looseObject({
        /** Class of the error. */
        type: z.string(),
        /** Its message. */
        message: z.string(),
        /** Where it was raised. */
        traceback: z.string(),
      }),
    ),
  ),
  /** Named values describing the group, for logs. */
  metadata: z.optional(z.record(z.string(), z.unknown())),
  /** Named numbers about the group, logged next to training metrics. */
  metrics: z.optional(z.record(z.string(), z.unknown())),
  /** Free-form log lines of the group. */
  logs: z.optional(z.array(z.string())),
});
/**
 * The trajectories of one prompt, compared with each other to compute advantages: a group whose
 * rewards are all equal carries no training signal.
 *
 * @example
 * ```ts
 * const group: TrajectoryGroup = { trajectories: [trajectoryA, trajectoryB] };
 * ```
 */
export interface TrajectoryGroup extends Fields<typeof trajectoryGroup.shape> {
  [key: string]: unknown;
}

/**
 * The trajectories of one prompt, compared with each other to compute advantages. Loose: the
 * ART members `exceptions`, `metadata`, `metrics` and `logs` are typed, others pass through.
 *
 * @example
 * ```ts
 * trajectoryGroupSchema.parse({ trajectories: [{ messages_and_choices: [], reward: 0 }] });
 * ```
 */
export const trajectoryGroupSchema: SchemaOf<TrajectoryGroup> = trajectoryGroup;

const tuning = z.nullish(z.number());
const switchable = z.nullish(z.boolean());
const experimentalConfig = z.strictObject({
  /**
   * Tilts advantages, -1 to 1: above 0 shrinks negative advantages by `1 - b`, below 0 shrinks
   * positive ones by `1 + b`; they are then renormalized. Default 0.
   */
  advantage_balance: tuning,
  /** Lower clip bound of the importance ratio, `1 - epsilon`. Default 0.2 with PPO, else 1. */
  epsilon: tuning,
  /** Upper clip bound of the importance ratio, `1 + epsilon_high`. Default `epsilon` with PPO, else 4. */
  epsilon_high: tuning,
  /** Kimi-K2-style correction `A -= tau·(logπ_new - logπ_old)`, under the spec's name. Default off. */
  variant_k2_tau: tuning,
  /** Kimi-K2-style correction `A -= tau·(logπ_new - logπ_old)`, under ART's name. Default off. */
  kimi_k2_tau: tuning,
  /** Learning rate of the LoRA optimizer. Default 5e-6. */
  learning_rate: tuning,
  /** Cap on the importance ratio (named for negative advantages). Default off. */
  max_negative_advantage_importance_sampling_weight: tuning,
  /** Zero the ratio outside the clip window. Default false. */
  mask_prob_ratio: switchable,
  /** PPO's clipped objective; false uses CISPO/REINFORCE. Default false. */
  ppo: switchable,
  /** Recompute the old logprobs with the trainer instead of using the sampled ones. Default false. */
  precalculate_logprobs: switchable,
  /** Divide advantages by the group's reward standard deviation. Default true. */
  scale_rewards: switchable,
});
/**
 * Loss and optimizer settings of a training job. Each member absent or null means the server's
 * default; each is sent under the name written (`variant_k2_tau` is the spec's name for ART's
 * `kimi_k2_tau`).
 *
 * @example
 * ```ts
 * const config: ExperimentalConfig = { learning_rate: 5e-6, ppo: true, epsilon: 0.2 };
 * ```
 */
export interface ExperimentalConfig extends Fields<typeof experimentalConfig.shape> {}

/**
 * Loss and optimizer settings; each member null or absent means the server's default. Strict:
 * a misspelt setting would otherwise be ignored without notice. The spec's `variant_k2_tau` is
 * ART's `kimi_k2_tau`: both names are accepted and sent as written (an ART server reads
 * `kimi_k2_tau`).
 *
 * @example
 * ```ts
 * experimentalConfigSchema.parse({ learning_rate: 5e-6, ppo: true, epsilon: 0.2, variant_k2_tau: null });
 * ```
 */
export const experimentalConfigSchema: SchemaOf<ExperimentalConfig> = experimentalConfig;
const trainingJobCreateParams = strictObject({
  // z.guid() checks the 8-4-4-4-12 hex shape without the RFC version and variant digits, so
  // every id the server could have issued passes.
  /** UUID of the trainable model the job updates. */
  model_id: z.string().check(z.regex(GUID, { error: "model_id must be a UUID" })),
  /** The rollouts to train on, grouped by prompt. */
  trajectory_groups: z.array(trajectoryGroupSchema),
  /** Loss and optimizer settings; absent or null for the server's defaults. */
  experimental_config: z.nullish(experimentalConfigSchema),
});
/**
 * Body of a training-job creation.
 *
 * @example
 * ```ts
 * const params: TrainingJobCreateParams = { model_id, trajectory_groups: [group] };
 * ```
 */
export interface TrainingJobCreateParams extends Fields<typeof trainingJobCreateParams.shape> {}

/**
 * Body of `POST /v1/preview/training-jobs`. `model_id` is a UUID of any version, in either case.
 *
 * @example
 * ```ts
 * trainingJobCreateParamsSchema.parse({
 *   model_id: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b",
 *   trajectory_groups: [{ trajectories: [{ messages_and_choices: [], reward: 1 }] }],
 *   experimental_config: { learning_rate: 1e-5 },
 * });
 * ```
 */
export const trainingJobCreateParamsSchema: SchemaOf<TrainingJobCreateParams> = trainingJobCreateParams;

const eventListParams = strictObject({
  /** Start after the event with this id (a saved cursor). */
  after: cursorAfter,
  /** Items per page, 1-100 (server default 20). */
  limit: cursorLimit,
});
/**
 * Query of `GET /v1/preview/training-jobs/{id}/events`.
 *
 * @example
 * ```ts
 * const params: TrainingJobEventListParams = { after: "evt-12", limit: 100 };
 * ```
 */
export interface TrainingJobEventListParams extends Fields<typeof eventListParams.shape> {}

/**
 * Query of `GET /v1/preview/training-jobs/{id}/events`: `limit` 1-100.
 *
 * @example
 * ```ts
 * trainingJobEventListParamsSchema.parse({ limit: 100 });
 * ```
 */
export const trainingJobEventListParamsSchema: SchemaOf<TrainingJobEventListParams> = eventListParams;
