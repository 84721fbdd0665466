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
import { safeParse, toJSONSchema, type $ZodType, type output } from "zod/v4/core";
import { InferloopError } from "../../core/errors.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { PARSE_COMPLETION } from "./parse-hook.js";
import type { ResponseFormatJSONSchema } from "./request-schema.js";
import type { ChatCompletion, ChatCompletionChoice, ChatCompletionMessage } from "./types.js";

// A symbol key that is also non-enumerable: JSON.stringify and object spreads of the
// request never carry the zod schema to the wire.
const ZOD_SCHEMA: unique symbol = Symbol.for("inferloop.responseFormat.zodSchema");

// Reply issues read in English, as they did when this module loaded classic zod, unless the
// application chose a locale itself.
ensureZodDefaults();

/**
 * A `json_schema` response format that also carries (non-enumerably) the zod schema it
 * was made from, so replies can be parsed into `T`.
 * @example
 * const format: AutoParseableResponseFormat<{ answer: number }> =
 *   zodResponseFormat(z.object({ answer: z.number() }), "answer");
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
} & ResponseFormatJSONSchema;

/**
 * A reply message with `parsed`: the content parsed and validated, or null when the
 * message has no content (for example a tool call or a refusal).
 * @example
 * const m: ParsedChatCompletionMessage<{ answer: number }> = { role: "assistant", content: "{\"answer\":4}", parsed: { answer: 4 } };
 */
export interface ParsedChatCompletionMessage<T> extends ChatCompletionMessage {
  parsed: T | null;
}

/**
 * A choice whose message is parsed.
 * @example
 * const answer = parsedChoice.message.parsed?.answer;
 */
export interface ParsedChatCompletionChoice<T> extends ChatCompletionChoice {
  message: ParsedChatCompletionMessage<T>;
}

/**
 * A completion whose every choice carries `message.parsed`.
 * @example
 * const parsed: ParsedChatCompletion<{ answer: number }> = parseCompletionContent(completion, format);
 * parsed.choices[0]?.message.parsed?.answer;
 */
export interface ParsedChatCompletion<T> extends ChatCompletion {
  choices: ParsedChatCompletionChoice<T>[];
}

/**
 * One reason a reply did not parse: where (path inside the value) and why.
 * @example
 * const issue: ContentParseIssue = { path: ["answer"], message: "Invalid input: expected number, received string" };
 */
export interface ContentParseIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
}

/**
 * Thrown when a reply's content is not JSON or does not match the response format's schema.
 * `choiceIndex` names the choice, `issues` lists what failed, `content` holds the raw text.
 * An {@link InferloopError}, so one `instanceof` check still catches every SDK error.
 * @example
 * try {
 *   parseCompletionContent(completion, format);
 * } catch (e) {
 *   if (e instanceof ContentParseError) console.log(e.choiceIndex, e.issues);
 * }
 */
export class ContentParseError extends InferloopError {
  override readonly name = "ContentParseError";
  readonly choiceIndex: number;
  readonly issues: ContentParseIssue[];
  readonly content: string;

  /**
   * @example
   * new ContentParseError("choice 0: content is not JSON", { choiceIndex: 0, issues: [], content: "oops" });
   */
  constructor(
    message: string,
    details: { choiceIndex: number; issues: ContentParseIssue[]; content: string; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.choiceIndex = details.choiceIndex;
    this.issues = details.issues;
    this.content = details.content;
  }
}

/**
 * Options of {@link zodResponseFormat}.
 * @example
 * const options: ZodResponseFormatOptions = { description: "The final answer" };
 */
export interface ZodResponseFormatOptions {
  /** Sent as `json_schema.description`. */
  description?: string;
  /** Sent as `json_schema.strict`; default true. */
  strict?: boolean;
}

// zod's `int()` writes the safe-integer range into every integer; it constrains nothing
// a model would produce and some guided-decoding backends choke on such bounds.
function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropSafeIntegerBounds(item);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const obj = node as Record<string, unknown>;
  if (obj.type === "integer") {
    if (obj.minimum === Number.MIN_SAFE_INTEGER) delete obj.minimum;
    if (obj.maximum === Number.MAX_SAFE_INTEGER) delete obj.maximum;
  }
  for (const key in obj) dropSafeIntegerBounds(obj[key]);
}

/**
 * Builds a `json_schema` response format from any zod 4 schema (classic or mini), using zod's
 * own JSON Schema conversion (draft 2020-12, objects closed with `additionalProperties: false`,
 * the `$schema` key removed). The zod schema rides along non-enumerably for
 * {@link parseCompletionContent}. For OpenAI-style strict mode, prefer nullable over optional fields.
 * @example
 * import { z } from "zod";
 * const Answer = z.object({ answer: z.number(), unit: z.string().nullable() });
 * // zod/mini schemas work too: z.object({ answer: z.number(), unit: z.nullable(z.string()) })
 * const format = zodResponseFormat(Answer, "answer", { description: "The final answer" });
 * const completion = await client.chat.completions.create({ model, messages, response_format: format });
 * const parsed = parseCompletionContent(completion, format);
 * parsed.choices[0]?.message.parsed?.answer; // number
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
  Object.defineProperty(format, PARSE_COMPLETION, {
    value: (completion: ChatCompletion) => parseCompletionContent(completion, result),
    enumerable: false,
  });
  return result;
}

/**
 * Whether `format` came from {@link zodResponseFormat} (and so can parse replies).
 * @example
 * if (isAutoParseableResponseFormat(params.response_format)) parseCompletionContent(completion, params.response_format);
 */
export function isAutoParseableResponseFormat(format: unknown): format is AutoParseableResponseFormat<unknown> {
  return typeof format === "object" && format !== null && ZOD_SCHEMA in format;
}

/**
 * Parses every choice's content with the format's zod schema and returns a shallow copy of
 * the completion whose messages carry `parsed` (null when the content is null).
 * Throws {@link ContentParseError} naming the choice when content is not JSON or does not match.
 * @example
 * const parsed = parseCompletionContent(completion, zodResponseFormat(z.object({ ok: z.boolean() }), "status"));
 * if (parsed.choices[0]?.message.parsed?.ok) console.log("ok");
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
  const choices = completion.choices.map((choice): ParsedChatCompletionChoice<T> => {
    const content = choice.message.content;
    const parsed = content == null ? null : parseContent(schema, content, choice, name);
    return { ...choice, message: { ...choice.message, parsed } };
  });
  return { ...completion, choices };
}

function parseContent<T>(schema: $ZodType<T>, content: string, choice: ChatCompletionChoice, name: string): T {
  const where = `choice ${choice.index}`;
  // A reply cut off by max tokens is the usual cause of bad JSON; say so.
  const hint = choice.finish_reason === "length" ? ' (finish_reason is "length": the reply was cut off)' : "";
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ContentParseError(`${where}: content is not valid JSON${hint}: ${message}`, {
      choiceIndex: choice.index,
      issues: [{ path: [], message, code: "invalid_json" }],
      content,
      cause: err,
    });
  }
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  const issues: ContentParseIssue[] = result.error.issues.map((i) => ({
    path: i.path,
    message: i.message,
    code: i.code,
  }));
  const firstIssue = issues[0]!;
  const at = firstIssue.path.length ? firstIssue.path.map(String).join(".") : "(root)";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  throw new ContentParseError(
    `${where}: content does not match response format "${name}"${hint}: ${at}: ${firstIssue.message}${more}`,
    { choiceIndex: choice.index, issues, content },
  );
}
