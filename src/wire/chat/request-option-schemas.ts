/**
 * Zod schemas for the option objects of a chat request: `response_format`,
 * `stream_options`, `structured_outputs`, `repetition_detection`, `vllm_xargs` and the
 * items of `documents`. All keep unknown keys, as vLLM's models ignore them; the option
 * objects refuse a near miss of a known key (`include_usag`), which vLLM would drop silently.
 * See `request-schema.ts` for the rules every request schema follows.
 *
 * @module
 */
import * as z from "zod/mini";
import { type Fields, looseObject, looseObjectNoTypos, type SchemaOf } from "../request-shapes.js";
import { taggedUnion } from "../tagged-union.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { isBlankToVllm, STRUCTURED_OUTPUTS_CONSTRAINTS, structuredOutputsConstraints } from "./structured-outputs.js";

// English messages, as classic zod gave them, before the first schema below is built.
ensureZodDefaults();

const textFormat = looseObject({
  /** Always `"text"`. */
  type: z.literal("text"),
});
/**
 * `response_format: { type: "text" }`: plain text, the server's default.
 */
export interface ResponseFormatText extends Fields<typeof textFormat.shape> {}

/**
 * `response_format: {type: "text"}`: plain text (the server's default).
 */
export const responseFormatTextSchema: SchemaOf<ResponseFormatText> = textFormat;
const jsonObjectFormat = looseObject({
  /** Always `"json_object"`. */
  type: z.literal("json_object"),
});
/**
 * `response_format: { type: "json_object" }`: the reply is any JSON object.
 */
export interface ResponseFormatJSONObject extends Fields<typeof jsonObjectFormat.shape> {}

/**
 * `response_format: {type: "json_object"}`: any JSON object.
 */
export const responseFormatJSONObjectSchema: SchemaOf<ResponseFormatJSONObject> = jsonObjectFormat;
const jsonSchemaFormat = looseObject({
  /** Always `"json_schema"`. */
  type: z.literal("json_schema"),
  // vLLM names the field "schema"; without it the format adds no constraint.
  /** The schema and its name. */
  json_schema: looseObject({
    /** Name of the format, letters, digits, `_` and `-`. */
    name: z.string(),
    /** What the format is for, shown to the model by some templates. */
    description: z.nullish(z.string()),
    /** The JSON Schema the reply must match. */
    schema: z.nullish(z.record(z.string(), z.unknown())),
    /** Hold the reply to the schema exactly (vLLM always does). */
    strict: z.nullish(z.boolean()),
  }),
});
/**
 * `response_format: { type: "json_schema", json_schema }`: the reply is JSON that matches a
 * JSON Schema. `zodResponseFormat(schema, name)` builds one from a zod schema.
 */
export interface ResponseFormatJSONSchema extends Fields<typeof jsonSchemaFormat.shape> {}

/**
 * `response_format: {type: "json_schema", json_schema: {...}}`: output constrained by a JSON Schema.
 */
export const responseFormatJSONSchemaSchema: SchemaOf<ResponseFormatJSONSchema> = jsonSchemaFormat;
const structuralTagFormat = looseObject({
  /** Always `"structural_tag"`. */
  type: z.literal("structural_tag"),
  /** The structural tag specification (current form), as the backend reads it. */
  format: z.optional(z.unknown()),
  /** Legacy form: the tagged sections, each with its begin and end tags and an optional JSON Schema. */
  structures: z.optional(
    z.array(looseObject({ begin: z.string(), schema: z.nullish(z.record(z.string(), z.unknown())), end: z.string() })),
  ),
  /** Legacy form: the texts that start a tagged section. */
  triggers: z.optional(z.array(z.string())),
}).check(
  z.superRefine((f, ctx) => {
    const v = f as Record<string, unknown>;
    if ("format" in v) return;
    if (Array.isArray(v["structures"]) && Array.isArray(v["triggers"])) return;
    ctx.addIssue({
      code: "custom",
      path: [],
      message: "a structural_tag response_format needs `format`, or `structures` and `triggers` (the legacy form)",
    });
  }),
);
/**
 * `response_format: { type: "structural_tag", ... }` (vLLM extension): constrained sections
 * between trigger tags. vLLM takes `format` (the current form) or `structures` and `triggers`
 * (the legacy form); a tag with neither is refused.
 */
export interface ResponseFormatStructuralTag extends Fields<typeof structuralTagFormat.shape> {}

/**
 * `response_format: {type: "structural_tag", ...}` (vLLM extension; members kept as given).
 */
export const responseFormatStructuralTagSchema: SchemaOf<ResponseFormatStructuralTag> = structuralTagFormat;

const responseFormat = taggedUnion("type", [textFormat, jsonObjectFormat, jsonSchemaFormat, structuralTagFormat]);
/**
 * Any `response_format`, chosen by `type`.
 */
export const responseFormatSchema: SchemaOf<ResponseFormat> = responseFormat;

/**
 * Any `response_format`, told apart by `type`.
 */
export type ResponseFormat =
  | ResponseFormatText
  | ResponseFormatJSONObject
  | ResponseFormatJSONSchema
  | ResponseFormatStructuralTag;
const streamOptions = looseObjectNoTypos({
  /** Send a last chunk with `choices: []` and the token `usage` of the whole reply. Default false. */
  include_usage: z.nullish(z.boolean()),
  /** With `include_usage`, every chunk also carries the usage so far. Default false. */
  continuous_usage_stats: z.nullish(z.boolean()),
  /** Add random padding to each chunk against length side channels (OpenAI's field; vLLM accepts it). */
  include_obfuscation: z.nullish(z.boolean()),
});
/**
 * `stream_options`: what a streamed reply reports besides the text. Only with `stream: true`
 * (an empty object is accepted either way).
 */
export interface ChatCompletionStreamOptions extends Fields<typeof streamOptions.shape> {}

/**
 * `stream_options` (only meaningful with `stream: true`).
 */
export const chatCompletionStreamOptionsSchema: SchemaOf<ChatCompletionStreamOptions> = streamOptions;
const structuredOutputs = looseObjectNoTypos({
  /** The reply is JSON matching this JSON Schema (an object, or its JSON text). */
  json: z.nullish(z.union([z.string(), z.record(z.string(), z.unknown())])),
  /** The reply matches this regular expression. */
  regex: z.nullish(z.string()),
  /** The reply is exactly one of these strings. */
  choice: z.nullish(z.array(z.string())),
  /** The reply matches this context-free grammar (EBNF / GBNF, as the backend reads it). */
  grammar: z.nullish(z.string()),
  /** `true`: the reply is any JSON object. */
  json_object: z.nullish(z.boolean()),
  /**
   * Fail rather than fall back to another decoding backend. Default false.
   * @deprecated Dropped silently by current vLLM.
   */
  disable_fallback: z.optional(z.boolean()),
  /** Forbid whitespace between JSON tokens. Default false. */
  disable_any_whitespace: z.optional(z.boolean()),
  /** Forbid properties the JSON Schema does not name. Default false. */
  disable_additional_properties: z.optional(z.boolean()),
  /** Regular expression the whitespace between JSON tokens must match. */
  whitespace_pattern: z.nullish(z.string()),
  /** A structural tag specification, as a JSON text. */
  structural_tag: z.nullish(z.string()),
  /**
   * Decoding backend to use.
   * @deprecated Set by the server; dropped silently by current vLLM.
   */
  _backend: z.nullish(z.string()),
  /**
   * Whether the backend was chosen automatically. Default false.
   * @deprecated Set by the server; dropped silently by current vLLM.
   */
  _backend_was_auto: z.optional(z.boolean()),
}).check(
  z.superRefine((so, ctx) => {
    const set = structuredOutputsConstraints(so);
    if (set.length !== 1)
      ctx.addIssue({
        code: "custom",
        path: [],
        message: `needs exactly one of ${STRUCTURED_OUTPUTS_CONSTRAINTS.join(", ")}, got ${set.join(", ") || "none"}`,
      });
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    // What vLLM's structured-output backends refuse (vllm/v1/structured_output): a constraint
    // that is falsy there finds no grammar, and NUL never reaches the regex compiler.
    if (Array.isArray(so.choice) && so.choice.length === 0) issue("choice", "is empty: give at least one choice");
    // vLLM strips these texts before checking them: whitespace alone is empty there.
    if (typeof so.grammar === "string" && isBlankToVllm(so.grammar))
      issue("grammar", `is ${so.grammar === "" ? "empty" : "blank"}: give a grammar`);
    if (typeof so.json === "string" && isBlankToVllm(so.json))
      issue("json", `is ${so.json === "" ? "empty" : "blank"}: give a JSON Schema (an object or its JSON text)`);
    if (so.structural_tag === "") issue("structural_tag", "is empty: give a structural tag specification");
    if (typeof so.regex === "string" && so.regex.includes("\u0000"))
      issue("regex", "contains a NUL character, which vLLM refuses");
  }),
);
/**
 * `structured_outputs` (vLLM): constrain the reply. Exactly one constraint among `json`,
 * `regex`, `choice`, `grammar`, `json_object` and `structural_tag`; the other members tune it.
 * It cannot be combined with a `json_schema` or `json_object` `response_format`.
 */
export interface StructuredOutputsParams extends Fields<typeof structuredOutputs.shape> {}

/**
 * `structured_outputs`: exactly one constraint among json, regex, choice, grammar,
 * json_object and structural_tag (vLLM refuses none and several; a non-null value counts,
 * `json_object: false` included), plus tuning flags. `json` also accepts a schema object, as
 * vLLM does. `disable_fallback`, `_backend` and `_backend_was_auto` are the spec's; current
 * vLLM drops them silently.
 */
export const structuredOutputsParamsSchema: SchemaOf<StructuredOutputsParams> = structuredOutputs;

// RepetitionDetectionParams' sizes are Python ints of any size (a pydantic dataclass reads
// 2^64 as well as 4); z.int() would stop at 2^53. (From 10^21, JSON's exponent form, see vllm-limits.ts.)
const pythonInt = (min?: number) =>
  z.number().check((ctx) => {
    const v = ctx.value;
    if (!Number.isInteger(v) || (min !== undefined && v < min))
      ctx.issues.push({
        code: "custom",
        input: v,
        message: min === undefined ? "must be an integer" : `must be an integer, at least ${min}`,
      });
  });
const repetitionDetection = looseObjectNoTypos({
  /** Longest pattern looked for, in tokens; at least `min_pattern_size`. */
  max_pattern_size: z.optional(pythonInt(0)),
  /** Shortest pattern looked for, in tokens. */
  min_pattern_size: z.optional(pythonInt(0)),
  /** Repetitions of a pattern that end generation; at least 2. */
  min_count: z.optional(pythonInt()),
}).check(
  z.superRefine((rd, ctx) => {
    // Absent members take vLLM's defaults (0), as in RepetitionDetectionParams.__post_init__,
    // which checks min_count only when detection is on (max_pattern_size above 0).
    const max = rd.max_pattern_size ?? 0;
    if (max > 0 && (rd.min_count ?? 0) < 2)
      ctx.addIssue({
        code: "custom",
        path: ["min_count"],
        message:
          "must be at least 2 when max_pattern_size is above 0 (set max_pattern_size to 0 to turn detection off)",
      });
    if ((rd.min_pattern_size ?? 0) > max)
      ctx.addIssue({ code: "custom", path: ["min_pattern_size"], message: "must not exceed max_pattern_size" });
  }),
);
/**
 * `repetition_detection`: end generation early when an n-gram pattern of the output repeats.
 */
export interface RepetitionDetectionParams extends Fields<typeof repetitionDetection.shape> {}

/**
 * `repetition_detection`: stop early when an n-gram pattern repeats in the output. vLLM
 * refuses `min_count < 2` and `min_pattern_size > max_pattern_size` (absent sizes are 0).
 */
export const repetitionDetectionParamsSchema: SchemaOf<RepetitionDetectionParams> = repetitionDetection;

// vLLM reads booleans here as integers (pydantic's lax mode), so they are accepted too.
const xargValue = z.union([z.string(), z.number(), z.boolean()]);
const engineXargs = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(xargValue)]));
/**
 * Extension parameters (`vllm_xargs`): values are strings, numbers or lists of them, for
 * server plugins that read them.
 */
export type EngineXargs = Record<string, string | number | boolean | (string | number | boolean)[]>;

/**
 * `vllm_xargs`: extension parameters; values are strings, numbers or lists of them. (The
 * spec's `engine_xargs` is no field of vLLM's request model: vLLM keeps it unread, whatever it
 * holds, so the SDK sends it as written.)
 */
export const engineXargsSchema: SchemaOf<EngineXargs> = engineXargs;

const document = z.catchall(
  z.object({
    /** The document's title. */
    title: z.optional(z.string()),
    /** The document's text. */
    text: z.optional(z.string()),
  }),
  z.string(),
);
/**
 * A document for retrieval-augmented chat templates. It should carry `title` and `text`; other
 * string members are passed to the template too.
 */
export interface ChatCompletionDocument extends Fields<typeof document.shape> {
  /** Further string members the template may use. */
  [key: string]: string | undefined;
}

/**
 * A document for retrieval-augmented templates; it should carry `title` and `text`.
 */
export const chatCompletionDocumentSchema: SchemaOf<ChatCompletionDocument> = document;
