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
 * - The top-level request is strict (typos such as `max_completion_token` are refused with a
 *   "did you mean" hint); fields the SDK does not know yet go through the `extraBody`
 *   request option. Messages, content parts, tools and response formats are loose: unknown
 *   keys are kept, since servers add fields to them.
 * - What vLLM's request model accepts is accepted (`stop` as a string, `null` on every field
 *   it types as nullable, any message role); what it always refuses is refused before
 *   sending (see `requestRules`). Sources: `vllm/entrypoints/openai/chat_completion/protocol.py`
 *   and `vllm/sampling_params.py`.
 * - Option objects (`stream_options`, `structured_outputs`, `repetition_detection`) keep
 *   unknown keys, as vLLM's models ignore them, but refuse a near miss of a known key with a
 *   "did you mean", so a typo inside them is not silently dropped.
 * - Nothing is added to what the caller wrote except `add_generation_prompt: false` beside
 *   `continue_final_message: true` (see `prepareChatRequest`).
 * - A message key within two edits of a key its role knows (`nmae`) is refused with a "did you
 *   mean"; other unknown message keys are kept.
 * - Each shape is written once, with a doc per field: the named type is derived from it and
 *   the schema is exported typed by that name (see `../shape.ts`).
 *
 * @module
 */
import * as z from "zod/mini";
import { topLevelFieldHint } from "../../core/checks/field-hint.js";
import { inputIssues } from "../../core/checks/input-checks.js";
import { isWellFormed } from "../../core/checks/well-formed.js";
import { type Fields, looseObject, type SchemaOf, strictObject } from "../request-shapes.js";
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
import { structuredOutputsConstraints } from "./structured-outputs.js";
import { vllmLimitRules } from "./vllm-limits.js";

export * from "./content-part-schemas.js";
export * from "./message-schemas.js";
export * from "./request-option-schemas.js";

// English messages, as classic zod gave them, before the first schema below is built.
ensureZodDefaults();

// vLLM judges int64 fields on the JSON text it receives. The spec's bound 9223372036854776000
// is 2^63 once it is a double, and JSON.stringify writes every double from 2^63 up (and -2^63
// down) that way: out of range. So a number is in range when its magnitude is below 2^63; the
// widest such doubles are ±(2^63 - 1024), written ±9223372036854775000. zod's `z.int()` stops
// at Number.MAX_SAFE_INTEGER, so the check is written by hand; its message gives the exact
// int64 bounds, not a rounded double.
const TWO_POW_63 = 2 ** 63;
const INT64_RANGE = "-9223372036854775808..9223372036854775807";

/** An integer within int64, or within `min`..int64 max when `min` is given. */
function boundedInteger(field: string, min?: number) {
  const range = min === undefined ? INT64_RANGE : `${min}..9223372036854775807`;
  return z.number().check((ctx) => {
    const v = ctx.value;
    if (!Number.isInteger(v)) {
      ctx.issues.push({
        code: "custom",
        input: v,
        message: `${field} must be an integer`,
      });
    } else if (Math.abs(v) >= TWO_POW_63 || (min !== undefined && v < min)) {
      const rounded = Number.isSafeInteger(v) ? "" : "; JavaScript numbers beyond ±9223372036854775000 are inexact";
      ctx.issues.push({
        code: "custom",
        input: v,
        message: `${field} must be an integer in ${range} (int64)${rounded}`,
      });
    }
  });
}

// vLLM's validate_cache_salt: non-empty, at most 128 characters as Python counts them (code
// points, not UTF-16 units), without @ / \ NUL. Standard base64 produces "/": use URL-safe base64.
const cacheSaltSchema = z.string().check((ctx) => {
  const v = ctx.value;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the refused characters
  if (v.length === 0 || /[@/\\\u0000]/.test(v) || (v.length > 128 && [...v].length > 128))
    ctx.issues.push({
      code: "custom",
      input: v,
      message: "must be 1-128 characters without @ / \\ NUL (use URL-safe base64)",
    });
});

// Any integer: vLLM's `int` fields take integers of any size (zod's `z.int()` stops at 2^53).
function anyInt(field: string, min?: number) {
  return z.number().check((ctx) => {
    const v = ctx.value;
    if (!Number.isInteger(v)) ctx.issues.push({ code: "custom", input: v, message: `${field} must be an integer` });
    else if (min !== undefined && v < min)
      ctx.issues.push({ code: "custom", input: v, message: `${field} must be at least ${min}` });
  });
}

// A number within vLLM's range for a sampling parameter (SamplingParams._verify_args).
function ranged(field: string, ok: (v: number) => boolean, range: string) {
  return z.number().check((ctx) => {
    if (!ok(ctx.value)) ctx.issues.push({ code: "custom", input: ctx.value, message: `${field} must be in ${range}` });
  });
}

// What Python's int() reads in a logit_bias key (sign, digits, single underscores, spaces);
// vLLM then refuses a negative token id.
const TOKEN_ID_KEY = /^\s*\+?\d+(_\d+)*\s*$/;
const logitBiasSchema = z.record(z.string(), z.number()).check((ctx) => {
  const bad = Object.keys(ctx.value).filter((k) => !TOKEN_ID_KEY.test(k));
  if (bad.length > 0)
    ctx.issues.push({
      code: "custom",
      input: ctx.value,
      message: `keys must be token ids (non-negative integers as strings, like "1234"), got ${bad.map((k) => JSON.stringify(k)).join(", ")}`,
    });
});

// vLLM's check_logprobs refuses an empty list; the sampler holds at most MAX_LOGPROB_TOKEN_IDS
// (128, a constant) per request and refuses a negative id as out of vocabulary.
const MAX_LOGPROB_TOKEN_IDS = 128;
const logprobTokenIdsSchema = z
  .array(anyInt("a token id", 0))
  .check(
    z.minLength(1, "is empty: leave logprob_token_ids out to get the top_logprobs"),
    z.maxLength(
      MAX_LOGPROB_TOKEN_IDS,
      `holds more than ${MAX_LOGPROB_TOKEN_IDS} ids, the most vLLM scores per position`,
    ),
  );

const nonEmptyString = (what: string) => z.string().check(z.minLength(1, `${what} must not be empty`));
/**
 * A `tool_choice` that names the one function the model must call.
 */
export interface ChatCompletionNamedToolChoice extends Fields<typeof namedToolChoice.shape> {}
const namedToolChoice = looseObject({
  /** Always `"function"`; vLLM fills it in when absent. */
  type: z.optional(z.literal("function")),
  /** The function to call. */
  function: looseObject({
    /** Its name: one of the request's `tools`. */
    name: nonEmptyString("tool_choice.function.name"),
  }),
});
const toolChoiceSchema: SchemaOf<ChatCompletionToolChoiceOption> = z.union(
  [z.enum(["none", "auto", "required"]), namedToolChoice],
  {
    error: 'tool_choice must be "none", "auto", "required" or {type: "function", function: {name}}',
  },
);
/**
 * vLLM's forms of `tool_choice`: `"none"` (no calls), `"auto"` (the model decides), `"required"`
 * (at least one call) or a named function.
 */
export type ChatCompletionToolChoiceOption = "none" | "auto" | "required" | ChatCompletionNamedToolChoice;

/** `reasoning_effort` values vLLM accepts. */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

/**
 * How much a reasoning model thinks before answering. Which values a model honours depends on
 * its chat template; `"none"` turns reasoning off where the template allows it.
 */
export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

// ---------------------------------------------------------------------------
// The request
// ---------------------------------------------------------------------------

const requestShape = {
  /** The conversation so far, oldest first. At least one message. */
  messages: z.array(chatCompletionMessageParamSchema).check(z.minLength(1, "messages must hold at least one message")),
  /** Model to answer, an `id` from `client.models.list()`. Absent or null: the server's only model. */
  model: z.nullish(z.string()),
  /** Penalizes tokens by how often they already appear in the output; -2 to 2. Default 0. */
  frequency_penalty: z.nullish(ranged("frequency_penalty", (v) => v >= -2 && v <= 2, "[-2, 2]")),
  /** Bias added to the logits of token ids (keys are token ids as strings), clamped to ±100. */
  logit_bias: z.nullish(logitBiasSchema),
  /** Return the log-probability of each output token in `choices[].logprobs`. Default false. */
  logprobs: z.nullish(z.boolean()),
  /**
   * Most likely alternatives returned per output token, 0 to the server's maximum (20 by
   * default), or -1 for all; needs `logprobs: true` when above 0. Default 0.
   */
  top_logprobs: z.nullish(anyInt("top_logprobs", -1)),
  /**
   * Most tokens to generate. Default: as many as the context leaves.
   * @deprecated Use `max_completion_tokens`, its counterpart.
   */
  max_tokens: z.nullish(anyInt("max_tokens")),
  /** Most tokens to generate, reasoning included. Default: as many as the context leaves. */
  max_completion_tokens: z.nullish(anyInt("max_completion_tokens")),
  /** Replies to generate for the same messages; at least 1. With `use_beam_search`, the beam width. Default 1. */
  n: z.nullish(anyInt("n", 1)),
  /** Penalizes tokens that already appear in the output, once each; -2 to 2. Default 0. */
  presence_penalty: z.nullish(ranged("presence_penalty", (v) => v >= -2 && v <= 2, "[-2, 2]")),
  /** The reply's format: text, any JSON object, or JSON matching a schema (see `zodResponseFormat`). */
  response_format: z.nullish(responseFormatSchema),
  /** Seed of the sampler, for replies that repeat; an int64 (`±9223372036854775000` at most in JS). Default random. */
  seed: z.nullish(boundedInteger("seed")),
  /** Text (or up to several texts) that ends generation when produced; not part of the reply. Default none. */
  stop: z.nullish(z.union([nonEmptyString("a stop string"), z.array(nonEmptyString("a stop string"))])),
  /** Stream the reply as server-sent events: `create` then resolves to a `ChatCompletionStream`. Default false. */
  stream: z.nullish(z.boolean()),
  /** What a streamed reply reports besides the text (usage). Only with `stream: true`. */
  stream_options: z.nullish(chatCompletionStreamOptionsSchema),
  /** Sampling temperature, 0 (greedy) to 2; higher is more random. Default: the model's, else 1. */
  temperature: z.nullish(ranged("temperature", (v) => v >= 0 && v <= 2, "[0, 2]")),
  /** Nucleus sampling: keep the most likely tokens up to this total probability, above 0 to 1. Default 1. */
  top_p: z.nullish(ranged("top_p", (v) => v > 0 && v <= 1, "(0, 1]")),
  /** Functions the model may call. Not empty when given. */
  tools: z.nullish(z.array(chatCompletionToolSchema).check(z.minLength(1, "is empty: leave tools out to offer none"))),
  /**
   * Whether and which of `tools` the model calls: `"none"`, `"auto"` (the model decides; needs a
   * server started with `--enable-auto-tool-choice` and a tool parser), `"required"` (at least
   * one call) or a named function. Absent with `tools`: vLLM picks `"auto"`. Anything but
   * `"none"` needs `tools`. See docs/tool-calling.md.
   */
  tool_choice: z.nullish(toolChoiceSchema),
  /** How much a reasoning model thinks before answering. Default: the model's. */
  reasoning_effort: z.nullish<SchemaOf<ReasoningEffort>>(z.enum(REASONING_EFFORTS)),
  /**
   * Most tokens a reasoning model may spend thinking before it must answer; -1 for no limit.
   * Needs a server started with a reasoning parser that supports it. Default: no limit.
   */
  thinking_token_budget: z.nullish(anyInt("thinking_token_budget", -1)),
  /** Return the model's reasoning in `message.reasoning`. Default true. */
  include_reasoning: z.optional(z.boolean()),
  /** Allow several tool calls in one reply. Default true. */
  parallel_tool_calls: z.nullish(z.boolean()),
  /** Id of the end user (an OpenAI field; vLLM accepts it and does not use it). */
  user: z.nullish(z.string()),
  /** Beam search instead of sampling; `n` is the beam width. Default false. */
  use_beam_search: z.optional(z.boolean()),
  /** Sample only among the k most likely tokens; 0 or -1 for all. Default: all. */
  top_k: z.nullish(anyInt("top_k", -1)),
  /** Drop tokens less likely than this fraction of the most likely one, 0 to 1. Default 0. */
  min_p: z.nullish(ranged("min_p", (v) => v >= 0 && v <= 1, "[0, 1]")),
  /** Penalizes tokens already in the prompt or output; above 1 discourages repeats, 1 is none. Default 1. */
  repetition_penalty: z.nullish(ranged("repetition_penalty", (v) => v > 0 && Number.isFinite(v), "(0, ∞)")),
  /** Watermark the generated text, on a server that supports it. Default: the server's. */
  watermarking: z.nullish(z.boolean()),
  /** Beam search only: favours longer (above 1) or shorter (below 1) sequences. Default 1. */
  length_penalty: z.optional(z.number()),
  /** Token ids that end generation, like `stop` for tokens. Default none. */
  stop_token_ids: z.nullish(z.array(anyInt("a stop token id"))),
  /** Keep the matched `stop` text at the end of the reply. Default false. */
  include_stop_str_in_output: z.optional(z.boolean()),
  /** Keep generating past the end-of-sequence token, up to the token limit. Default false. */
  ignore_eos: z.optional(z.boolean()),
  /** Fewest tokens to generate before a stop is honoured; at most the token limit. Default 0. */
  min_tokens: z.optional(anyInt("min_tokens", 0)),
  /** Leave special tokens out of the reply's text. Default true. */
  skip_special_tokens: z.optional(z.boolean()),
  /** Put spaces between special tokens in the reply's text. Default true. */
  spaces_between_special_tokens: z.optional(z.boolean()),
  /** Keep only the last this-many prompt tokens; -1 for the model's context length. Default: no truncation. */
  truncate_prompt_tokens: z.nullish(boundedInteger("truncate_prompt_tokens", -1)),
  /**
   * With `truncate_prompt_tokens`, which end of the prompt is cut: `"left"` keeps the last
   * tokens, `"right"` the first. Default: the tokenizer's.
   */
  truncation_side: z.nullish(z.enum(["left", "right"])),
  /** Log-probabilities returned per prompt token (0 or more, -1 for all); not with `stream: true`. */
  prompt_logprobs: z.nullish(anyInt("prompt_logprobs", -1)),
  /**
   * Token ids whose log-probabilities are returned at each output position (instead of the
   * most likely ones of `top_logprobs`): 1 to 128 ids, for scoring a fixed set of labels.
   * Needs `logprobs: true`; not with beam search.
   */
  logprob_token_ids: z.nullish(logprobTokenIdsSchema),
  /** Generate only these token ids. Default: any. */
  allowed_token_ids: z.nullish(
    z
      .array(anyInt("a token id", 0))
      .check(z.minLength(1, "is empty: leave allowed_token_ids out to allow every token")),
  ),
  /** Words the reply must not contain. Each not empty. */
  bad_words: z.optional(z.array(nonEmptyString("a bad word"))),
  /** Start the reply with the last message when both have the same role. Default false. */
  echo: z.optional(z.boolean()),
  /** Add the chat template's generation prompt (the start of an assistant turn). Default true. */
  add_generation_prompt: z.optional(z.boolean()),
  /**
   * Leave the final message open (no end-of-turn marker) so the model continues it: a prefilled
   * reply. Cannot be combined with `add_generation_prompt`; alone, the SDK sends
   * `add_generation_prompt: false` for you. Default false.
   */
  continue_final_message: z.optional(z.boolean()),
  /** Add special tokens (such as a start-of-sequence token) on top of the chat template's. Default false. */
  add_special_tokens: z.optional(z.boolean()),
  /** Documents for retrieval-augmented templates, each with `title` and `text`. No effect if the template has no use for them. */
  documents: z.nullish(z.array(chatCompletionDocumentSchema)),
  /** A chat template (Jinja) to use instead of the model's. Refused unless the server trusts request templates. */
  chat_template: z.nullish(z.string()),
  /** Extra variables for the chat template, such as `{ enable_thinking: false }`. */
  chat_template_kwargs: z.nullish(z.record(z.string(), z.unknown())),
  /**
   * Extra arguments for the media loaders, per modality (`{ video: { num_frames: 8 } }`),
   * merged over the server's. Refused unless the server trusts request media arguments.
   */
  media_io_kwargs: z.nullish(z.record(z.string(), z.record(z.string(), z.unknown()))),
  /** Extra arguments for the multimodal processor. Refused unless the server trusts them. */
  mm_processor_kwargs: z.nullish(z.record(z.string(), z.unknown())),
  /** Constrain the reply to a JSON Schema, regex, choice or grammar (vLLM). Not with a JSON `response_format`. */
  structured_outputs: z.nullish(structuredOutputsParamsSchema),
  /** Scheduling priority: lower is handled earlier. Anything but 0 needs a server with priority scheduling. Default 0. */
  priority: z.optional(boundedInteger("priority")),
  /** Id of the request, used in the server's logs and in the reply's `id`. Default: a random one. */
  request_id: z.optional(z.string()),
  /**
   * A stable id shared by the requests of one conversation or agent session (unlike
   * `request_id`), for servers that route or cache by session.
   */
  session_id: z.nullish(z.string()),
  /** With `logprobs`, write tokens as `token_id:<id>` strings. Default false. */
  return_tokens_as_token_ids: z.nullish(z.boolean()),
  /** Return token ids next to the text: `prompt_token_ids`, and `token_ids` per choice (per chunk when streaming). Default false. */
  return_token_ids: z.nullish(z.boolean()),
  /**
   * With the server's `--enable-return-routed-experts`, leave the first this-many prompt
   * tokens out of the routed-expert data returned (those an earlier turn already returned). Default 0.
   */
  routed_experts_prompt_start: z.optional(anyInt("routed_experts_prompt_start", 0)),
  /**
   * Character offsets of each token in the `token_offsets` of vLLM's render endpoints; the chat
   * endpoint ignores it. Default false.
   */
  return_token_offsets: z.nullish(z.boolean()),
  /** Return the prompt the chat template produced, as `prompt_text` (on the first chunk when streaming). Default false. */
  return_prompt_text: z.nullish(z.boolean()),
  /** On vLLM's render endpoints, `false` leaves the multimodal data out of `features`; the chat endpoint ignores it. Default true. */
  return_mm_kwargs: z.optional(z.boolean()),
  /**
   * On vLLM's render endpoints, also return the mask of the prompt's tokens that come from
   * assistant turns (for templates with `{% generation %}` blocks); the chat endpoint ignores it.
   */
  return_assistant_tokens_mask: z.nullish(z.boolean()),
  /**
   * Salt of the prefix cache, so that only requests with the same salt share cached prompts.
   * Random and secret: up to 128 characters, without `@`, `/`, `\` (use URL-safe base64).
   */
  cache_salt: z.nullish(cacheSaltSchema),
  /** Parameters for disaggregated prefill/decode serving, passed to the KV connector. */
  kv_transfer_params: z.nullish(z.record(z.string(), z.unknown())),
  /** Parameters for encoder-cache disaggregated serving, passed to the EC connector. */
  ec_transfer_params: z.nullish(z.record(z.string(), z.unknown())),
  /**
   * Extension parameters under the spec's name. vLLM reads only `vllm_xargs`: this one is no
   * field of its request model, so it keeps it unread whatever it holds, and the SDK sends it
   * as written (any JSON value).
   */
  engine_xargs: z.nullish(z.unknown()),
  /** Extension parameters for server plugins, under vLLM's own name. */
  vllm_xargs: z.nullish(engineXargsSchema),
  /** End generation early when an n-gram pattern of the output repeats. */
  repetition_detection: z.nullish(repetitionDetectionParamsSchema),
  /**
   * Streaming: tokens batched into each chunk, at least 1; raised to the server's
   * `--stream-interval` when below it. The first and last chunks go at once. Default: the server's.
   */
  stream_interval: z.nullish(anyInt("stream_interval", 1)),
};

// "Did you mean" and extraBody hints for unknown top-level fields.
const requestKeyHint = topLevelFieldHint(Object.keys(requestShape));

const unknownKeyMessage: z.core.$ZodErrorMap = (issue) =>
  issue.code === "unrecognized_keys"
    ? `unknown request field ${issue.keys.map((k) => `"${k}"${requestKeyHint(k, [])}`).join(", ")}`
    : undefined;

type RuleInput = {
  stream?: boolean | null | undefined;
  stream_options?: object | null | undefined;
  add_generation_prompt?: boolean | undefined;
  continue_final_message?: boolean | undefined;
  logprobs?: boolean | null | undefined;
  top_logprobs?: number | null | undefined;
  prompt_logprobs?: number | null | undefined;
  logprob_token_ids?: readonly number[] | null | undefined;
  response_format?: { type?: unknown; json_schema?: { schema?: unknown } } | null | undefined;
  structured_outputs?: object | null | undefined;
  tools?: readonly { function?: { name?: unknown } }[] | null | undefined;
  tool_choice?: string | { function?: { name?: unknown } } | null | undefined;
  n?: number | null | undefined;
  temperature?: number | null | undefined;
  use_beam_search?: boolean | undefined;
  max_tokens?: number | null | undefined;
  max_completion_tokens?: number | null | undefined;
  min_tokens?: number | undefined;
};

// The constraint response_format adds to structured_outputs inside vLLM
// (structured_outputs_from_response_format); a json_schema without `schema` adds none.
function formatConstraint(format: RuleInput["response_format"]): string | undefined {
  switch (format?.type) {
    case "json_object":
      return "json_object";
    case "json_schema":
      return format.json_schema?.schema != null ? "json" : undefined;
    case "structural_tag":
      return "structural_tag";
    default:
      return undefined;
  }
}

// vLLM reads a temperature below this as greedy sampling (SamplingParams._SAMPLING_EPS).
const GREEDY_TEMPERATURE = 1e-5;

// The cross-field rules of vLLM's request model (its `model_validator`s) and of its sampling
// parameters, shared by the three request schemas.
function requestRules(p: RuleInput, ctx: z.core.$RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (p.continue_final_message === true && p.add_generation_prompt === true) {
    issue("add_generation_prompt", "cannot be combined with continue_final_message: set it to false");
  }
  // vLLM refuses only a non-empty stream_options without streaming (Python truthiness).
  if (p.stream_options != null && Object.keys(p.stream_options).length > 0 && p.stream !== true) {
    issue("stream_options", "needs stream: true");
  }
  const top = p.top_logprobs;
  if (top != null && (top > 0 || top === -1) && p.logprobs !== true) {
    issue("top_logprobs", "needs logprobs: true");
  }
  // check_logprobs: a list of ids to score needs logprobs, and beam search cannot score them.
  if (p.logprob_token_ids != null) {
    if (p.logprobs !== true) issue("logprob_token_ids", "needs logprobs: true");
    if (p.use_beam_search === true) issue("logprob_token_ids", "is not supported with use_beam_search");
  }
  const prompt = p.prompt_logprobs;
  if (prompt != null && (prompt > 0 || prompt === -1) && p.stream === true) {
    issue("prompt_logprobs", "not available when streaming");
  }
  structuredRules(p, issue);
  toolRules(p, issue);
  samplingRules(p, issue);
  vllmLimitRules(p, ctx);
}

type IssueAt = (path: string, message: string) => void;

function structuredRules(p: RuleInput, issue: IssueAt): void {
  const so = p.structured_outputs;
  const fromFormat = formatConstraint(p.response_format);
  if (so != null && fromFormat !== undefined) {
    const own = structuredOutputsConstraints(so);
    if (own.length === 1 && own[0] !== fromFormat) {
      issue(
        "structured_outputs",
        `${own[0]} and response_format ${String(p.response_format?.type)} are two constraints: keep one`,
      );
    }
  }
  if (so == null && p.response_format?.type === "json_schema" && fromFormat === undefined) {
    issue("response_format", "json_schema needs `schema` (the JSON Schema the reply must match)");
  }
  // check_structured_outputs_count: json/regex/choice with a named or null tool_choice.
  const constrained = so != null && ["json", "regex", "choice"].some((k) => (so as Record<string, unknown>)[k] != null);
  if (constrained && p.tool_choice !== undefined && (p.tool_choice === null || typeof p.tool_choice === "object")) {
    issue(
      "tool_choice",
      'cannot be null or a named tool together with structured_outputs: use "none", "auto" or "required", or drop the constraint',
    );
  }
}

// check_tool_usage: a tool_choice other than "none" needs tools, and a named one must name one.
function toolRules(p: RuleInput, issue: IssueAt): void {
  const choice = p.tool_choice;
  if (choice == null || choice === "none") return;
  if (p.tools == null) {
    issue("tool_choice", `needs tools: offer the tools, or leave tool_choice out`);
    return;
  }
  if (typeof choice === "object") {
    const name = choice.function?.name;
    if (!p.tools.some((t) => t.function?.name === name))
      issue(
        "tool_choice",
        `names ${JSON.stringify(name)}, which is not one of tools: name one of the offered functions`,
      );
  }
}

// SamplingParams._verify_args and _verify_greedy_sampling.
function samplingRules(p: RuleInput, issue: IssueAt): void {
  const greedy = p.temperature != null && p.temperature < GREEDY_TEMPERATURE;
  if (greedy && p.n != null && p.n > 1 && p.use_beam_search !== true) {
    issue("n", "must be 1 with temperature 0 (greedy sampling gives one reply): raise temperature or set n to 1");
  }
  // max_completion_tokens wins over max_tokens when both are set.
  const maxField = p.max_completion_tokens != null ? "max_completion_tokens" : "max_tokens";
  const max = p.max_completion_tokens ?? p.max_tokens;
  if (max != null && max < 1) issue(maxField, "must be at least 1");
  else if (max != null && p.min_tokens !== undefined && p.min_tokens > max) {
    issue("min_tokens", `must not exceed ${maxField} (${max})`);
  }
}

// An unpaired UTF-16 surrogate cannot become the UTF-8 text a server reads: vLLM refuses it.
// One walk with one path stack: a path is copied only into an issue, since almost no request
// has one (a path per value was most of this rule's cost).
function surrogateIssues(value: unknown, path: (string | number)[], ctx: z.core.$RefinementCtx): void {
  if (typeof value === "string") {
    if (!isWellFormed(value))
      ctx.addIssue({
        code: "custom",
        path: [...path],
        message: "holds an unpaired UTF-16 surrogate (text cut in the middle of a character?): send well-formed text",
      });
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      surrogateIssues(value[i], path, ctx);
      path.pop();
    }
  } else if (typeof value === "object" && value !== null) {
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      if (!isWellFormed(k))
        ctx.addIssue({ code: "custom", path: [...path, k], message: "key holds an unpaired UTF-16 surrogate" });
      path.push(k);
      surrogateIssues((value as Record<string, unknown>)[k], path, ctx);
      path.pop();
    }
  }
}

function allRules(p: RuleInput, ctx: z.core.$RefinementCtx): void {
  requestRules(p, ctx);
  surrogateIssues(p, [], ctx);
}

const request = strictObject(requestShape, { error: unknownKeyMessage }).check(
  z.superRefine((p, ctx) => allRules(p, ctx)),
);
/**
 * The fields of a chat completion request, streaming or not (`stream?: boolean | null`). Use it
 * for a request whose `stream` is only known at run time; {@link ChatCompletionCreateParamsStreaming}
 * and {@link ChatCompletionCreateParamsNonStreaming} fix it. Only `messages` is required.
 */
export interface ChatCompletionCreateParamsBase extends Fields<typeof requestShape> {}

/**
 * The chat completion request, streaming or not (`stream?: boolean | null`).
 * Strict at the top level; enforces the spec's ranges, enums and cross-field rules.
 */
export const chatCompletionCreateParamsSchema: SchemaOf<ChatCompletionCreateParamsBase> = request;

// The two variants below are for callers' own checks; the client validates with the schema
// above. Marked pure so that bundlers drop them from apps that do not use them.

const nonStreamingRequest = /* @__PURE__ */ strictObject(
  { ...requestShape, stream: z.nullish(z.literal(false)) },
  { error: unknownKeyMessage },
).check(/* @__PURE__ */ z.superRefine((p, ctx) => allRules(p, ctx)));
/**
 * A non-streaming request: `stream` absent, `false` or `null`. `create` resolves to a `ChatCompletion`.
 */
export interface ChatCompletionCreateParamsNonStreaming extends ChatCompletionCreateParamsBase {
  /** Absent, `false` or `null`: the whole reply at once. */
  stream?: false | null;
}

/**
 * The non-streaming request: `stream` is absent, `false` or `null`.
 */
export const chatCompletionCreateParamsNonStreamingSchema: SchemaOf<ChatCompletionCreateParamsNonStreaming> =
  nonStreamingRequest;

const streamingRequest = /* @__PURE__ */ strictObject(
  { ...requestShape, stream: z.literal(true) },
  { error: unknownKeyMessage },
).check(/* @__PURE__ */ z.superRefine((p, ctx) => allRules(p, ctx)));
/**
 * A streaming request: `stream: true`. `create` resolves to a `ChatCompletionStream`.
 */
export interface ChatCompletionCreateParamsStreaming extends ChatCompletionCreateParamsBase {
  /** Always `true`: stream the reply as server-sent events. */
  stream: true;
}

/**
 * The streaming request: `stream` is `true`.
 */
export const chatCompletionCreateParamsStreamingSchema: SchemaOf<ChatCompletionCreateParamsStreaming> =
  streamingRequest;

/**
 * Any chat completion request: streaming or not, told apart by `stream`.
 */
export type ChatCompletionCreateParams = ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming;

/**
 * One problem of a request, ready for an error message: the path of the field and why.
 */
export interface RequestIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

/**
 * Turns zod issues of a request into one issue per problem with a precise path: an unknown
 * key gets the key in its path (with a "did you mean" hint at top level), and a union
 * (string or array content) reports the branch the value was meant for.
 * The generic part is the core's `inputIssues`; this adds the request's field hints.
 * @example
 * ```ts
 * const r = chatCompletionCreateParamsSchema.safeParse({ model, messages, max_token: 5 });
 * if (!r.success) for (const i of requestIssues(r.error.issues)) console.log(i.path.join("."), i.message);
 * ```
 */
export function requestIssues(issues: readonly z.core.$ZodIssue[]): RequestIssue[] {
  return inputIssues(issues, requestKeyHint);
}

/**
 * Returns the body to send for validated `params`. The only addition: `continue_final_message:
 * true` without `add_generation_prompt` also sends `add_generation_prompt: false` (vLLM defaults
 * it to true and refuses the pair), in a shallow copy; otherwise `params` itself is sent as
 * written (`tools` without `tool_choice` stays so: vLLM then picks `"auto"`).
 * @example
 * ```ts
 * prepareChatRequest({ messages: [{ role: "assistant", content: "Once upon" }], continue_final_message: true });
 * // => { ..., continue_final_message: true, add_generation_prompt: false }
 * ```
 */
export function prepareChatRequest<P extends ChatCompletionCreateParamsBase>(params: P): P {
  if (params.continue_final_message !== true || params.add_generation_prompt !== undefined) return params;
  return { ...params, add_generation_prompt: false };
}
