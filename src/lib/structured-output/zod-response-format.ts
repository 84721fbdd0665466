/**
 * Structured output from a zod schema: build the `response_format`, then parse replies
 * back into typed values.
 *
 * Only zod's core API is used here (`toJSONSchema`, `safeParse`), so any zod 4 schema works,
 * classic (`import { z } from "zod"`) or mini (`import * as z from "zod/mini"`), and the SDK
 * itself never pulls classic zod into a bundle.
 *
 * @module
 */
import { type $ZodType, type output, safeParse, toJSONSchema } from "zod/v4/core";
import {
  type CompletionParser,
  PARSE_COMPLETION,
  PARSED_STREAM,
  type ParsedChatCompletion,
  type ParsedStreamOpener,
} from "../../wire/chat/parse-hook.js";
import type { ResponseFormatJSONSchema } from "../../wire/chat/request-schema.js";
import type { ChatCompletion } from "../../wire/chat/types.js";
import { ensureZodDefaults } from "../../wire/zod-defaults.js";
import { dropSafeIntegerBounds } from "./json-schema-tidy.js";
import { mismatchError, readReplyJSON, withParsedChoices } from "./parsed-reply.js";
import { type ParsedChatCompletionStream, withStreamParsing } from "./parsed-stream.js";

export type {
  ParsedChatCompletion,
  ParsedChatCompletionChoice,
  ParsedChatCompletionMessage,
} from "../../wire/chat/parse-hook.js";
export { ContentParseError, type ContentParseIssue } from "./parsed-reply.js";

// A symbol key that is also non-enumerable: JSON.stringify and object spreads of the
// request never carry the zod schema to the wire.
const ZOD_SCHEMA: unique symbol = Symbol.for("inferloop.responseFormat.zodSchema");

// Reply issues read in English, as they did when this module loaded classic zod, unless the
// application chose a locale itself.
ensureZodDefaults();

/**
 * A `json_schema` response format that also carries (non-enumerably) the zod schema it
 * was made from, so replies can be parsed into `T`.
 */
export type AutoParseableResponseFormat<T> = {
  type: "json_schema";
  json_schema: {
    name: string;
    description?: string;
    schema: Record<string, unknown>;
    strict: boolean;
  };
  readonly [ZOD_SCHEMA]: $ZodType<T>;
  readonly [PARSE_COMPLETION]: CompletionParser<ParsedChatCompletion<T>>;
  readonly [PARSED_STREAM]: ParsedStreamOpener<ParsedChatCompletionStream<T>>;
} & ResponseFormatJSONSchema;

/**
 * Options of {@link zodResponseFormat}.
 */
export interface ZodResponseFormatOptions {
  /** Sent as `json_schema.description`. */
  description?: string;
  /** Sent as `json_schema.strict`; default true. */
  strict?: boolean;
}

/**
 * Builds a `json_schema` response format from any zod 4 schema (classic or mini), using zod's
 * own JSON Schema conversion (draft 2020-12, objects closed with `additionalProperties: false`,
 * the `$schema` key removed). The zod schema rides along non-enumerably for
 * {@link parseCompletionContent}. For OpenAI-style strict mode, prefer nullable over optional fields.
 * @example
 * ```ts
 * import { z } from "zod";
 * const Answer = z.object({ answer: z.number(), unit: z.string().nullable() });
 * // zod/mini schemas work too: z.object({ answer: z.number(), unit: z.nullable(z.string()) })
 * const format = zodResponseFormat(Answer, "answer", { description: "The final answer" });
 * const completion = await client.chat.completions.create({ model, messages, response_format: format });
 * const parsed = parseCompletionContent(completion, format);
 * parsed.choices[0]?.message.parsed?.answer; // number
 * ```
 */
export function zodResponseFormat<S extends $ZodType>(
  schema: S,
  name: string,
  options: ZodResponseFormatOptions = {},
): AutoParseableResponseFormat<output<S>> {
  // "output" is zod's default and the one that closes plain objects with
  // additionalProperties:false and lists defaulted fields as required, as strict mode wants.
  const jsonSchema = toJSONSchema(schema, { target: "draft-2020-12", io: "output" }) as Record<string, unknown>;
  delete jsonSchema.$schema;
  dropSafeIntegerBounds(jsonSchema);
  const json_schema: AutoParseableResponseFormat<output<S>>["json_schema"] = {
    name,
    schema: jsonSchema,
    strict: options.strict ?? true,
  };
  if (options.description !== undefined) json_schema.description = options.description;
  const format = { type: "json_schema" as const, json_schema };
  Object.defineProperty(format, ZOD_SCHEMA, { value: schema, enumerable: false });
  const result = format as AutoParseableResponseFormat<output<S>>;
  const parse = (completion: ChatCompletion) => parseCompletionContent(completion, result);
  Object.defineProperty(format, PARSE_COMPLETION, { value: parse, enumerable: false });
  withStreamParsing(format, parse);
  return result;
}

/**
 * Whether `format` came from {@link zodResponseFormat} (and so can parse replies).
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const format: unknown = zodResponseFormat(z.object({ ok: z.boolean() }), "status");
 * if (isAutoParseableResponseFormat(format)) console.log(format.json_schema.name); // "status"
 * ```
 */
export function isAutoParseableResponseFormat(format: unknown): format is AutoParseableResponseFormat<unknown> {
  return typeof format === "object" && format !== null && ZOD_SCHEMA in format;
}

/**
 * Parses every choice's content with the format's zod schema and returns a shallow copy of
 * the completion whose messages carry `parsed` (null when the content is null).
 * Throws {@link ContentParseError} naming the choice when content is not JSON or does not match.
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const completion = await client.chat.completions.create({ model, messages });
 * const parsed = parseCompletionContent(completion, zodResponseFormat(z.object({ ok: z.boolean() }), "status"));
 * if (parsed.choices[0]?.message.parsed?.ok) console.log("ok");
 * ```
 */
export function parseCompletionContent<T>(
  completion: ChatCompletion,
  format: AutoParseableResponseFormat<T>,
): ParsedChatCompletion<T> {
  const schema = format[ZOD_SCHEMA];
  if (schema === undefined) {
    throw new TypeError("parseCompletionContent needs a response format made by zodResponseFormat()");
  }
  const name = format.json_schema.name;
  return withParsedChoices(completion, (content, choice) => {
    const result = safeParse(schema, readReplyJSON(content, choice));
    if (result.success) return result.data;
    throw mismatchError(result.error.issues, content, choice, name);
  });
}
