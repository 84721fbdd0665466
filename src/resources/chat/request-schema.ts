/**
 * Zod schema for the body of `POST /v1/chat/completions`: the request's fields, its
 * cross-field rules, the three request schemas, `prepareChatRequest` and `requestIssues`
 * (with a "did you mean" hint for a misspelt field). The schemas of content parts, messages
 * and option objects live in their own files and are re-exported from here.
 *
 * Rules that hold for every request schema (this file and the ones it re-exports):
 * - Written with `zod/mini`'s functional API, so a browser bundle pays only for the
 *   validators used here (classic `zod`'s method-chaining classes are not tree-shakeable).
 * - No defaults and no transforms: a parsed value deep-equals its input, so the body
 *   sent holds exactly what the caller set.
 * - `T|null` in the spec becomes `z.nullable()`; everything is optional except `messages`.
 * - The top-level request is strict (typos such as `max_completion_token` are refused;
 *   `engine_xargs` is the bucket for extensions). Messages, content parts, tools and
 *   response formats are loose: unknown keys are kept, since servers add fields to them.
 * - Option objects the spec lists in full (`stream_options`, `structured_outputs`,
 *   `repetition_detection`) are strict too, so a typo inside them is not silently ignored.
 * - A message key within two edits of a key its role knows (`nmae`) is refused with a "did you
 *   mean"; other unknown message keys are kept.
 * - Each schema is built under a local name and exported typed by its named interface
 *   (`*-types.ts`), with a compile-time check that the two agree (`../schema-agreement.ts`).
 *
 * @module
 */
import * as z from "zod/mini";
import { closestName } from "../../core/closest-name.js";
import { inputIssues, type UnknownKeyHint } from "../../core/validate.js";
import type { Agrees, Check, SchemaOf } from "../schema-agreement.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { chatCompletionMessageParamSchema, chatCompletionToolSchema } from "./message-schemas.js";
import {
  chatCompletionDocumentSchema,
  chatCompletionStreamOptionsSchema,
  engineXargsSchema,
  repetitionDetectionParamsSchema,
  responseFormatSchema,
  structuredOutputsParamsSchema,
} from "./request-option-schemas.js";
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from "./request-types.js";

export type * from "./request-types.js";
export * from "./content-part-schemas.js";
export * from "./message-schemas.js";
export * from "./request-option-schemas.js";

// English messages, as classic zod gave them, before the first schema below is built.
ensureZodDefaults();

// The spec writes the int64 bounds as 9223372036854776000, which is 2^63 as a double.
// zod's `z.int()` stops at Number.MAX_SAFE_INTEGER, so these checks are written by hand.
const INT64_MAX = 9223372036854776000;
const INT64_MIN = -9223372036854776000;

function boundedInteger(field: string, min: number, max: number) {
  return z.number().check((ctx) => {
    const v = ctx.value;
    if (!Number.isInteger(v)) {
      ctx.issues.push({
        code: "custom",
        input: v,
        message: `${field} must be an integer`,
      });
    } else if (v < min || v > max) {
      ctx.issues.push({
        code: "custom",
        input: v,
        message: `${field} must be between ${min} and ${max} inclusive`,
      });
    }
  });
}

// ---------------------------------------------------------------------------
// The request
// ---------------------------------------------------------------------------

const requestShape = {
  messages: z.array(chatCompletionMessageParamSchema).check(z.minLength(1, "messages must hold at least one message")),
  model: z.nullish(z.string()),
  frequency_penalty: z.nullish(z.number()),
  logit_bias: z.optional(z.record(z.string(), z.number())),
  logprobs: z.nullish(z.boolean()),
  top_logprobs: z.nullish(z.int().check(z.gte(-1))),
  max_tokens: z.nullish(z.int()),
  max_completion_tokens: z.nullish(z.int()),
  n: z.nullish(z.int().check(z.gte(1))),
  presence_penalty: z.nullish(z.number()),
  response_format: z.optional(responseFormatSchema),
  seed: z.nullish(boundedInteger("seed", INT64_MIN, INT64_MAX)),
  stop: z.optional(z.array(z.string())),
  stream: z.nullish(z.boolean()),
  stream_options: z.optional(chatCompletionStreamOptionsSchema),
  temperature: z.nullish(z.number()),
  top_p: z.nullish(z.number()),
  tools: z.nullish(z.array(chatCompletionToolSchema)),
  tool_choice: z.optional(z.literal("none", { error: 'tool_choice only accepts "none"' })),
  reasoning_effort: z.nullish(z.enum(["low", "medium", "high"])),
  include_reasoning: z.optional(z.boolean()),
  parallel_tool_calls: z.nullish(z.boolean()),
  user: z.nullish(z.string()),
  use_beam_search: z.optional(z.boolean()),
  top_k: z.nullish(z.int()),
  min_p: z.nullish(z.number()),
  repetition_penalty: z.nullish(z.number()),
  length_penalty: z.optional(z.number()),
  stop_token_ids: z.nullish(z.array(z.int())),
  include_stop_str_in_output: z.optional(z.boolean()),
  ignore_eos: z.optional(z.boolean()),
  min_tokens: z.optional(z.int().check(z.gte(0))),
  skip_special_tokens: z.optional(z.boolean()),
  spaces_between_special_tokens: z.optional(z.boolean()),
  truncate_prompt_tokens: z.nullish(boundedInteger("truncate_prompt_tokens", -1, INT64_MAX)),
  prompt_logprobs: z.nullish(z.int().check(z.gte(-1))),
  allowed_token_ids: z.nullish(z.array(z.int())),
  bad_words: z.optional(z.array(z.string())),
  echo: z.optional(z.boolean()),
  add_generation_prompt: z.optional(z.boolean()),
  continue_final_message: z.optional(z.boolean()),
  add_special_tokens: z.optional(z.boolean()),
  documents: z.nullish(z.array(chatCompletionDocumentSchema)),
  chat_template: z.nullish(z.string()),
  chat_template_kwargs: z.optional(z.record(z.string(), z.unknown())),
  mm_processor_kwargs: z.optional(z.record(z.string(), z.unknown())),
  structured_outputs: z.optional(structuredOutputsParamsSchema),
  priority: z.optional(z.int()),
  request_id: z.optional(z.string()),
  return_tokens_as_token_ids: z.nullish(z.boolean()),
  return_token_ids: z.nullish(z.boolean()),
  cache_salt: z.nullish(z.string()),
  kv_transfer_params: z.optional(z.record(z.string(), z.unknown())),
  engine_xargs: z.optional(engineXargsSchema),
  repetition_detection: z.optional(repetitionDetectionParamsSchema),
};

/** The request's field names, for "did you mean" hints on unknown keys. */
const KNOWN_FIELDS = Object.keys(requestShape);

function closestField(key: string): string | undefined {
  return closestName(key, KNOWN_FIELDS);
}

const unknownKeyMessage: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== "unrecognized_keys") return undefined;
  const parts = issue.keys.map((k) => {
    const near = closestField(k);
    return near ? `"${k}" (did you mean "${near}"?)` : `"${k}"`;
  });
  return `unknown request field ${parts.join(", ")}; put extension parameters in engine_xargs`;
};

// The cross-field rules of the spec and of the server, shared by the three request schemas.
function requestRules(
  p: {
    stream?: boolean | null | undefined;
    stream_options?: object | undefined;
    add_generation_prompt?: boolean | undefined;
    continue_final_message?: boolean | undefined;
  },
  ctx: z.core.$RefinementCtx,
): void {
  if (p.continue_final_message === true && p.add_generation_prompt === true) {
    ctx.addIssue({
      code: "custom",
      path: ["add_generation_prompt"],
      message:
        "continue_final_message and add_generation_prompt cannot be combined: set add_generation_prompt to false",
    });
  }
  // The server refuses only a non-empty stream_options without streaming (Python truthiness).
  if (p.stream_options != null && Object.keys(p.stream_options).length > 0 && p.stream !== true) {
    ctx.addIssue({
      code: "custom",
      path: ["stream_options"],
      message: "stream_options can only be set when stream is true",
    });
  }
}

const request = z
  .strictObject(requestShape, { error: unknownKeyMessage })
  .check(z.superRefine((p, ctx) => requestRules(p, ctx)));
/**
 * The chat completion request, streaming or not (`stream?: boolean | null`).
 * Strict at the top level; enforces the spec's ranges, enums and cross-field rules.
 * @example
 * const r = chatCompletionCreateParamsSchema.safeParse({
 *   model: "Qwen/Qwen3-8B",
 *   messages: [{ role: "user", content: "Hi" }],
 *   seed: 42,
 * });
 * if (!r.success) console.log(r.error.issues);
 */
export const chatCompletionCreateParamsSchema: SchemaOf<ChatCompletionCreateParamsBase> = request;

// The two variants below are for callers' own checks; the client validates with the schema
// above. Marked pure so that bundlers drop them from apps that do not use them.

const nonStreamingRequest = /* @__PURE__ */ z
  .strictObject({ ...requestShape, stream: z.nullish(z.literal(false)) }, { error: unknownKeyMessage })
  .check(/* @__PURE__ */ z.superRefine((p, ctx) => requestRules(p, ctx)));
/**
 * The non-streaming request: `stream` is absent, `false` or `null`.
 * @example
 * chatCompletionCreateParamsNonStreamingSchema.parse({ messages: [{ role: "user", content: "Hi" }] });
 */
export const chatCompletionCreateParamsNonStreamingSchema: SchemaOf<ChatCompletionCreateParamsNonStreaming> =
  nonStreamingRequest;

const streamingRequest = /* @__PURE__ */ z
  .strictObject({ ...requestShape, stream: z.literal(true) }, { error: unknownKeyMessage })
  .check(/* @__PURE__ */ z.superRefine((p, ctx) => requestRules(p, ctx)));
/**
 * The streaming request: `stream` is `true`.
 * @example
 * chatCompletionCreateParamsStreamingSchema.parse({
 *   messages: [{ role: "user", content: "Hi" }],
 *   stream: true,
 *   stream_options: { include_usage: true },
 * });
 */
export const chatCompletionCreateParamsStreamingSchema: SchemaOf<ChatCompletionCreateParamsStreaming> =
  streamingRequest;

// i12: fields whose type already takes what vLLM takes (null on every nullable option, `stop` as
// one string, every reasoning effort, `vllm_xargs`) while the schema does not yet; for these
// only "schema within type" is checked. Remove a name once the schema takes the same.
type AheadOfSchema =
  | "stop"
  | "logit_bias"
  | "response_format"
  | "stream_options"
  | "structured_outputs"
  | "tool_choice"
  | "chat_template_kwargs"
  | "kv_transfer_params"
  | "repetition_detection"
  | "mm_processor_kwargs"
  | "reasoning_effort"
  | "vllm_xargs";

// Compile-time: each schema accepts exactly what its named type describes.
type _Agreement = Check<
  [
    Agrees<z.input<typeof request>, ChatCompletionCreateParamsBase, AheadOfSchema>,
    Agrees<z.input<typeof nonStreamingRequest>, ChatCompletionCreateParamsNonStreaming, AheadOfSchema>,
    Agrees<z.input<typeof streamingRequest>, ChatCompletionCreateParamsStreaming, AheadOfSchema>,
  ]
>;

/**
 * One problem of a request, ready for an error message: the path of the field and why.
 * @example
 * const issue: RequestIssue = { path: ["messages", 0, "role"], message: "Invalid discriminator value", code: "invalid_union" };
 */
export interface RequestIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

// Only a top-level unknown key can be a misspelt request field, and only there is
// engine_xargs the place extensions belong.
const requestKeyHint: UnknownKeyHint = (key, path) => {
  if (path.length > 0) return "";
  const near = closestField(key);
  return `${near ? ` (did you mean "${near}"?)` : ""}; put extension parameters in engine_xargs`;
};

/**
 * Turns zod issues of a request into one issue per problem with a precise path: an unknown
 * key gets the key in its path (with a "did you mean" hint at top level), and a union
 * (string or array content, engine_xargs values) reports the branch the value was meant for.
 * The generic part is the core's `inputIssues`; this adds the request's field hints.
 * @example
 * const r = chatCompletionCreateParamsSchema.safeParse(params);
 * if (!r.success) for (const i of requestIssues(r.error.issues)) console.log(i.path.join("."), i.message);
 */
export function requestIssues(issues: readonly z.core.$ZodIssue[]): RequestIssue[] {
  return inputIssues(issues, requestKeyHint);
}

/**
 * Returns the body to send for validated `params`. When `continue_final_message` is true
 * and `add_generation_prompt` is not set, the server's default (true) would make it refuse
 * the request, so a shallow copy with `add_generation_prompt: false` is returned. Otherwise
 * `params` itself is returned (no allocation).
 * @example
 * prepareChatRequest({ messages: [{ role: "assistant", content: "Once upon" }], continue_final_message: true });
 * // => { ..., continue_final_message: true, add_generation_prompt: false }
 */
export function prepareChatRequest<P extends ChatCompletionCreateParamsBase>(params: P): P {
  if (params.continue_final_message === true && params.add_generation_prompt === undefined) {
    return { ...params, add_generation_prompt: false };
  }
  return params;
}
