import type { ResponseFormatJSONSchema } from "./request-schema.js";
import type { ParsedChatCompletion } from "../../lib/structured-output/parsed-reply.js";
import type { ParsedChatCompletionStream } from "../../lib/structured-output/parsed-stream.js";
import type { ChatCompletion } from "./types.js";

/**
 * Where a response format made by `zodResponseFormat` or `responseFormat` keeps its own reply
 * parser. Going through the format keeps `chat.completions.parse` free of any import of the
 * JSON Schema and parsing code, so an app that never uses structured output does not carry it
 * in its bundle.
 */
export const PARSE_COMPLETION: unique symbol = Symbol.for("inferloop.responseFormat.parseCompletion");

/**
 * Where such a response format keeps the stream class that parses its final completion, for
 * the same reason: a streaming chat call without structured output does not carry that class
 * (nor its partial-JSON reader) in its bundle.
 */
export const PARSED_STREAM: unique symbol = Symbol.for("inferloop.responseFormat.parsedStream");

/** The parser a response format carries under {@link PARSE_COMPLETION}. */
export type CompletionParser<R> = (completion: ChatCompletion) => R;

/**
 * A `json_schema` response format that can parse replies into `T`: what `zodResponseFormat`
 * and `responseFormat` return, and what `chat.completions.parse` takes.
 * @example
 * const format: ParseableResponseFormat<{ answer: number }> = responseFormat(Answer, "answer");
 */
export type ParseableResponseFormat<T> = ResponseFormatJSONSchema & {
  readonly [PARSE_COMPLETION]: CompletionParser<ParsedChatCompletion<T> | Promise<ParsedChatCompletion<T>>>;
  readonly [PARSED_STREAM]?: typeof ParsedChatCompletionStream;
};
