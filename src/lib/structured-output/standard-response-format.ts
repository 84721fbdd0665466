/**
 * Structured output from any schema library that implements Standard JSON Schema (zod 4.2+,
 * ArkType, valibot through `toStandardJsonSchema`, ...) or from a plain JSON Schema object.
 * Nothing here imports a schema library: the schema brings its own JSON Schema conversion and,
 * through Standard Schema, its own validation.
 *
 * @module
 */

import { PARSE_COMPLETION, type ParsedChatCompletion } from "../../wire/chat/parse-hook.js";
import type { ChatCompletion, ChatCompletionChoice } from "../../wire/chat/types.js";
import { dropSafeIntegerBounds } from "./json-schema-tidy.js";
import type { ParseableResponseFormat } from "./parseable-response-format.js";
import {
  type ContentParseIssue,
  mismatchError,
  parseableContent,
  readReplyJSON,
  withParsedChoices,
} from "./parsed-reply.js";
import { withStreamParsing } from "./parsed-stream.js";

/**
 * The result of a Standard Schema `validate`: the value, or the issues.
 */
export type StandardValidationResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/**
 * A schema that implements Standard JSON Schema (`~standard.jsonSchema`), and usually Standard
 * Schema too (`~standard.validate`), the way zod 4.2+, ArkType and valibot's
 * `toStandardJsonSchema` do. Declared here structurally, so the SDK depends on no schema library.
 */
export interface StandardJSONSchema<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
    readonly jsonSchema: {
      readonly output: (options: { readonly target: "draft-2020-12" }) => Record<string, unknown>;
    };
    readonly validate?: (
      value: unknown,
    ) => StandardValidationResult<Output> | Promise<StandardValidationResult<Output>>;
  };
}

/**
 * The output type of a {@link StandardJSONSchema}: what `message.parsed` holds.
 */
export type StandardOutput<S extends StandardJSONSchema> = NonNullable<S["~standard"]["types"]>["output"];

/**
 * A JSON Schema written by hand. Replies are parsed as JSON but not validated (the SDK carries
 * no JSON Schema validator): `T` is what the caller says the schema describes.
 */
export type JSONSchemaObject = Record<string, unknown>;

/**
 * Options of {@link responseFormat}.
 */
export interface ResponseFormatOptions {
  /** Sent as `json_schema.description`. */
  description?: string;
  /** Sent as `json_schema.strict`; default true. */
  strict?: boolean;
}

function isStandardJSONSchema(schema: unknown): schema is StandardJSONSchema {
  const std = (schema as { "~standard"?: { jsonSchema?: { output?: unknown } } } | null)?.["~standard"];
  return typeof std?.jsonSchema?.output === "function";
}

function issuesOf(result: StandardValidationResult<unknown>): ContentParseIssue[] {
  return (result.issues ?? []).map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment)),
  }));
}

/**
 * Builds a `json_schema` response format from a schema of any library that implements Standard
 * JSON Schema, or from a plain JSON Schema object. `chat.completions.parse` then parses each
 * reply as JSON and, for a Standard Schema, validates it with the schema's own `validate`, so
 * `message.parsed` has the schema's output type; a reply that does not match rejects with
 * `ContentParseError`. The JSON Schema is the library's own (draft 2020-12, `$schema` removed),
 * sent as written. `zodResponseFormat` stays the zod-specific form (it also closes objects).
 * @example
 * ```ts
 * import { type } from "arktype";
 * const Weather = type({ city: "string", celsius: "number" });
 * const completion = await client.chat.completions.parse({
 *   model: "Qwen/Qwen3-8B",
 *   messages: [{ role: "user", content: "Weather in Paris as JSON" }],
 *   response_format: responseFormat(Weather, "weather"),
 * });
 * completion.choices[0]?.message.parsed?.celsius; // number
 * ```
 */
export function responseFormat<S extends StandardJSONSchema>(
  schema: S,
  name: string,
  options?: ResponseFormatOptions,
): ParseableResponseFormat<StandardOutput<S>>;
/**
 * @example
 * ```ts
 * const format = responseFormat<{ answer: number }>(
 *   { type: "object", properties: { answer: { type: "number" } }, required: ["answer"], additionalProperties: false },
 *   "answer",
 * );
 * ```
 */
export function responseFormat<T = unknown>(
  schema: JSONSchemaObject,
  name: string,
  options?: ResponseFormatOptions,
): ParseableResponseFormat<T>;
export function responseFormat(
  schema: StandardJSONSchema | JSONSchemaObject,
  name: string,
  options: ResponseFormatOptions = {},
): ParseableResponseFormat<unknown> {
  const standard = isStandardJSONSchema(schema) ? schema["~standard"] : undefined;
  // A copy either way: the caller's object is never changed, and what goes out is plain JSON.
  const jsonSchema = structuredClone(
    standard ? standard.jsonSchema.output({ target: "draft-2020-12" }) : schema,
  ) as Record<string, unknown>;
  delete jsonSchema.$schema;
  dropSafeIntegerBounds(jsonSchema);
  const json_schema: { name: string; schema: Record<string, unknown>; strict: boolean; description?: string } = {
    name,
    schema: jsonSchema,
    strict: options.strict ?? true,
  };
  if (options.description !== undefined) json_schema.description = options.description;
  const format = { type: "json_schema" as const, json_schema };
  const validate = standard?.validate;
  const parse = (
    completion: ChatCompletion,
  ): ParsedChatCompletion<unknown> | Promise<ParsedChatCompletion<unknown>> => {
    const values = withParsedChoices(completion, (content, choice) => readReplyJSON(content, choice));
    if (!validate) return values;
    return validateChoices(values, completion.choices, validate, name);
  };
  // Non-enumerable: JSON.stringify and spreads of the request never carry it to the wire.
  Object.defineProperty(format, PARSE_COMPLETION, { value: parse, enumerable: false });
  withStreamParsing(format, parse);
  return format as ParseableResponseFormat<unknown>;
}

async function validateChoices(
  completion: ParsedChatCompletion<unknown>,
  original: readonly ChatCompletionChoice[],
  validate: NonNullable<StandardJSONSchema["~standard"]["validate"]>,
  name: string,
): Promise<ParsedChatCompletion<unknown>> {
  const choices = await Promise.all(
    completion.choices.map(async (choice, i) => {
      const content = parseableContent(original[i]!);
      if (content == null) return choice;
      const result = await validate(choice.message.parsed);
      if (result.issues) throw mismatchError(issuesOf(result), content, choice, name);
      return { ...choice, message: { ...choice.message, parsed: result.value } };
    }),
  );
  return { ...completion, choices };
}
