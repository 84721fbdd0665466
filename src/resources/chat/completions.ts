import { APIPromise } from "../../core/api-promise.js";
import { callEndpoint, endpoint } from "../../core/endpoint.js";
import { RequestValidationError } from "../../core/errors.js";
import { readJSON } from "../../core/http-client.js";
import type { RequestOptions } from "../../core/options.js";
import { APIResource } from "../../core/resource.js";
import { activeChatCapture } from "./capture-slot.js";
import { modelNotFoundHint } from "./model-not-found.js";
import {
  PARSE_COMPLETION,
  PARSED_STREAM,
  type ParsedChatCompletion,
  type ParsedStreamOpener,
  type ParsingResponseFormat,
} from "./parse-hook.js";
import {
  type ChatCompletionCreateParamsBase,
  type ChatCompletionCreateParamsNonStreaming,
  type ChatCompletionCreateParamsStreaming,
  chatCompletionCreateParamsSchema,
  prepareChatRequest,
  requestIssues,
} from "./request-schema.js";
import { checkCompletion } from "./response-shape.js";
import { roleFindings } from "./role-findings.js";
import { ChatCompletionStream } from "./stream.js";
import { type ChatCompletion, normalizeCompletion } from "./types.js";

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

function formatOf<T>(params: unknown): Partial<ParsingResponseFormat<T>> | null | undefined {
  return (params as { response_format?: Partial<ParsingResponseFormat<T>> | null } | null | undefined)?.response_format;
}

/** The parser a response format carries, when it is one that can parse replies. */
function parserOf<T>(params: unknown): ParsingResponseFormat<T>[typeof PARSE_COMPLETION] | undefined {
  const parse = formatOf<T>(params)?.[PARSE_COMPLETION];
  return typeof parse === "function" ? parse : undefined;
}

/** The opener of the stream that parses the reply, when the format parses replies and has one. */
function parsedStreamOf(params: unknown): ParsedStreamOpener<ChatCompletionStream> | undefined {
  const open = formatOf(params)?.[PARSED_STREAM];
  return typeof open === "function" && parserOf(params) !== undefined ? open : undefined;
}

type ChatResult = ChatCompletion | ChatCompletionStream;

// Streamed or not, one endpoint: a body with `stream: true` is read as SSE, any other as JSON.
const chatCompletionsCreate = endpoint({
  operation: "chat.completions.create",
  genAiOperation: "chat",
  method: "POST",
  path: "/v1/chat/completions",
  service: "inference",
  retry: "safe",
  body: { schema: chatCompletionCreateParamsSchema, prepare: prepareChatRequest },
  issues: requestIssues,
  // A role that is a near miss of a standard one is sent as written (vLLM takes custom roles).
  findings: roleFindings,
  // A vLLM started without tool calling refuses `tools` without `tool_choice` (it picks "auto")
  // and `tool_choice: "auto"`: the request is sent as written, and the answer says what to do.
  errorHints: [
    {
      status: 400,
      match: /"auto" tool choice requires --enable-auto-tool-choice/,
      hint: ' (this server was started without tool calling: pass `tool_choice: "none"` to send the tools without letting the model call them, a named tool or "required" to force a call, or start vLLM with --enable-auto-tool-choice and --tool-call-parser <parser>)',
    },
    // A model the server does not know: the closest served names, or a trained model's newest step.
    modelNotFoundHint,
  ],
  read: async (res): Promise<ChatResult> =>
    normalizeCompletion(checkCompletion(await readJSON<unknown>(res)) as ChatCompletion),
  streamed: {
    when: (body) => body.stream === true,
    // The checked body has lost a parsing format's hidden opener: it is read from the caller's.
    read: (res, { params, redactor, signal }) => {
      const open = parsedStreamOf(params);
      return open ? open(res, redactor, signal) : ChatCompletionStream.fromResponse(res, redactor, signal);
    },
  },
  // Inside captureTrajectory the capture sends and records the call (see capture-slot.ts);
  // outside, this check is all it costs.
  around: (body, send) => activeChatCapture()?.chat(body, send),
});

/**
 * Chat generation (`POST /v1/chat/completions`, Bearer auth).
 */
export class ChatCompletionsEndpoint extends APIResource {
  /**
   * Generate a reply. With `stream: true` the promise resolves, once headers arrive, to a
   * {@link ChatCompletionStream}; otherwise to the whole {@link ChatCompletion}.
   *
   * The request is validated first: invalid input rejects with `RequestValidationError` and
   * nothing is sent. `continue_final_message: true` alone also sends
   * `add_generation_prompt: false`, since the server defaults that one to true and refuses the pair.
   *
   * @example
   * ```ts
   * const completion = await client.chat.completions.create({
   *   model: "Qwen/Qwen3-8B",
   *   messages: [{ role: "user", content: "What is 2+2?" }],
   *   max_completion_tokens: 64,
   * });
   * console.log(completion.choices[0]?.message.content);
   *
   * const stream = await client.chat.completions.create({ model: "Qwen/Qwen3-8B", messages, stream: true });
   * for await (const text of stream.textStream()) process.stdout.write(text);
   * ```
   */
  // A parsing format's stream type `S` is `ParsedChatCompletionStream<T>` (src/lib names it).
  create<T, S extends ChatCompletionStream = ChatCompletionStream>(
    params: ChatCompletionParseStreamRequest<T, S>,
    options?: RequestOptions,
  ): APIPromise<S>;
  create(params: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<ChatCompletion>;
  create(params: ChatCompletionCreateParamsStreaming, options?: RequestOptions): APIPromise<ChatCompletionStream>;
  // The last overload takes the base fields with `stream?: boolean | null`, not the union of the
  // two above: a request that fits neither is then reported against this one, so the compiler
  // names the field that is wrong (say a widened `type: string`) instead of a missing `stream`.
  create(
    params: ChatCompletionCreateParamsBase,
    options?: RequestOptions,
  ): APIPromise<ChatCompletion | ChatCompletionStream>;
  create(
    params: ChatCompletionCreateParamsBase,
    options?: RequestOptions,
  ): APIPromise<ChatCompletion | ChatCompletionStream> {
    return callEndpoint(this._http, chatCompletionsCreate, { params }, options);
  }

  /**
   * {@link create} with a `response_format` from `zodResponseFormat` or `responseFormat`: every
   * choice's `message.parsed` holds the reply parsed and checked against the schema. A reply that
   * is not JSON or does not match rejects with `ContentParseError` naming the choice.
   *
   * With `stream: true` it resolves to a {@link ParsedChatCompletionStream}: its
   * `finalCompletion()` is parsed the same way, and `partialParsed()` shows the value as it grows.
   *
   * @example
   * ```ts
   * import { z } from "zod";
   * import { zodResponseFormat } from "inferloop";
   *
   * const Weather = z.object({ city: z.string(), celsius: z.number() });
   * const response_format = zodResponseFormat(Weather, "weather");
   * const completion = await client.chat.completions.parse({
   *   model: "Qwen/Qwen3-8B",
   *   messages: [{ role: "user", content: "Weather in Paris as JSON" }],
   *   response_format,
   * });
   * console.log(completion.choices[0]?.message.parsed?.celsius);
   *
   * const stream = await client.chat.completions.parse({ model, messages, response_format, stream: true });
   * for await (const partial of stream.partialParsed()) console.log(partial.city);
   * console.log((await stream.finalCompletion()).choices[0]?.message.parsed?.celsius);
   * ```
   */
  parse<T, S extends ChatCompletionStream = ChatCompletionStream>(
    params: ChatCompletionParseStreamRequest<T, S>,
    options?: RequestOptions,
  ): APIPromise<S>;
  // Last, so that a request fitting neither is reported against the plain (non-streamed) form.
  parse<T>(params: ChatCompletionParseRequest<T>, options?: RequestOptions): APIPromise<ParsedChatCompletion<T>>;
  parse<T>(
    params: ChatCompletionParseRequest<T> | ChatCompletionParseStreamRequest<T, ChatCompletionStream>,
    options?: RequestOptions,
  ): APIPromise<ParsedChatCompletion<T> | ChatCompletionStream> {
    const parseReply = parserOf<T>(params);
    if (parseReply === undefined)
      return APIPromise._refused(
        new RequestValidationError(
          [
            {
              path: "response_format",
              message: "parse() needs a response_format made by zodResponseFormat() or responseFormat()",
            },
          ],
          "chat.completions.parse request",
        ),
      );
    // create() gives a stream made with this format a parsed final completion.
    if ((params as { stream?: unknown }).stream === true)
      return this.create(params as ChatCompletionParseStreamRequest<T, ChatCompletionStream>, options);
    return this.create(params as ChatCompletionCreateParamsNonStreaming, options)._map(parseReply);
  }
}
