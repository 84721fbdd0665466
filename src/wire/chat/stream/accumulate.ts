/**
 * Builds a {@link ChatCompletion} from streamed {@link ChatCompletionChunk}s.
 *
 * @module
 */

import type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChoiceLogprobs,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionFinishReason,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
  ChatCompletionTokenLogprob,
  CompletionUsage,
} from "../types.js";
import { assertChunkIndices } from "./chunk-indices.js";
import { finishedLogprobs, LogprobListBuilder } from "./packed-logprobs.js";
import { appendText, type StreamedText } from "./streamed-text.js";

// What the accumulator reads of each object; any other key is carried over as is (last value
// wins). One walk per kind of object, each with its keys in a `switch`: V8 then compiles each
// to a few comparisons of interned strings, and each loop sees the few shapes of its own kind
// (one loop shared by all four, with a callback per key, cost more per chunk than all of these).
function chunkExtra(from: object, into: Extra): Extra {
  for (const key in from) {
    switch (key) {
      case "id":
      case "object":
      case "created":
      case "model":
      case "choices":
      case "usage":
      case "service_tier":
      case "system_fingerprint":
      case "prompt_token_ids":
        continue;
    }
    into = keep(from, key, into);
  }
  return into;
}
function choiceExtra(from: object, into: Extra): Extra {
  for (const key in from) {
    switch (key) {
      case "index":
      case "delta":
      case "logprobs":
      case "finish_reason":
      case "stop_reason":
      case "token_ids":
        continue;
    }
    into = keep(from, key, into);
  }
  return into;
}
function deltaExtra(from: object, into: Extra): Extra {
  for (const key in from) {
    switch (key) {
      case "role":
      case "content":
      case "reasoning":
      case "reasoning_content":
      case "refusal":
      case "tool_calls":
      case "function_call":
        continue;
    }
    into = keep(from, key, into);
  }
  return into;
}
function toolExtra(from: object, into: Extra): Extra {
  for (const key in from) {
    if (key === "index" || key === "id" || key === "type" || key === "function") continue;
    into = keep(from, key, into);
  }
  return into;
}

type Extra = Record<string, unknown> | undefined;

/** `into` with `from[key]` carried over (an `undefined` value is not). */
function keep(from: object, key: string, into: Extra): Extra {
  const value = (from as Record<string, unknown>)[key];
  if (value === undefined) return into;
  (into ??= {})[key] = value;
  return into;
}

interface ToolState {
  id: string | undefined;
  type: string | undefined;
  name: string | undefined;
  args: StreamedText | undefined;
  extra: Record<string, unknown> | undefined;
}

interface ChoiceState {
  index: number;
  role: string | undefined;
  // `undefined` means "never seen", which decides between null and "" in the result.
  content: StreamedText | undefined;
  reasoning: StreamedText | undefined;
  sawReasoningContent: boolean;
  refusal: StreamedText | undefined;
  functionName: string | undefined;
  functionArgs: string | undefined;
  tools: Map<number, ToolState> | undefined;
  logprobs: LogprobListBuilder | undefined;
  refusalLogprobs: ChatCompletionTokenLogprob[] | undefined;
  tokenIds: number[] | undefined;
  finishReason: ChatCompletionFinishReason | null;
  stopReason: number | string | null;
  choiceExtra: Record<string, unknown> | undefined;
  messageExtra: Record<string, unknown> | undefined;
}

function newChoice(index: number): ChoiceState {
  return {
    index,
    role: undefined,
    content: undefined,
    reasoning: undefined,
    sawReasoningContent: false,
    refusal: undefined,
    functionName: undefined,
    functionArgs: undefined,
    tools: undefined,
    logprobs: undefined,
    refusalLogprobs: undefined,
    tokenIds: undefined,
    finishReason: null,
    stopReason: null,
    choiceExtra: undefined,
    messageExtra: undefined,
  };
}

function appendAll<T>(target: T[] | undefined, items: readonly T[]): T[] {
  if (target === undefined) return items.slice();
  for (let i = 0; i < items.length; i++) target.push(items[i]!);
  return target;
}

/**
 * Accumulates chunks into one completion: every choice by `index` (in any interleaving),
 * content and reasoning concatenated (either reasoning name), tool calls merged by tool
 * `index`, logprobs and token ids appended, finish/stop reasons, the last usage seen,
 * `prompt_token_ids`, and unknown fields carried over.
 * @example
 * ```ts
 * const acc = new ChatCompletionAccumulator();
 * for await (const chunk of stream) acc.add(chunk);
 * const completion = acc.finish();
 * console.log(completion.choices[0]?.message.content);
 * ```
 */
export class ChatCompletionAccumulator {
  #first: ChatCompletionChunk | undefined;
  #choices = new Map<number, ChoiceState>();
  #usage: CompletionUsage | undefined;
  #serviceTier: ChatCompletion["service_tier"];
  #systemFingerprint: string | null | undefined;
  #promptTokenIds: number[] | undefined;
  #extra: Record<string, unknown> | undefined;

  /**
   * Adds one chunk. Chunks must arrive in stream order per choice; choices may interleave.
   * A choice or tool-call `index` that is not a non-negative integer throws `ResponseParseError`.
   * @example
   * ```ts
   * const acc = new ChatCompletionAccumulator();
   * acc.add({ id: "c1", object: "chat.completion.chunk", created: 0, model: "m",
   *   choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] });
   * ```
   */
  add(chunk: ChatCompletionChunk): void {
    // Before anything is taken from the chunk: a bad index must not become a choice.
    assertChunkIndices(chunk);
    this._addChecked(chunk);
  }

  /** @internal {@link add} for a chunk whose indices were checked already (a stream's). */
  _addChecked(chunk: ChatCompletionChunk): void {
    this.#first ??= chunk;
    if (chunk.usage != null) this.#usage = chunk.usage;
    if (chunk.service_tier !== undefined) this.#serviceTier = chunk.service_tier;
    if (chunk.system_fingerprint !== undefined) this.#systemFingerprint = chunk.system_fingerprint;
    if (this.#promptTokenIds === undefined && chunk.prompt_token_ids != null) {
      this.#promptTokenIds = chunk.prompt_token_ids;
    }
    this.#extra = chunkExtra(chunk, this.#extra);

    const choices = chunk.choices;
    if (choices == null) return;
    for (let i = 0; i < choices.length; i++) this.#addChoice(choices[i]!);
  }

  #addChoice(c: ChatCompletionChunkChoice): void {
    let s = this.#choices.get(c.index);
    if (s === undefined) {
      s = newChoice(c.index);
      this.#choices.set(c.index, s);
    }
    const d = c.delta;
    if (d != null) {
      if (d.role != null) s.role = d.role;
      if (d.content != null) s.content = appendText(s.content, d.content);
      const reasoning = d.reasoning ?? d.reasoning_content;
      if (reasoning != null) s.reasoning = appendText(s.reasoning, reasoning);
      if (d.reasoning_content != null) s.sawReasoningContent = true;
      if (d.refusal != null) s.refusal = appendText(s.refusal, d.refusal);
      const fc = d.function_call;
      if (fc != null) {
        if (fc.name != null) s.functionName = fc.name;
        if (fc.arguments != null) s.functionArgs = (s.functionArgs ?? "") + fc.arguments;
      }
      const toolCalls = d.tool_calls;
      if (toolCalls != null) {
        for (let t = 0; t < toolCalls.length; t++) {
          const tc = toolCalls[t]!;
          const tools = (s.tools ??= new Map());
          let ts = tools.get(tc.index);
          if (ts === undefined) {
            ts = { id: undefined, type: undefined, name: undefined, args: undefined, extra: undefined };
            tools.set(tc.index, ts);
          }
          // The first fragment names the call; later ones only carry argument pieces.
          if (tc.id != null) ts.id ??= tc.id;
          if (tc.type != null) ts.type ??= tc.type;
          const fn = tc.function;
          if (fn != null) {
            if (fn.name != null) ts.name ??= fn.name;
            if (fn.arguments != null) ts.args = appendText(ts.args, fn.arguments);
          }
          ts.extra = toolExtra(tc, ts.extra);
        }
      }
      s.messageExtra = deltaExtra(d, s.messageExtra);
    }
    const lp = c.logprobs;
    if (lp != null) {
      (s.logprobs ??= new LogprobListBuilder()).append(lp.content ?? []);
      if (lp.refusal != null) s.refusalLogprobs = appendAll(s.refusalLogprobs, lp.refusal);
    }
    if (c.token_ids != null) s.tokenIds = appendAll(s.tokenIds, c.token_ids);
    if (c.finish_reason != null) {
      s.finishReason = c.finish_reason;
      s.stopReason = c.stop_reason ?? null;
    }
    s.choiceExtra = choiceExtra(c, s.choiceExtra);
  }

  /**
   * Returns the completion built so far (callable more than once; later chunks can still be added).
   * Choices are sorted by `index`; `finish_reason` is null for a choice that never finished.
   * A long `logprobs.content` (16 entries or more, in vLLM's shape) was packed as the chunks
   * came, and becomes an ordinary array of the received entries on its first read.
   * @example
   * ```ts
   * const acc = new ChatCompletionAccumulator();
   * for await (const chunk of stream) acc.add(chunk);
   * const completion = acc.finish();
   * completion.choices.map((c) => c.message.content);
   * ```
   */
  finish(): ChatCompletion {
    const first = this.#first;
    const indices = [...this.#choices.keys()].sort((a, b) => a - b);
    const choices: ChatCompletionChoice[] = indices.map((i) => buildChoice(this.#choices.get(i)!));
    const completion: ChatCompletion = {
      ...this.#extra,
      id: first?.id ?? "",
      object: "chat.completion",
      created: first?.created ?? 0,
      model: first?.model ?? "",
      choices,
    };
    if (this.#usage !== undefined) completion.usage = this.#usage;
    if (this.#serviceTier !== undefined) completion.service_tier = this.#serviceTier;
    if (this.#systemFingerprint !== undefined) completion.system_fingerprint = this.#systemFingerprint;
    if (this.#promptTokenIds !== undefined) completion.prompt_token_ids = this.#promptTokenIds;
    return completion;
  }
}

function buildChoice(s: ChoiceState): ChatCompletionChoice {
  const message: ChatCompletionMessage = {
    ...s.messageExtra,
    // Usually "assistant"; see ChatCompletionMessage.role for the exception kept as sent.
    role: (s.role ?? "assistant") as "assistant",
    content: s.content?.text() ?? null,
  };
  if (s.refusal !== undefined) message.refusal = s.refusal.text();
  if (s.functionName !== undefined || s.functionArgs !== undefined) {
    message.function_call = { name: s.functionName ?? "", arguments: s.functionArgs ?? "" };
  }
  if (s.tools !== undefined) {
    const toolIndices = [...s.tools.keys()].sort((a, b) => a - b);
    message.tool_calls = toolIndices.map((t): ChatCompletionMessageToolCall => {
      const ts = s.tools!.get(t)!;
      return {
        ...ts.extra,
        id: ts.id ?? "",
        type: "function",
        function: { name: ts.name ?? "", arguments: ts.args?.text() ?? "" },
      };
    });
  }
  if (s.reasoning !== undefined) {
    message.reasoning = s.reasoning.text();
    if (s.sawReasoningContent) message.reasoning_content = message.reasoning;
  }
  const choice: ChatCompletionChoice = {
    ...s.choiceExtra,
    index: s.index,
    message,
    logprobs: null,
    finish_reason: s.finishReason,
    stop_reason: s.stopReason,
  };
  if (s.logprobs !== undefined || s.refusalLogprobs !== undefined) {
    choice.logprobs = finishedLogprobs(s.logprobs?.list() ?? []) as ChatCompletionChoiceLogprobs;
    if (s.refusalLogprobs !== undefined) choice.logprobs.refusal = s.refusalLogprobs.slice();
  }
  if (s.tokenIds !== undefined) choice.token_ids = s.tokenIds.slice();
  return choice;
}

/**
 * Accumulates a whole sequence of chunks into a completion.
 * @example
 * ```ts
 * const chunks: ChatCompletionChunk[] = [];
 * for await (const chunk of stream) chunks.push(chunk);
 * const completion = accumulateChatCompletion(chunks);
 * ```
 */
export function accumulateChatCompletion(chunks: Iterable<ChatCompletionChunk>): ChatCompletion {
  const acc = new ChatCompletionAccumulator();
  for (const chunk of chunks) acc.add(chunk);
  return acc.finish();
}
