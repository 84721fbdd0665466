/**
 * Zod schemas for the body of `POST /v1/chat/completions`.
 *
 * Rules that hold for every schema in this file:
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
 *
 * @module
 */
import * as z from "zod/mini";
import { inputIssues, type UnknownKeyHint } from "../../core/validate.js";
import { taggedUnion } from "../tagged-union.js";
import { ensureZodDefaults } from "../zod-defaults.js";

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
// Content parts
// ---------------------------------------------------------------------------

/**
 * A text content part.
 * @example
 * chatCompletionContentPartTextSchema.parse({ type: "text", text: "Hello" });
 */
export const chatCompletionContentPartTextSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
});

/**
 * An image content part, by URL or `data:` URL.
 * @example
 * chatCompletionContentPartImageSchema.parse({
 *   type: "image_url",
 *   image_url: { url: "https://example.com/cat.png", detail: "low" },
 * });
 */
export const chatCompletionContentPartImageSchema = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({
    url: z.string(),
    detail: z.optional(z.string()),
  }),
});

/**
 * An inline audio content part (base64 data).
 * @example
 * chatCompletionContentPartInputAudioSchema.parse({
 *   type: "input_audio",
 *   input_audio: { data: "UklGR...", format: "wav" },
 * });
 */
export const chatCompletionContentPartInputAudioSchema = z.looseObject({
  type: z.literal("input_audio"),
  input_audio: z.looseObject({
    data: z.string(),
    format: z.string(),
  }),
});

/**
 * An audio content part by URL (vLLM extension).
 * @example
 * chatCompletionContentPartAudioUrlSchema.parse({
 *   type: "audio_url",
 *   audio_url: { url: "https://example.com/a.wav" },
 * });
 */
export const chatCompletionContentPartAudioUrlSchema = z.looseObject({
  type: z.literal("audio_url"),
  audio_url: z.looseObject({ url: z.string() }),
});

/**
 * A video content part by URL (vLLM extension).
 * @example
 * chatCompletionContentPartVideoUrlSchema.parse({
 *   type: "video_url",
 *   video_url: { url: "https://example.com/clip.mp4" },
 * });
 */
export const chatCompletionContentPartVideoUrlSchema = z.looseObject({
  type: z.literal("video_url"),
  video_url: z.looseObject({ url: z.string() }),
});

/**
 * A file content part: inline data, an uploaded file id, or both.
 * @example
 * chatCompletionContentPartFileSchema.parse({
 *   type: "file",
 *   file: { file_data: "data:application/pdf;base64,JVBER...", filename: "a.pdf" },
 * });
 */
export const chatCompletionContentPartFileSchema = z.looseObject({
  type: z.literal("file"),
  file: z.looseObject({
    file_data: z.optional(z.string()),
    file_id: z.optional(z.string()),
    filename: z.optional(z.string()),
  }),
});

/**
 * Precomputed image embeddings (vLLM extension): a base64 tensor or a map of them.
 * @example
 * chatCompletionContentPartImageEmbedsSchema.parse({ type: "image_embeds", image_embeds: "k05VTVBZ..." });
 */
export const chatCompletionContentPartImageEmbedsSchema = z.looseObject({
  type: z.literal("image_embeds"),
  image_embeds: z.union([z.string(), z.record(z.string(), z.string())]),
});

/**
 * A refusal content part (assistant messages only).
 * @example
 * chatCompletionContentPartRefusalSchema.parse({ type: "refusal", refusal: "I can't help with that." });
 */
export const chatCompletionContentPartRefusalSchema = z.looseObject({
  type: z.literal("refusal"),
  refusal: z.string(),
});

// Listed once for the user-content union and again, with refusals, for custom/generic content
// (mini unions have no `.options` to spread).
const userContentParts = [
  chatCompletionContentPartTextSchema,
  chatCompletionContentPartImageSchema,
  chatCompletionContentPartInputAudioSchema,
  chatCompletionContentPartAudioUrlSchema,
  chatCompletionContentPartVideoUrlSchema,
  chatCompletionContentPartFileSchema,
  chatCompletionContentPartImageEmbedsSchema,
] as const;

/**
 * Any content part a user message may carry; an unknown `type` is refused.
 * @example
 * chatCompletionContentPartSchema.parse({ type: "text", text: "What is in this image?" });
 */
export const chatCompletionContentPartSchema = taggedUnion("type", userContentParts);

/**
 * A content part of an assistant message: text or refusal.
 * @example
 * chatCompletionAssistantContentPartSchema.parse({ type: "refusal", refusal: "No." });
 */
export const chatCompletionAssistantContentPartSchema = taggedUnion("type", [
  chatCompletionContentPartTextSchema,
  chatCompletionContentPartRefusalSchema,
]);

const textContent = z.union([z.string(), z.array(chatCompletionContentPartTextSchema)]);
const userContent = z.union([z.string(), z.array(chatCompletionContentPartSchema)]);
const anyContentPart = taggedUnion("type", [
  ...userContentParts,
  chatCompletionContentPartRefusalSchema,
]);
const anyContent = z.union([z.string(), z.array(anyContentPart)]);

// ---------------------------------------------------------------------------
// Tool calls and tools
// ---------------------------------------------------------------------------

/**
 * A tool call inside an assistant message being sent back (for example a replayed reply).
 * @example
 * chatCompletionMessageToolCallParamSchema.parse({
 *   id: "call_1",
 *   type: "function",
 *   function: { name: "get_weather", arguments: "{\"city\":\"Paris\"}" },
 * });
 */
export const chatCompletionMessageToolCallParamSchema = z.looseObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string(),
    arguments: z.string(),
  }),
});

/**
 * A function the model may call: name, description and JSON Schema of its parameters.
 * @example
 * functionDefinitionSchema.parse({
 *   name: "get_weather",
 *   description: "Current weather of a city",
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 * });
 */
export const functionDefinitionSchema = z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  parameters: z.optional(z.record(z.string(), z.unknown())),
  strict: z.nullish(z.boolean()),
});

/**
 * An item of `tools`: `type` is always `"function"`.
 * @example
 * chatCompletionToolSchema.parse({ type: "function", function: { name: "get_time" } });
 */
export const chatCompletionToolSchema = z.looseObject({
  type: z.literal("function"),
  function: functionDefinitionSchema,
});

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

/**
 * A developer message (replaces system messages for newer reasoning-style models).
 * @example
 * chatCompletionDeveloperMessageParamSchema.parse({ role: "developer", content: "Answer tersely." });
 */
export const chatCompletionDeveloperMessageParamSchema = z.looseObject({
  role: z.literal("developer"),
  content: textContent,
  name: z.optional(z.string()),
});

/**
 * A system message.
 * @example
 * chatCompletionSystemMessageParamSchema.parse({ role: "system", content: "You are helpful." });
 */
export const chatCompletionSystemMessageParamSchema = z.looseObject({
  role: z.literal("system"),
  content: textContent,
  name: z.optional(z.string()),
});

/**
 * A user message: a string, or an array of content parts (text, images, audio, video, files).
 * @example
 * chatCompletionUserMessageParamSchema.parse({
 *   role: "user",
 *   content: [
 *     { type: "text", text: "Describe this" },
 *     { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
 *   ],
 * });
 */
export const chatCompletionUserMessageParamSchema = z.looseObject({
  role: z.literal("user"),
  content: userContent,
  name: z.optional(z.string()),
});

/**
 * An assistant message. `content` may be null or absent only when the message carries
 * something else: `tool_calls`, `function_call`, `refusal` or `reasoning`. The nullable
 * fields accept a reply message as returned by the server, so it can be sent back as is.
 * @example
 * chatCompletionAssistantMessageParamSchema.parse({
 *   role: "assistant",
 *   content: null,
 *   tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
 * });
 */
export const chatCompletionAssistantMessageParamSchema = z
  .looseObject({
    role: z.literal("assistant"),
    content: z.nullish(z.union([z.string(), z.array(chatCompletionAssistantContentPartSchema)])),
    name: z.optional(z.string()),
    refusal: z.nullish(z.string()),
    tool_calls: z.nullish(z.array(chatCompletionMessageToolCallParamSchema)),
    function_call: z.nullish(z.looseObject({ name: z.string(), arguments: z.string() })),
    reasoning: z.nullish(z.string()),
    reasoning_content: z.nullish(z.string()),
    audio: z.nullish(z.looseObject({ id: z.string() })),
  })
  .check(
    z.superRefine((m, ctx) => {
      if (
        m.content == null &&
        m.tool_calls == null &&
        m.function_call == null &&
        m.refusal == null &&
        m.reasoning == null &&
        m.reasoning_content == null
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["content"],
          message: "assistant message needs content unless it has tool_calls, function_call, refusal or reasoning",
        });
      }
    }),
  );

/**
 * A tool result, answering the assistant tool call with the same `tool_call_id`.
 * @example
 * chatCompletionToolMessageParamSchema.parse({ role: "tool", tool_call_id: "call_1", content: "18°C" });
 */
export const chatCompletionToolMessageParamSchema = z.looseObject({
  role: z.literal("tool"),
  content: textContent,
  tool_call_id: z.string(),
  name: z.optional(z.string()),
});

/**
 * A function result (deprecated form of tool messages): `name` is the function's name.
 * @example
 * chatCompletionFunctionMessageParamSchema.parse({ role: "function", name: "get_time", content: "12:00" });
 */
export const chatCompletionFunctionMessageParamSchema = z.looseObject({
  role: z.literal("function"),
  name: z.string(),
  content: z.nullable(z.string()),
});

/**
 * The spec's "custom" message kind: role `"custom"`, any content (or null), plus the
 * per-message fields vLLM's free-form message carries (`tool_call_id`, `tool_calls`,
 * `reasoning`). Unknown roles stay refused: the role must literally be `"custom"`.
 * @example
 * chatCompletionCustomMessageParamSchema.parse({ role: "custom", content: "state: ready" });
 */
export const chatCompletionCustomMessageParamSchema = z.looseObject({
  role: z.literal("custom"),
  content: z.nullish(anyContent),
  name: z.optional(z.string()),
  tool_call_id: z.optional(z.string()),
  tool_calls: z.nullish(z.array(chatCompletionMessageToolCallParamSchema)),
  reasoning: z.nullish(z.string()),
});

/**
 * The spec's "generic" message kind: role `"generic"` with content and an optional name.
 * @example
 * chatCompletionGenericMessageParamSchema.parse({ role: "generic", content: "note" });
 */
export const chatCompletionGenericMessageParamSchema = z.looseObject({
  role: z.literal("generic"),
  content: anyContent,
  name: z.optional(z.string()),
});

/**
 * Any message of `messages`, chosen by `role`. Roles: developer, system, user, assistant,
 * tool, function, custom, generic. Any other role is refused (issue path ends in `role`).
 * @example
 * chatCompletionMessageParamSchema.parse({ role: "user", content: "Hi" });
 */
export const chatCompletionMessageParamSchema = taggedUnion("role", [
  chatCompletionDeveloperMessageParamSchema,
  chatCompletionSystemMessageParamSchema,
  chatCompletionUserMessageParamSchema,
  chatCompletionAssistantMessageParamSchema,
  chatCompletionToolMessageParamSchema,
  chatCompletionFunctionMessageParamSchema,
  chatCompletionCustomMessageParamSchema,
  chatCompletionGenericMessageParamSchema,
]);

// ---------------------------------------------------------------------------
// Option objects
// ---------------------------------------------------------------------------

/**
 * `response_format: {type: "text"}`: plain text (the server's default).
 * @example
 * responseFormatTextSchema.parse({ type: "text" });
 */
export const responseFormatTextSchema = z.looseObject({ type: z.literal("text") });

/**
 * `response_format: {type: "json_object"}`: any JSON object.
 * @example
 * responseFormatJSONObjectSchema.parse({ type: "json_object" });
 */
export const responseFormatJSONObjectSchema = z.looseObject({ type: z.literal("json_object") });

/**
 * `response_format: {type: "json_schema", json_schema: {...}}`: output constrained by a JSON Schema.
 * @example
 * responseFormatJSONSchemaSchema.parse({
 *   type: "json_schema",
 *   json_schema: { name: "answer", schema: { type: "object" }, strict: true },
 * });
 */
export const responseFormatJSONSchemaSchema = z.looseObject({
  type: z.literal("json_schema"),
  json_schema: z.looseObject({
    name: z.string(),
    description: z.nullish(z.string()),
    schema: z.optional(z.record(z.string(), z.unknown())),
    strict: z.nullish(z.boolean()),
  }),
});

/**
 * `response_format: {type: "structural_tag", ...}` (vLLM extension; members kept as given).
 * @example
 * responseFormatStructuralTagSchema.parse({ type: "structural_tag", structures: [], triggers: [] });
 */
export const responseFormatStructuralTagSchema = z.looseObject({ type: z.literal("structural_tag") });

/**
 * Any `response_format`, chosen by `type`.
 * @example
 * responseFormatSchema.parse({ type: "json_object" });
 */
export const responseFormatSchema = taggedUnion("type", [
  responseFormatTextSchema,
  responseFormatJSONObjectSchema,
  responseFormatJSONSchemaSchema,
  responseFormatStructuralTagSchema,
]);

/**
 * `stream_options` (only meaningful with `stream: true`).
 * @example
 * chatCompletionStreamOptionsSchema.parse({ include_usage: true, continuous_usage_stats: false });
 */
export const chatCompletionStreamOptionsSchema = z.strictObject({
  include_usage: z.optional(z.boolean()),
  continuous_usage_stats: z.optional(z.boolean()),
});

const STRUCTURED_CONSTRAINTS = ["json", "regex", "choice", "grammar", "json_object", "structural_tag"] as const;

/**
 * `structured_outputs`: exactly one constraint kind among json, regex, choice, grammar,
 * json_object and structural_tag (the server refuses several), plus tuning flags.
 * `json` also accepts a schema object, as vLLM does.
 * @example
 * structuredOutputsParamsSchema.parse({ choice: ["yes", "no"] });
 */
export const structuredOutputsParamsSchema = z
  .strictObject({
    json: z.optional(z.union([z.string(), z.record(z.string(), z.unknown())])),
    regex: z.optional(z.string()),
    choice: z.optional(z.array(z.string())),
    grammar: z.optional(z.string()),
    json_object: z.optional(z.boolean()),
    disable_fallback: z.optional(z.boolean()),
    disable_any_whitespace: z.optional(z.boolean()),
    disable_additional_properties: z.optional(z.boolean()),
    whitespace_pattern: z.optional(z.string()),
    structural_tag: z.optional(z.string()),
    _backend: z.optional(z.string()),
    _backend_was_auto: z.optional(z.boolean()),
  })
  .check(
    z.superRefine((so, ctx) => {
      // json_object: false is "not set" for the server, so only true counts.
      const set = STRUCTURED_CONSTRAINTS.filter((k) =>
        k === "json_object" ? so.json_object === true : so[k] !== undefined,
      );
      if (set.length > 1) {
        ctx.addIssue({
          code: "custom",
          path: [set[1]!],
          message: `only one kind of structured outputs constraint may be set, got ${set.join(", ")}`,
        });
      }
    }),
  );

/**
 * `repetition_detection`: stop early when an n-gram pattern repeats in the output.
 * @example
 * repetitionDetectionParamsSchema.parse({ min_pattern_size: 2, max_pattern_size: 16, min_count: 4 });
 */
export const repetitionDetectionParamsSchema = z.strictObject({
  max_pattern_size: z.optional(z.int()),
  min_pattern_size: z.optional(z.int()),
  min_count: z.optional(z.int()),
});

/**
 * `engine_xargs`: extension parameters; values are strings, numbers or lists of them.
 * @example
 * engineXargsSchema.parse({ my_ext: "on", thresholds: [0.1, 0.2] });
 */
export const engineXargsSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]),
);

/**
 * A document for retrieval-augmented templates; it should carry `title` and `text`.
 * @example
 * chatCompletionDocumentSchema.parse({ title: "Intro", text: "Paris is the capital of France." });
 */
export const chatCompletionDocumentSchema = z.catchall(
  z.object({ title: z.optional(z.string()), text: z.optional(z.string()) }),
  z.string(),
);

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
  let best: string | undefined;
  let bestDistance = 3; // farther than 2 edits is a different word, not a typo
  for (const field of KNOWN_FIELDS) {
    const d = editDistance(key, field, bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = field;
    }
  }
  return best;
}

function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
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
      message: "continue_final_message and add_generation_prompt cannot be combined: set add_generation_prompt to false",
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
export const chatCompletionCreateParamsSchema = z
  .strictObject(requestShape, { error: unknownKeyMessage })
  .check(z.superRefine((p, ctx) => requestRules(p, ctx)));

// The two variants below are for callers' own checks; the client validates with the schema
// above. Marked pure so that bundlers drop them from apps that do not use them.

/**
 * The non-streaming request: `stream` is absent, `false` or `null`.
 * @example
 * chatCompletionCreateParamsNonStreamingSchema.parse({ messages: [{ role: "user", content: "Hi" }] });
 */
export const chatCompletionCreateParamsNonStreamingSchema = /* @__PURE__ */ z
  .strictObject({ ...requestShape, stream: z.nullish(z.literal(false)) }, { error: unknownKeyMessage })
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
export const chatCompletionCreateParamsStreamingSchema = /* @__PURE__ */ z
  .strictObject({ ...requestShape, stream: z.literal(true) }, { error: unknownKeyMessage })
  .check(/* @__PURE__ */ z.superRefine((p, ctx) => requestRules(p, ctx)));

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

/**
 * A content part text of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartText = { type: "text", text: "Hi" };
 */
export type ChatCompletionContentPartText = z.input<typeof chatCompletionContentPartTextSchema>;
/**
 * A content part image of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartImage = { type: "image_url", image_url: { url: "https://x/y.png" } };
 */
export type ChatCompletionContentPartImage = z.input<typeof chatCompletionContentPartImageSchema>;
/**
 * A content part input audio of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartInputAudio = { type: "input_audio", input_audio: { data: "...", format: "wav" } };
 */
export type ChatCompletionContentPartInputAudio = z.input<typeof chatCompletionContentPartInputAudioSchema>;
/**
 * A content part audio url of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartAudioUrl = { type: "audio_url", audio_url: { url: "https://x/a.wav" } };
 */
export type ChatCompletionContentPartAudioUrl = z.input<typeof chatCompletionContentPartAudioUrlSchema>;
/**
 * A content part video url of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartVideoUrl = { type: "video_url", video_url: { url: "https://x/v.mp4" } };
 */
export type ChatCompletionContentPartVideoUrl = z.input<typeof chatCompletionContentPartVideoUrlSchema>;
/**
 * A content part file of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartFile = { type: "file", file: { file_id: "file-1" } };
 */
export type ChatCompletionContentPartFile = z.input<typeof chatCompletionContentPartFileSchema>;
/**
 * A content part image embeds of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartImageEmbeds = { type: "image_embeds", image_embeds: "k05VTVBZ..." };
 */
export type ChatCompletionContentPartImageEmbeds = z.input<typeof chatCompletionContentPartImageEmbedsSchema>;
/**
 * A content part refusal of a chat completion request.
 *
 * @example
 * const p: ChatCompletionContentPartRefusal = { type: "refusal", refusal: "No." };
 */
export type ChatCompletionContentPartRefusal = z.input<typeof chatCompletionContentPartRefusalSchema>;
/** Any content part of a user message. @example const p: ChatCompletionContentPart = { type: "text", text: "Hi" }; */
export type ChatCompletionContentPart = z.input<typeof chatCompletionContentPartSchema>;
/**
 * A assistant content part of a chat completion request.
 *
 * @example
 * const p: ChatCompletionAssistantContentPart = { type: "text", text: "Sure." };
 */
export type ChatCompletionAssistantContentPart = z.input<typeof chatCompletionAssistantContentPartSchema>;

/**
 * A message tool call param of a chat completion request.
 *
 * @example
 * const c: ChatCompletionMessageToolCallParam = { id: "call_1", type: "function", function: { name: "f", arguments: "{}" } };
 */
export type ChatCompletionMessageToolCallParam = z.input<typeof chatCompletionMessageToolCallParamSchema>;
/**
 * A function definition of a chat completion request.
 *
 * @example
 * const f: FunctionDefinition = { name: "get_time", parameters: { type: "object" } };
 */
export type FunctionDefinition = z.input<typeof functionDefinitionSchema>;
/**
 * A tool of a chat completion request.
 *
 * @example
 * const t: ChatCompletionTool = { type: "function", function: { name: "get_time" } };
 */
export type ChatCompletionTool = z.input<typeof chatCompletionToolSchema>;

/**
 * A developer message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionDeveloperMessageParam = { role: "developer", content: "Be brief." };
 */
export type ChatCompletionDeveloperMessageParam = z.input<typeof chatCompletionDeveloperMessageParamSchema>;
/**
 * A system message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionSystemMessageParam = { role: "system", content: "You are helpful." };
 */
export type ChatCompletionSystemMessageParam = z.input<typeof chatCompletionSystemMessageParamSchema>;
/**
 * A user message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionUserMessageParam = { role: "user", content: "Hi" };
 */
export type ChatCompletionUserMessageParam = z.input<typeof chatCompletionUserMessageParamSchema>;
/**
 * A assistant message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionAssistantMessageParam = { role: "assistant", content: "Hello!" };
 */
export type ChatCompletionAssistantMessageParam = z.input<typeof chatCompletionAssistantMessageParamSchema>;
/**
 * A tool message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionToolMessageParam = { role: "tool", tool_call_id: "call_1", content: "42" };
 */
export type ChatCompletionToolMessageParam = z.input<typeof chatCompletionToolMessageParamSchema>;
/**
 * A function message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionFunctionMessageParam = { role: "function", name: "f", content: "42" };
 */
export type ChatCompletionFunctionMessageParam = z.input<typeof chatCompletionFunctionMessageParamSchema>;
/**
 * A custom message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionCustomMessageParam = { role: "custom", content: "state: ready" };
 */
export type ChatCompletionCustomMessageParam = z.input<typeof chatCompletionCustomMessageParamSchema>;
/**
 * A generic message param of a chat completion request.
 *
 * @example
 * const m: ChatCompletionGenericMessageParam = { role: "generic", content: "note" };
 */
export type ChatCompletionGenericMessageParam = z.input<typeof chatCompletionGenericMessageParamSchema>;
/** Any message of `messages`. @example const msgs: ChatCompletionMessageParam[] = [{ role: "user", content: "Hi" }]; */
export type ChatCompletionMessageParam = z.input<typeof chatCompletionMessageParamSchema>;
/** The `role` values accepted in `messages`. @example const r: ChatCompletionRole = "assistant"; */
export type ChatCompletionRole = ChatCompletionMessageParam["role"];

/**
 * A response format text of a chat completion request.
 *
 * @example
 * const f: ResponseFormatText = { type: "text" };
 */
export type ResponseFormatText = z.input<typeof responseFormatTextSchema>;
/**
 * A response formatjson object of a chat completion request.
 *
 * @example
 * const f: ResponseFormatJSONObject = { type: "json_object" };
 */
export type ResponseFormatJSONObject = z.input<typeof responseFormatJSONObjectSchema>;
/**
 * A response formatjson schema of a chat completion request.
 *
 * @example
 * const f: ResponseFormatJSONSchema = { type: "json_schema", json_schema: { name: "a", schema: {} } };
 */
export type ResponseFormatJSONSchema = z.input<typeof responseFormatJSONSchemaSchema>;
/**
 * A response format structural tag of a chat completion request.
 *
 * @example
 * const f: ResponseFormatStructuralTag = { type: "structural_tag", structures: [] };
 */
export type ResponseFormatStructuralTag = z.input<typeof responseFormatStructuralTagSchema>;
/**
 * A response format of a chat completion request.
 *
 * @example
 * const f: ResponseFormat = { type: "json_object" };
 */
export type ResponseFormat = z.input<typeof responseFormatSchema>;
/**
 * A stream options of a chat completion request.
 *
 * @example
 * const o: ChatCompletionStreamOptions = { include_usage: true };
 */
export type ChatCompletionStreamOptions = z.input<typeof chatCompletionStreamOptionsSchema>;
/**
 * A structured outputs params of a chat completion request.
 *
 * @example
 * const s: StructuredOutputsParams = { regex: "\\d+" };
 */
export type StructuredOutputsParams = z.input<typeof structuredOutputsParamsSchema>;
/**
 * A repetition detection params of a chat completion request.
 *
 * @example
 * const r: RepetitionDetectionParams = { min_count: 3 };
 */
export type RepetitionDetectionParams = z.input<typeof repetitionDetectionParamsSchema>;
/**
 * A engine xargs of a chat completion request.
 *
 * @example
 * const x: EngineXargs = { my_flag: 1, tags: ["a", "b"] };
 */
export type EngineXargs = z.input<typeof engineXargsSchema>;
/**
 * A document of a chat completion request.
 *
 * @example
 * const d: ChatCompletionDocument = { title: "Intro", text: "..." };
 */
export type ChatCompletionDocument = z.input<typeof chatCompletionDocumentSchema>;

/**
 * Request fields with `stream?: boolean | null`, for callers whose `stream` is not a literal.
 * @example
 * const p: ChatCompletionCreateParamsBase = { messages: [{ role: "user", content: "Hi" }], stream: Math.random() > 0.5 };
 */
export type ChatCompletionCreateParamsBase = z.input<typeof chatCompletionCreateParamsSchema>;
/**
 * A non-streaming request (`stream` absent, `false` or `null`).
 * @example
 * const p: ChatCompletionCreateParamsNonStreaming = { model: "m", messages: [{ role: "user", content: "Hi" }] };
 */
export type ChatCompletionCreateParamsNonStreaming = z.input<typeof chatCompletionCreateParamsNonStreamingSchema>;
/**
 * A streaming request (`stream: true`).
 * @example
 * const p: ChatCompletionCreateParamsStreaming = { model: "m", messages: [{ role: "user", content: "Hi" }], stream: true };
 */
export type ChatCompletionCreateParamsStreaming = z.input<typeof chatCompletionCreateParamsStreamingSchema>;
/**
 * Any chat completion request.
 * @example
 * const p: ChatCompletionCreateParams = { messages: [{ role: "user", content: "Hi" }], max_completion_tokens: 64 };
 */
export type ChatCompletionCreateParams = ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming;

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
