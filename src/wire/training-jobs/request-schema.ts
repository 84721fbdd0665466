import * as z from "zod/mini";
import { cursorAfter, cursorLimit } from "../cursor-params.js";
import { modelIdSchema } from "../model-id.js";
import { type Fields, looseObjectNoTypos, type SchemaOf, strictObject } from "../request-shapes.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { experimentalConfigSchema } from "./experimental-config.js";
import { isTokenLogprob } from "./token-logprob-check.js";

ensureZodDefaults();

// An own pattern rather than z.iso.datetime(): that pulls zod's whole table of format regexes
// into browser bundles.
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
 */
export interface TrajectoryMessage extends Fields<typeof trajectoryMessage.shape> {
  [key: string]: unknown;
}

/**
 * A plain chat message inside `messages_and_choices`: context the model saw, not trained on.
 * Loose: `name`, `tool_calls`, `tool_call_id` and the like pass through unchecked.
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
 */
export interface TokenLogprob extends Fields<typeof tokenLogprob.shape> {
  /** Further members, sent as given. */
  [key: string]: unknown;
}

/**
 * Log-probability of one sampled token, with its most likely alternatives.
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
 */
export interface TrajectoryChoice extends Fields<typeof trajectoryChoice.shape> {
  [key: string]: unknown;
}

/**
 * A sampled choice inside `messages_and_choices`, as a chat completion returns it: the turns the
 * model is trained on. Request `logprobs: true` when sampling; trainers reject choices without
 * them unless configured otherwise, so `logprobs` is not required here.
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
 */
export interface TrajectoryTool extends Fields<typeof trajectoryTool.shape> {
  [key: string]: unknown;
}

/**
 * A tool the model could call, in the chat-completions `tools` shape.
 */
export const trajectoryToolSchema: SchemaOf<TrajectoryTool> = trajectoryTool;

/**
 * An entry of `messages_and_choices`: a message (context) or a sampled choice (trained on).
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
 */
export interface TrajectoryHistory extends Fields<typeof trajectoryHistory.shape> {}

/**
 * An extra conversation of the same trajectory, tokenized separately and sharing its advantage.
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
 */
export interface TrajectoryParams extends Fields<typeof trajectory.shape> {}

/**
 * One rollout: the conversation (messages as context, choices as trainable turns) and its
 * reward. Strict, because a misspelt `reward` would otherwise train on the server's default of 0.
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
 */
export interface TrajectoryGroup extends Fields<typeof trajectoryGroup.shape> {
  [key: string]: unknown;
}

/**
 * The trajectories of one prompt, compared with each other to compute advantages. Loose: the
 * ART members `exceptions`, `metadata`, `metrics` and `logs` are typed, others pass through.
 */
export const trajectoryGroupSchema: SchemaOf<TrajectoryGroup> = trajectoryGroup;

// Every current member of ExperimentalTrainingConfig, in its own file (also SFT's reference).
export { type ExperimentalConfig, experimentalConfigSchema } from "./experimental-config.js";

const trainingJobCreateParams = strictObject({
  /** UUID of the trainable model the job updates. */
  model_id: modelIdSchema,
  /** The rollouts to train on, grouped by prompt. */
  trajectory_groups: z.array(trajectoryGroupSchema),
  /** Loss and optimizer settings; absent or null for the server's defaults. */
  experimental_config: z.nullish(experimentalConfigSchema),
});
/**
 * Body of a training-job creation.
 */
export interface TrainingJobCreateParams extends Fields<typeof trainingJobCreateParams.shape> {}

/**
 * Body of `POST /v1/preview/training-jobs`. `model_id` is a UUID of any version, in either case.
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
 */
export interface TrainingJobEventListParams extends Fields<typeof eventListParams.shape> {}

/**
 * Query of `GET /v1/preview/training-jobs/{id}/events`: `limit` 1-100.
 */
export const trainingJobEventListParamsSchema: SchemaOf<TrainingJobEventListParams> = eventListParams;
