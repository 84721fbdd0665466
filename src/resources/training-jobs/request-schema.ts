import * as z from "zod/mini";
import type { Agrees, Check, SchemaOf } from "../schema-agreement.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { isTokenLogprob } from "./token-logprob-check.js";
import type {
  ExperimentalConfig,
  TokenLogprob,
  TrainingJobCreateParams,
  TrajectoryParams,
  TrajectoryChoice,
  TrajectoryGroup,
  TrajectoryHistory,
  TrajectoryMessage,
  TrajectoryTool,
} from "./request-types.js";

export type * from "./request-types.js";

ensureZodDefaults();

// Own patterns rather than z.guid() / z.iso.datetime(): those pull zod's whole table of
// format regexes into browser bundles. GUID: the 8-4-4-4-12 hex shape, any version digit.
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// ISO 8601 date-time with seconds optional fraction, and `Z` or an offset (as z.iso.datetime({offset:true})).
const ISO_DATETIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;

// Numbers here are z.number(), which in zod 4 already refuses NaN and ±Infinity: JSON cannot
// carry them, and JSON.stringify would silently send `null` instead.

const trajectoryMessage = z.looseObject({
  role: z.string().check(z.minLength(1)),
  content: z.optional(z.union([z.string(), z.array(z.unknown()), z.null()])),
});
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

const tokenLogprobShape = {
  token: z.string(),
  logprob: z.number(),
  bytes: z.nullish(z.array(z.int())),
};

const tokenLogprob = z.looseObject({
  ...tokenLogprobShape,
  top_logprobs: z.optional(z.array(z.looseObject(tokenLogprobShape))),
});
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
  finish_reason: z.string(),
  index: z.int().check(z.nonnegative()),
  logprobs: z.nullish(
    z.looseObject({
      content: z.nullish(tokenLogprobList),
      refusal: z.nullish(tokenLogprobList),
    }),
  ),
  message: z.looseObject({
    role: z.literal("assistant"),
    content: z.nullish(z.string()),
  }),
});
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
  type: z.string().check(z.minLength(1)),
  function: z.looseObject({
    name: z.string().check(z.minLength(1)),
    description: z.optional(z.string()),
    parameters: z.optional(z.record(z.string(), z.unknown())),
    strict: z.nullish(z.boolean()),
  }),
});
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

const messagesAndChoices = z.array(z.union([trajectoryChoiceSchema, trajectoryMessageSchema]));
const tools = z.nullish(z.array(trajectoryToolSchema));

const trajectoryHistory = z.strictObject({
  messages_and_choices: messagesAndChoices,
  tools,
});
/**
 * An extra conversation of the same trajectory, tokenized separately and sharing its advantage.
 *
 * @example
 * ```ts
 * trajectoryHistorySchema.parse({ messages_and_choices: [{ role: "user", content: "hi" }] });
 * ```
 */
export const trajectoryHistorySchema: SchemaOf<TrajectoryHistory> = trajectoryHistory;

const trajectory = z.strictObject({
  messages_and_choices: messagesAndChoices,
  tools,
  additional_histories: z.nullish(z.array(trajectoryHistorySchema)),
  reward: z.optional(z.number()),
  initial_policy_version: z.nullish(z.int()),
  final_policy_version: z.nullish(z.int()),
  metrics: z.optional(z.record(z.string(), z.union([z.number(), z.boolean()]))),
  metadata: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  logs: z.optional(z.array(z.string())),
  start_time: z.optional(
    z
      .string()
      .check(z.regex(ISO_DATETIME, { error: "start_time must be an ISO 8601 date-time, e.g. 2025-03-18T17:04:12Z" })),
  ),
});
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

const trajectoryGroup = z.looseObject({
  trajectories: z.array(trajectorySchema),
  exceptions: z.optional(z.array(z.looseObject({ type: z.string(), message: z.string(), traceback: z.string() }))),
  metadata: z.optional(z.record(z.string(), z.unknown())),
  metrics: z.optional(z.record(z.string(), z.unknown())),
  logs: z.optional(z.array(z.string())),
});
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
  advantage_balance: tuning,
  epsilon: tuning,
  epsilon_high: tuning,
  /** The spec's name of ART's `kimi_k2_tau`. */
  variant_k2_tau: tuning,
  /** ART's name of the same setting. */
  kimi_k2_tau: tuning,
  learning_rate: tuning,
  max_negative_advantage_importance_sampling_weight: tuning,
  mask_prob_ratio: switchable,
  ppo: switchable,
  precalculate_logprobs: switchable,
  scale_rewards: switchable,
});
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

const trainingJobCreateParams = z.strictObject({
  // z.guid() checks the 8-4-4-4-12 hex shape without the RFC version and variant digits, so
  // every id the server could have issued passes.
  model_id: z.string().check(z.regex(GUID, { error: "model_id must be a UUID" })),
  trajectory_groups: z.array(trajectoryGroupSchema),
  experimental_config: z.nullish(experimentalConfigSchema),
});
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

// Compile-time: each schema accepts exactly what its named type describes.
type _Agreement = Check<
  [
    Agrees<z.input<typeof trajectoryMessage>, TrajectoryMessage>,
    Agrees<z.input<typeof tokenLogprob>, TokenLogprob>,
    Agrees<z.input<typeof trajectoryChoice>, TrajectoryChoice>,
    Agrees<z.input<typeof trajectoryTool>, TrajectoryTool>,
    Agrees<z.input<typeof trajectoryHistory>, TrajectoryHistory>,
    Agrees<z.input<typeof trajectory>, TrajectoryParams>,
    Agrees<z.input<typeof trajectoryGroup>, TrajectoryGroup>,
    Agrees<z.input<typeof experimentalConfig>, ExperimentalConfig>,
    Agrees<z.input<typeof trainingJobCreateParams>, TrainingJobCreateParams>,
  ]
>;
