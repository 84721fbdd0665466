/**
 * What lib's helpers (the tool runner, RULER, `Trajectory.sample`, parsing formats) need of
 * `client.chat.completions`: its `create`, typed here so that they depend on the wire and not on
 * the namespace class that implements it.
 *
 * @module
 */
import type { APIPromise } from "../../core/pipeline/api-promise.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { ParsingResponseFormat } from "./parse-hook.js";
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from "./request-schema.js";
import type { ChatCompletionStream } from "./stream/stream.js";
import type { ChatCompletion } from "./types.js";

// parse()'s requests. Users name them ChatCompletionParseParams<T> and
// ChatCompletionParseStreamParams<T> (src/lib/structured-output), where a parsing format's
// stream `S` is ParsedChatCompletionStream<T>.
/** A non-streamed request whose `response_format` parses replies into `T`. */
export type ChatCompletionParseRequest<T> = Omit<ChatCompletionCreateParamsNonStreaming, "response_format"> & {
  response_format: ParsingResponseFormat<T>;
};

/** A streamed request whose `response_format` parses replies into `T` and reads the stream as `S`. */
export type ChatCompletionParseStreamRequest<T, S extends ChatCompletionStream> = Omit<
  ChatCompletionCreateParamsStreaming,
  "response_format"
> & {
  response_format: ParsingResponseFormat<T, S>;
};

/** `client.chat.completions.create`, as the helpers built on it call it. */
export interface ChatCreate {
  create<T, S extends ChatCompletionStream = ChatCompletionStream>(
    params: ChatCompletionParseStreamRequest<T, S>,
    options?: RequestOptions,
  ): APIPromise<S>;
  create(params: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<ChatCompletion>;
  create(params: ChatCompletionCreateParamsStreaming, options?: RequestOptions): APIPromise<ChatCompletionStream>;
  create(
    params: ChatCompletionCreateParamsBase,
    options?: RequestOptions,
  ): APIPromise<ChatCompletion | ChatCompletionStream>;
}
