import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  SharedV4Warning,
} from "@ai-sdk/provider";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionStream,
  ChatCompletionTokenLogprob,
  CompletionUsage,
  Inferloop,
} from "../index.js";
import { renameIssues } from "./errors.js";
import {
  asProviderMetadata,
  BODY_SKIP,
  CHOICE_SKIP,
  completionMetadata,
  extras,
  finishReason,
  type InferloopProviderMetadata,
  usage,
} from "./metadata.js";
import { prepareCall } from "./request.js";

const headersObject = (headers: Headers): Record<string, string> => {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
};

let toolCallIds = 0;
const fallbackToolCallId = (): string => `inferloop-tool-call-${++toolCallIds}`;

/**
 * A chat model of the AI SDK's language model specification v4 (what `ai` 7 calls), made by
 * `createInferloopProvider`. Every call goes through `client.chat.completions.create`, so it is
 * validated, retried, timed out, traced and captured like any other call of the client.
 *
 * @example
 * ```ts
 * import { generateText } from "ai";
 *
 * const chat = createInferloopProvider({ client })("Qwen/Qwen3-8B");
 * const { text } = await generateText({ model: chat, prompt: "Say hi" });
 * ```
 */
export class InferloopChatLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider: string;
  readonly modelId: string;
  // vLLM fetches media URLs itself: the AI SDK need not download them first.
  readonly supportedUrls: Record<string, RegExp[]> = {
    "image/*": [/^https?:\/\//i],
    "audio/*": [/^https?:\/\//i],
    "video/*": [/^https?:\/\//i],
  };
  readonly #client: Inferloop;

  constructor(modelId: string, client: Inferloop, provider = "inferloop.chat") {
    this.modelId = modelId;
    this.#client = client;
    this.provider = provider;
  }

  async doGenerate(call: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { params, options, warnings, fromOptions } = prepareCall(call, this.modelId, false);
    let completion: ChatCompletion;
    let requestId: string | undefined;
    let headers: Headers;
    try {
      const { data, response } = await this.#client.chat.completions
        .create(params as ChatCompletionCreateParamsNonStreaming, options)
        .withResponse();
      completion = data;
      requestId = response.requestId;
      headers = response.headers;
    } catch (err) {
      // Thrown as the client's typed error (never the AI SDK's APICallError), so the AI SDK does
      // not retry on top of the client's own retries.
      throw renameIssues(err, fromOptions);
    }

    const choice = completion.choices.find((c) => c.index === 0) ?? completion.choices[0];
    const message = choice?.message;
    const content: LanguageModelV4Content[] = [];
    if (typeof message?.reasoning === "string" && message.reasoning.length > 0)
      content.push({ type: "reasoning", text: message.reasoning });
    if (typeof message?.content === "string" && message.content.length > 0)
      content.push({ type: "text", text: message.content });
    for (const call of message?.tool_calls ?? [])
      content.push({
        type: "tool-call",
        toolCallId: call.id ?? fallbackToolCallId(),
        toolName: call.function.name,
        input: call.function.arguments ?? "",
      });

    return {
      content,
      finishReason: finishReason(choice?.finish_reason),
      usage: usage(completion.usage),
      providerMetadata: asProviderMetadata(completionMetadata(completion, choice, requestId)),
      request: { body: params },
      response: {
        id: completion.id,
        modelId: completion.model,
        ...(typeof completion.created === "number" ? { timestamp: new Date(completion.created * 1000) } : {}),
        headers: headersObject(headers),
        body: completion,
      },
      warnings,
    };
  }

  async doStream(call: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { params, options, warnings, fromOptions } = prepareCall(call, this.modelId, true);
    let stream: ChatCompletionStream;
    try {
      stream = await this.#client.chat.completions.create(params as ChatCompletionCreateParamsStreaming, options);
    } catch (err) {
      throw renameIssues(err, fromOptions);
    }
    return {
      stream: streamParts(stream, warnings, call.includeRawChunks === true),
      request: { body: params },
      response: { headers: headersObject(stream.response.headers) },
    };
  }
}

interface ToolCallState {
  id: string | undefined;
  name: string | undefined;
  arguments: string;
  started: boolean;
}

/** The chunks of choice 0 as the AI SDK's stream parts, closing every open block at the end. */
function streamParts(
  stream: ChatCompletionStream,
  warnings: SharedV4Warning[],
  includeRaw: boolean,
): ReadableStream<LanguageModelV4StreamPart> {
  const iterator = stream[Symbol.asyncIterator]();
  const meta: InferloopProviderMetadata = {
    id: null,
    request_id: stream.requestId ?? null,
    finish_reason: null,
    stop_reason: null,
    logprobs: null,
    token_ids: null,
    prompt_token_ids: null,
    prompt_logprobs: null,
  };
  let logprobs: ChatCompletionTokenLogprob[] | undefined;
  let tokenIds: number[] | undefined;
  let lastUsage: CompletionUsage | null | undefined;
  let sentMetadata = false;
  let open: "text" | "reasoning" | undefined;
  const tools = new Map<number, ToolCallState>();
  let failed = false;
  // After the consumer cancels, the pending read rejects (the stream was aborted): nothing more
  // may be enqueued then.
  let cancelled = false;

  const closeBlock = (out: LanguageModelV4StreamPart[]) => {
    if (open === "text") out.push({ type: "text-end", id: "text-0" });
    if (open === "reasoning") out.push({ type: "reasoning-end", id: "reasoning-0" });
    open = undefined;
  };
  const openBlock = (kind: "text" | "reasoning", out: LanguageModelV4StreamPart[]) => {
    if (open === kind) return;
    closeBlock(out);
    out.push({ type: `${kind}-start`, id: `${kind}-0` });
    open = kind;
  };

  const onChunk = (chunk: ChatCompletionChunk, out: LanguageModelV4StreamPart[]) => {
    if (includeRaw) out.push({ type: "raw", rawValue: chunk });
    if (!sentMetadata) {
      sentMetadata = true;
      meta.id = chunk.id ?? null;
      out.push({
        type: "response-metadata",
        ...(chunk.id !== undefined ? { id: chunk.id } : {}),
        ...(chunk.model !== undefined ? { modelId: chunk.model } : {}),
        ...(typeof chunk.created === "number" ? { timestamp: new Date(chunk.created * 1000) } : {}),
      });
    }
    if (chunk.prompt_token_ids != null) meta.prompt_token_ids = chunk.prompt_token_ids;
    const promptLogprobs = (chunk as { prompt_logprobs?: InferloopProviderMetadata["prompt_logprobs"] })
      .prompt_logprobs;
    if (promptLogprobs != null) meta.prompt_logprobs = promptLogprobs;
    extras(chunk, BODY_SKIP, meta);
    if (chunk.usage != null) lastUsage = chunk.usage;

    const choice = chunk.choices.find((c) => c.index === 0);
    if (choice === undefined) return;
    extras(choice, CHOICE_SKIP, meta);
    if (choice.logprobs?.content != null) (logprobs ??= []).push(...choice.logprobs.content);
    if (choice.token_ids != null) (tokenIds ??= []).push(...choice.token_ids);
    if (choice.finish_reason != null) meta.finish_reason = choice.finish_reason;
    if (choice.stop_reason != null) meta.stop_reason = choice.stop_reason;

    const delta = choice.delta;
    if (typeof delta?.reasoning === "string" && delta.reasoning.length > 0) {
      openBlock("reasoning", out);
      out.push({ type: "reasoning-delta", id: "reasoning-0", delta: delta.reasoning });
    }
    if (typeof delta?.content === "string" && delta.content.length > 0) {
      openBlock("text", out);
      out.push({ type: "text-delta", id: "text-0", delta: delta.content });
    }
    for (const part of delta?.tool_calls ?? []) {
      let state = tools.get(part.index);
      if (state === undefined) {
        state = { id: undefined, name: undefined, arguments: "", started: false };
        tools.set(part.index, state);
      }
      if (part.id != null) state.id ??= part.id;
      if (part.function?.name != null) state.name ??= part.function.name;
      const piece = part.function?.arguments ?? "";
      if (!state.started && state.name !== undefined) {
        closeBlock(out);
        state.id ??= fallbackToolCallId();
        state.started = true;
        out.push({ type: "tool-input-start", id: state.id, toolName: state.name });
        // Argument text that came before the name (not vLLM's order, but possible) goes first.
        if (state.arguments.length > 0) out.push({ type: "tool-input-delta", id: state.id, delta: state.arguments });
      }
      state.arguments += piece;
      if (state.started && piece.length > 0) out.push({ type: "tool-input-delta", id: state.id!, delta: piece });
    }
  };

  const finish = (out: LanguageModelV4StreamPart[]) => {
    closeBlock(out);
    for (const [, state] of [...tools].sort(([a], [b]) => a - b)) {
      if (!state.started || state.id === undefined || state.name === undefined) continue;
      out.push({ type: "tool-input-end", id: state.id });
      out.push({ type: "tool-call", toolCallId: state.id, toolName: state.name, input: state.arguments });
    }
    if (logprobs !== undefined) meta.logprobs = logprobs;
    if (tokenIds !== undefined) meta.token_ids = tokenIds;
    out.push({
      type: "finish",
      finishReason: failed
        ? { unified: "error", raw: meta.finish_reason ?? undefined }
        : finishReason(meta.finish_reason),
      usage: usage(lastUsage),
      providerMetadata: asProviderMetadata(meta),
    });
  };

  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      controller.enqueue({ type: "stream-start", warnings });
    },
    // One chunk per pull, so a consumer that stops reading stops the HTTP stream's reads too.
    async pull(controller) {
      const out: LanguageModelV4StreamPart[] = [];
      try {
        for (;;) {
          const next = await iterator.next();
          if (cancelled) return;
          if (next.done === true) {
            finish(out);
            for (const part of out) controller.enqueue(part);
            controller.close();
            return;
          }
          onChunk(next.value, out);
          if (out.length > 0) break;
        }
      } catch (err) {
        if (cancelled) return;
        // The client's typed error (cut off, error event, timeout, abort), as an error part.
        failed = true;
        out.push({ type: "error", error: err });
        finish(out);
        for (const part of out) controller.enqueue(part);
        controller.close();
        return;
      }
      if (cancelled) return;
      for (const part of out) controller.enqueue(part);
    },
    cancel(reason) {
      cancelled = true;
      stream.abort(reason);
    },
  });
}
