import { RequestValidationError } from "../core/errors/errors.js";
import { APIPromise } from "../core/pipeline/api-promise.js";
import { callEndpoint } from "../core/pipeline/endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import { ToolRun, type ToolRunOptions, type ToolRunParams } from "../lib/tool-runner/tool-run.js";
import type {
  ChatCompletionParseRequest,
  ChatCompletionParseStreamRequest,
  ChatCreate,
} from "../wire/chat/chat-create.js";
import { chatCompletionsCreate } from "../wire/chat/endpoints.js";
import { type ParsedChatCompletion, parserOf } from "../wire/chat/parse-hook.js";
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from "../wire/chat/request-schema.js";
import type { ChatCompletionStream } from "../wire/chat/stream/stream.js";
import type { ChatCompletion } from "../wire/chat/types.js";

/**
 * Chat generation (`POST /v1/chat/completions`, Bearer auth): `create`, `parse`, and the agent
 * loop `runTools`.
 */
export class Completions extends APIResource implements ChatCreate {
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

  /**
   * Runs a tool-using agent: calls the model, runs every tool call it made (at once, unless
   * `parallel_tool_calls: false`), answers each with a `tool` message (results that are not
   * strings JSON-encoded; invalid arguments, an unknown tool or, by default, a tool's error as
   * `Error: ...` for the model to act on), and calls again until a reply makes no tool call.
   * Returns at once; more than `maxIterations` (default 10) model calls rejects with
   * `ToolRunLimitError`, an abort with `APIUserAbortError` (a running tool's `signal` aborts
   * too). Inside `captureTrajectory` the run is one trajectory, each reply kept as a choice.
   *
   * @example
   * ```ts
   * import { z } from "zod";
   * import { tool } from "inferloop";
   *
   * const run = client.chat.completions.runTools({
   *   model,
   *   messages: [{ role: "user", content: "What is 12 * 7?" }],
   *   tools: [tool({ name: "multiply", parameters: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a * b })],
   * });
   * for await (const completion of run) console.log(completion.choices[0]?.finish_reason);
   * const { messages, usage, iterations } = await run.done();
   * ```
   */
  runTools(params: ToolRunParams, options?: ToolRunOptions): ToolRun {
    return new ToolRun(this, params, options);
  }
}

/**
 * Chat generation: `client.chat.completions`.
 */
export class Chat extends APIResource {
  /** Chat completions, plain and streamed, and the tool runner. */
  readonly completions: Completions = new Completions(this._http);
}
