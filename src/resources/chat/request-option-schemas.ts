/**
 * Zod schemas for the option objects of a chat request: `response_format`,
 * `stream_options`, `structured_outputs`, `repetition_detection`, `engine_xargs` and the
 * items of `documents`. All keep unknown keys, as vLLM's models ignore them; the option
 * objects refuse a near miss of a known key (`include_usag`), which vLLM would drop silently.
 * See `request-schema.ts` for the rules every request schema follows.
 *
 * @module
 */
import * as z from "zod/mini";
import type { Agrees, Check, SchemaOf } from "../schema-agreement.js";
import { nearMisses, taggedUnion } from "../tagged-union.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { STRUCTURED_OUTPUTS_CONSTRAINTS, structuredOutputsConstraints } from "./structured-outputs.js";
import type {
  ChatCompletionDocument,
  ChatCompletionStreamOptions,
  EngineXargs,
  RepetitionDetectionParams,
  ResponseFormat,
  ResponseFormatJSONObject,
  ResponseFormatJSONSchema,
  ResponseFormatStructuralTag,
  ResponseFormatText,
  StructuredOutputsParams,
} from "./request-option-types.js";

export type * from "./request-option-types.js";

// English messages, as classic zod gave them, before the first schema below is built.
ensureZodDefaults();

// vLLM's option models ignore keys they do not know (pydantic's default), so unknown keys are
// kept and sent; a near miss of a known key (`include_usgae`) is refused with a "did you mean",
// since the server would silently drop it.
function looseOption<S extends z.core.$ZodLooseShape>(shape: S) {
  const known = Object.keys(shape);
  return z.looseObject(shape).check(
    z.superRefine((value, ctx) => {
      const issues: z.core.$ZodRawIssue[] = [];
      nearMisses(value, known, issues);
      for (const i of issues) ctx.addIssue(i as z.core.$ZodRawIssue<z.core.$ZodIssueCustom>);
    }),
  );
}

const textFormat = z.looseObject({ type: z.literal("text") });
/**
 * `response_format: {type: "text"}`: plain text (the server's default).
 * @example
 * responseFormatTextSchema.parse({ type: "text" });
 */
export const responseFormatTextSchema: SchemaOf<ResponseFormatText> = textFormat;

const jsonObjectFormat = z.looseObject({ type: z.literal("json_object") });
/**
 * `response_format: {type: "json_object"}`: any JSON object.
 * @example
 * responseFormatJSONObjectSchema.parse({ type: "json_object" });
 */
export const responseFormatJSONObjectSchema: SchemaOf<ResponseFormatJSONObject> = jsonObjectFormat;

const jsonSchemaFormat = z.looseObject({
  type: z.literal("json_schema"),
  // vLLM names the field "schema"; without it the format adds no constraint.
  json_schema: z.looseObject({
    name: z.string(),
    description: z.nullish(z.string()),
    schema: z.nullish(z.record(z.string(), z.unknown())),
    strict: z.nullish(z.boolean()),
  }),
});
/**
 * `response_format: {type: "json_schema", json_schema: {...}}`: output constrained by a JSON Schema.
 * @example
 * responseFormatJSONSchemaSchema.parse({
 *   type: "json_schema",
 *   json_schema: { name: "answer", schema: { type: "object" }, strict: true },
 * });
 */
export const responseFormatJSONSchemaSchema: SchemaOf<ResponseFormatJSONSchema> = jsonSchemaFormat;

// vLLM takes the current form ({format}) or the legacy one ({structures, triggers}); a tag
// without either is refused (StructuralTagResponseFormat, LegacyStructuralTagResponseFormat).
const structuralTagFormat = z
  .looseObject({
    type: z.literal("structural_tag"),
    format: z.optional(z.unknown()),
    structures: z.optional(
      z.array(
        z.looseObject({ begin: z.string(), schema: z.nullish(z.record(z.string(), z.unknown())), end: z.string() }),
      ),
    ),
    triggers: z.optional(z.array(z.string())),
  })
  .check(
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
 * `response_format: {type: "structural_tag", ...}` (vLLM extension; members kept as given).
 * @example
 * responseFormatStructuralTagSchema.parse({ type: "structural_tag", structures: [], triggers: [] });
 */
export const responseFormatStructuralTagSchema: SchemaOf<ResponseFormatStructuralTag> = structuralTagFormat;

const responseFormat = taggedUnion("type", [textFormat, jsonObjectFormat, jsonSchemaFormat, structuralTagFormat]);
/**
 * Any `response_format`, chosen by `type`.
 * @example
 * responseFormatSchema.parse({ type: "json_object" });
 */
export const responseFormatSchema: SchemaOf<ResponseFormat> = responseFormat;

const streamOptions = looseOption({
  include_usage: z.nullish(z.boolean()),
  continuous_usage_stats: z.nullish(z.boolean()),
  include_obfuscation: z.nullish(z.boolean()),
});
/**
 * `stream_options` (only meaningful with `stream: true`).
 * @example
 * chatCompletionStreamOptionsSchema.parse({ include_usage: true, continuous_usage_stats: false });
 */
export const chatCompletionStreamOptionsSchema: SchemaOf<ChatCompletionStreamOptions> = streamOptions;

const structuredOutputs = looseOption({
  json: z.nullish(z.union([z.string(), z.record(z.string(), z.unknown())])),
  regex: z.nullish(z.string()),
  choice: z.nullish(z.array(z.string())),
  grammar: z.nullish(z.string()),
  json_object: z.nullish(z.boolean()),
  disable_fallback: z.optional(z.boolean()),
  disable_any_whitespace: z.optional(z.boolean()),
  disable_additional_properties: z.optional(z.boolean()),
  whitespace_pattern: z.nullish(z.string()),
  structural_tag: z.nullish(z.string()),
  _backend: z.nullish(z.string()),
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
    if (so.grammar === "") issue("grammar", "is empty: give a grammar");
    if (so.json === "") issue("json", "is empty: give a JSON Schema (an object or its JSON text)");
    if (so.structural_tag === "") issue("structural_tag", "is empty: give a structural tag specification");
    if (typeof so.regex === "string" && so.regex.includes("\u0000"))
      issue("regex", "contains a NUL character, which vLLM refuses");
  }),
);
/**
 * `structured_outputs`: exactly one constraint among json, regex, choice, grammar,
 * json_object and structural_tag (vLLM refuses none and several; a non-null value counts,
 * `json_object: false` included), plus tuning flags. `json` also accepts a schema object, as
 * vLLM does. `disable_fallback`, `_backend` and `_backend_was_auto` are the spec's; current
 * vLLM drops them silently.
 * @example
 * structuredOutputsParamsSchema.parse({ choice: ["yes", "no"] });
 */
export const structuredOutputsParamsSchema: SchemaOf<StructuredOutputsParams> = structuredOutputs;

// RepetitionDetectionParams' sizes are Python ints the engine holds as int64 (z.int() would
// stop at 2^53).
const int64 = (min?: number) =>
  z.number().check((ctx) => {
    const v = ctx.value;
    if (!Number.isInteger(v) || Math.abs(v) >= 2 ** 63 || (min !== undefined && v < min))
      ctx.issues.push({
        code: "custom",
        input: v,
        message: `must be an integer in ${min ?? "-9223372036854775808"}..9223372036854775807`,
      });
  });
const repetitionDetection = looseOption({
  max_pattern_size: z.optional(int64(0)),
  min_pattern_size: z.optional(int64(0)),
  min_count: z.optional(int64()),
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
 * `repetition_detection`: stop early when an n-gram pattern repeats in the output. vLLM
 * refuses `min_count < 2` and `min_pattern_size > max_pattern_size` (absent sizes are 0).
 * @example
 * repetitionDetectionParamsSchema.parse({ min_pattern_size: 2, max_pattern_size: 16, min_count: 4 });
 */
export const repetitionDetectionParamsSchema: SchemaOf<RepetitionDetectionParams> = repetitionDetection;

// vLLM reads booleans here as integers (pydantic's lax mode), so they are accepted too.
const xargValue = z.union([z.string(), z.number(), z.boolean()]);
const engineXargs = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(xargValue)]));
/**
 * `engine_xargs` (the spec's name) or `vllm_xargs` (vLLM's): extension parameters; values are
 * strings, numbers or lists of them. vLLM reads only `vllm_xargs` (and ignores `engine_xargs`);
 * the SDK sends whichever name you wrote.
 * @example
 * engineXargsSchema.parse({ my_ext: "on", thresholds: [0.1, 0.2] });
 */
export const engineXargsSchema: SchemaOf<EngineXargs> = engineXargs;

const document = z.catchall(z.object({ title: z.optional(z.string()), text: z.optional(z.string()) }), z.string());
/**
 * A document for retrieval-augmented templates; it should carry `title` and `text`.
 * @example
 * chatCompletionDocumentSchema.parse({ title: "Intro", text: "Paris is the capital of France." });
 */
export const chatCompletionDocumentSchema: SchemaOf<ChatCompletionDocument> = document;

// Compile-time: each schema accepts exactly what its named type describes.
type _Agreement = Check<
  [
    Agrees<z.input<typeof textFormat>, ResponseFormatText>,
    Agrees<z.input<typeof jsonObjectFormat>, ResponseFormatJSONObject>,
    Agrees<z.input<typeof jsonSchemaFormat>, ResponseFormatJSONSchema>,
    Agrees<z.input<typeof structuralTagFormat>, ResponseFormatStructuralTag>,
    Agrees<z.input<typeof responseFormat>, ResponseFormat>,
    Agrees<z.input<typeof streamOptions>, ChatCompletionStreamOptions>,
    Agrees<z.input<typeof structuredOutputs>, StructuredOutputsParams>,
    Agrees<z.input<typeof repetitionDetection>, RepetitionDetectionParams>,
    Agrees<z.input<typeof engineXargs>, EngineXargs>,
    Agrees<z.input<typeof document>, ChatCompletionDocument>,
  ]
>;
