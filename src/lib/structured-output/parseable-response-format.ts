// The public names of the parse protocol (wire/chat/parse-hook.ts), with the stream a
// streamed reply is read as filled in: a ParsedChatCompletionStream.
import type { ChatCompletionParseRequest, ChatCompletionParseStreamRequest } from "../../wire/chat/chat-create.js";
import type { ParsingResponseFormat } from "../../wire/chat/parse-hook.js";
import type { ParsedChatCompletionStream } from "./parsed-stream.js";

/**
 * A `json_schema` response format that can parse replies into `T`: what `zodResponseFormat`
 * and `responseFormat` return, and what `chat.completions.parse` takes.
 */
export type ParseableResponseFormat<T> = ParsingResponseFormat<T, ParsedChatCompletionStream<T>>;

/** Parameters of `chat.completions.parse`: a non-streamed request whose `response_format`
 * came from `zodResponseFormat` or `responseFormat`.
 */
export type ChatCompletionParseParams<T> = ChatCompletionParseRequest<T>;

/** Parameters of `chat.completions.parse` with `stream: true`: it resolves to a
 * {@link ParsedChatCompletionStream}.
 */
export type ChatCompletionParseStreamParams<T> = ChatCompletionParseStreamRequest<T, ParsedChatCompletionStream<T>>;
