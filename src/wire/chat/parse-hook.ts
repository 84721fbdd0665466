// What a response format that parses replies carries, and what `chat.completions.parse`
// returns. The formats are made in src/lib/structured-output (`zodResponseFormat`,
// `responseFormat`); going through the format keeps the endpoint free of any import of their
// JSON Schema, parsing and stream code, so an app without structured output does not carry it.

import type { Redactor } from "../../core/errors/secrets.js";
import type { APIResponse } from "../../core/pipeline/http-client.js";
import type { ResponseFormatJSONSchema } from "./request-schema.js";
import type { ChatCompletionStream } from "./stream/stream.js";
import type { ChatCompletion, ChatCompletionChoice, ChatCompletionMessage } from "./types.js";

/** Where a parsing response format keeps its own reply parser. */
export const PARSE_COMPLETION: unique symbol = Symbol.for("inferloop.responseFormat.parseCompletion");

/**
 * Where such a response format keeps the opener of the stream that parses its final
 * completion, for the same reason: a streaming chat call without structured output does not
 * carry that stream class (nor its partial-JSON reader) in its bundle.
 */
export const PARSED_STREAM: unique symbol = Symbol.for("inferloop.responseFormat.parsedStream");

/** The parser a response format carries under {@link PARSE_COMPLETION}. */
export type CompletionParser<R> = (completion: ChatCompletion) => R;

/** What a response format carries under {@link PARSED_STREAM}: reads a streamed reply as `S`. */
export type ParsedStreamOpener<S extends ChatCompletionStream> = (
  res: APIResponse,
  redactor: Redactor,
  signal: AbortSignal | undefined,
) => S;

/**
 * A reply message with `parsed`: the content parsed and validated, or null when the
 * message has no content (for example a tool call or a refusal).
 */
export interface ParsedChatCompletionMessage<T> extends ChatCompletionMessage {
  parsed: T | null;
}

/**
 * A choice whose message is parsed.
 */
export interface ParsedChatCompletionChoice<T> extends ChatCompletionChoice {
  message: ParsedChatCompletionMessage<T>;
}

/**
 * A completion whose every choice carries `message.parsed`.
 */
export interface ParsedChatCompletion<T> extends ChatCompletion {
  choices: ParsedChatCompletionChoice<T>[];
}

// The stream's type travels as a type parameter because its class lives above the endpoint
// (src/lib/structured-output); users see this type as `ParseableResponseFormat<T>`.
/** A `json_schema` response format that parses replies into `T` and reads a streamed reply as `S`. */
export type ParsingResponseFormat<
  T,
  S extends ChatCompletionStream = ChatCompletionStream,
> = ResponseFormatJSONSchema & {
  readonly [PARSE_COMPLETION]: CompletionParser<ParsedChatCompletion<T> | Promise<ParsedChatCompletion<T>>>;
  readonly [PARSED_STREAM]?: ParsedStreamOpener<S>;
};

function formatOf<T>(params: unknown): Partial<ParsingResponseFormat<T>> | null | undefined {
  return (params as { response_format?: Partial<ParsingResponseFormat<T>> | null } | null | undefined)?.response_format;
}

/** The parser a response format carries, when it is one that can parse replies. */
export function parserOf<T>(params: unknown): ParsingResponseFormat<T>[typeof PARSE_COMPLETION] | undefined {
  const parse = formatOf<T>(params)?.[PARSE_COMPLETION];
  return typeof parse === "function" ? parse : undefined;
}

/** The opener of the stream that parses the reply, when the format parses replies and has one. */
export function parsedStreamOf(params: unknown): ParsedStreamOpener<ChatCompletionStream> | undefined {
  const open = formatOf(params)?.[PARSED_STREAM];
  return typeof open === "function" && parserOf(params) !== undefined ? open : undefined;
}
