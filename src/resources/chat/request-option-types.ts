/**
 * Named types of the option objects of a chat request: `response_format`, `stream_options`,
 * `structured_outputs`, `repetition_detection`, `engine_xargs`/`vllm_xargs` and `documents`.
 *
 * @module
 */

/**
 * `response_format: { type: "text" }`: plain text, the server's default.
 *
 * @example
 * ```ts
 * const format: ResponseFormatText = { type: "text" };
 * ```
 */
export interface ResponseFormatText {
  /** Always `"text"`. */
  type: "text";
}

/**
 * `response_format: { type: "json_object" }`: the reply is any JSON object.
 *
 * @example
 * ```ts
 * const format: ResponseFormatJSONObject = { type: "json_object" };
 * ```
 */
export interface ResponseFormatJSONObject {
  /** Always `"json_object"`. */
  type: "json_object";
}

/**
 * `response_format: { type: "json_schema", json_schema }`: the reply is JSON that matches a
 * JSON Schema. `zodResponseFormat(schema, name)` builds one from a zod schema.
 *
 * @example
 * ```ts
 * const format: ResponseFormatJSONSchema = {
 *   type: "json_schema",
 *   json_schema: { name: "answer", schema: { type: "object", properties: { n: { type: "integer" } } }, strict: true },
 * };
 * ```
 */
export interface ResponseFormatJSONSchema {
  /** Always `"json_schema"`. */
  type: "json_schema";
  /** The schema and its name. */
  json_schema: {
    /** Name of the format, letters, digits, `_` and `-`. */
    name: string;
    /** What the format is for, shown to the model by some templates. */
    description?: string | null;
    /** The JSON Schema the reply must match. */
    schema?: Record<string, unknown> | null;
    /** Hold the reply to the schema exactly (vLLM always does). */
    strict?: boolean | null;
  };
}

/**
 * `response_format: { type: "structural_tag", ... }` (vLLM extension): constrained sections
 * between trigger tags. vLLM takes `format` (the current form) or `structures` and `triggers`
 * (the legacy form); a tag with neither is refused.
 *
 * @example
 * ```ts
 * const format: ResponseFormatStructuralTag = {
 *   type: "structural_tag",
 *   structures: [{ begin: "<answer>", schema: { type: "object" }, end: "</answer>" }],
 *   triggers: ["<answer>"],
 * };
 * ```
 */
export interface ResponseFormatStructuralTag {
  /** Always `"structural_tag"`. */
  type: "structural_tag";
  /** The structural tag specification (current form), as the backend reads it. */
  format?: unknown;
  /** Legacy form: the tagged sections, each with its begin and end tags and an optional JSON Schema. */
  structures?: { begin: string; schema?: Record<string, unknown> | null; end: string }[];
  /** Legacy form: the texts that start a tagged section. */
  triggers?: string[];
}

/**
 * Any `response_format`, told apart by `type`.
 *
 * @example
 * ```ts
 * const format: ResponseFormat = { type: "json_object" };
 * ```
 */
export type ResponseFormat =
  | ResponseFormatText
  | ResponseFormatJSONObject
  | ResponseFormatJSONSchema
  | ResponseFormatStructuralTag;

/**
 * `stream_options`: what a streamed reply reports besides the text. Only with `stream: true`
 * (an empty object is accepted either way).
 *
 * @example
 * ```ts
 * const options: ChatCompletionStreamOptions = { include_usage: true };
 * ```
 */
export interface ChatCompletionStreamOptions {
  /** Send a last chunk with `choices: []` and the token `usage` of the whole reply. Default false. */
  include_usage?: boolean | null;
  /** With `include_usage`, every chunk also carries the usage so far. Default false. */
  continuous_usage_stats?: boolean | null;
  /** Add random padding to each chunk against length side channels (OpenAI's field; vLLM accepts it). */
  include_obfuscation?: boolean | null;
}

/**
 * `structured_outputs` (vLLM): constrain the reply. Exactly one constraint among `json`,
 * `regex`, `choice`, `grammar`, `json_object` and `structural_tag`; the other members tune it.
 * It cannot be combined with a `json_schema` or `json_object` `response_format`.
 *
 * @example
 * ```ts
 * const constraint: StructuredOutputsParams = { choice: ["yes", "no"] };
 * ```
 */
export interface StructuredOutputsParams {
  /** The reply is JSON matching this JSON Schema (an object, or its JSON text). */
  json?: string | Record<string, unknown> | null;
  /** The reply matches this regular expression. */
  regex?: string | null;
  /** The reply is exactly one of these strings. */
  choice?: string[] | null;
  /** The reply matches this context-free grammar (EBNF / GBNF, as the backend reads it). */
  grammar?: string | null;
  /** `true`: the reply is any JSON object. */
  json_object?: boolean | null;
  /**
   * Fail rather than fall back to another decoding backend. Default false.
   * @deprecated Dropped silently by current vLLM.
   */
  disable_fallback?: boolean;
  /** Forbid whitespace between JSON tokens. Default false. */
  disable_any_whitespace?: boolean;
  /** Forbid properties the JSON Schema does not name. Default false. */
  disable_additional_properties?: boolean;
  /** Regular expression the whitespace between JSON tokens must match. */
  whitespace_pattern?: string | null;
  /** A structural tag specification, as a JSON text. */
  structural_tag?: string | null;
  /**
   * Decoding backend to use.
   * @deprecated Set by the server; dropped silently by current vLLM.
   */
  _backend?: string | null;
  /**
   * Whether the backend was chosen automatically. Default false.
   * @deprecated Set by the server; dropped silently by current vLLM.
   */
  _backend_was_auto?: boolean;
}

/**
 * `repetition_detection`: end generation early when an n-gram pattern of the output repeats.
 *
 * @example
 * ```ts
 * const detection: RepetitionDetectionParams = { min_pattern_size: 2, max_pattern_size: 16, min_count: 4 };
 * ```
 */
export interface RepetitionDetectionParams {
  /** Longest pattern looked for, in tokens; at least `min_pattern_size`. */
  max_pattern_size?: number;
  /** Shortest pattern looked for, in tokens. */
  min_pattern_size?: number;
  /** Repetitions of a pattern that end generation; at least 2. */
  min_count?: number;
}

/**
 * Extension parameters (`engine_xargs`, vLLM's `vllm_xargs`): values are strings, numbers or
 * lists of them, for server plugins that read them.
 *
 * @example
 * ```ts
 * const xargs: EngineXargs = { my_flag: 1, tags: ["a", "b"] };
 * ```
 */
export type EngineXargs = Record<string, string | number | boolean | (string | number | boolean)[]>;

/**
 * A document for retrieval-augmented chat templates. It should carry `title` and `text`; other
 * string members are passed to the template too.
 *
 * @example
 * ```ts
 * const doc: ChatCompletionDocument = { title: "Intro", text: "Paris is the capital of France." };
 * ```
 */
export interface ChatCompletionDocument {
  /** The document's title. */
  title?: string;
  /** The document's text. */
  text?: string;
  /** Further string members the template may use. */
  [key: string]: string | undefined;
}
