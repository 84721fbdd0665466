import type { ChatCompletion, ChatCompletionChoice, ChatCompletionTokenLogprob, CompletionUsage } from "../index.js";
import type { FinishReason, Usage } from "./spec.js";
import type { JSONObject, JSONValue } from "./spec-v3.js";

/**
 * `providerMetadata.inferloop`: what vLLM sent beside the text, as it sent it. Absent fields
 * are `null` (asked for nothing, got nothing); other extras the server added are kept too.
 */
export interface InferloopProviderMetadata {
  /** The body's `id` (`chatcmpl-...`). */
  id: string | null;
  /** The `x-request-id` response header, as the SDK's `requestId`; `null` when the server sent none. */
  request_id: string | null;
  /** vLLM's own finish reason (`stop`, `length`, `tool_calls`, `abort`, `repetition`, ...). */
  finish_reason: string | null;
  /** The stop string or stop token id that ended the reply. */
  stop_reason: number | string | null;
  /** The choice's `logprobs.content` (a stream's lists joined in order). */
  logprobs: ChatCompletionTokenLogprob[] | null;
  /** Generated token ids, with `return_token_ids` (a stream's lists joined in order). */
  token_ids: number[] | null;
  /** Prompt token ids, with `return_token_ids`. */
  prompt_token_ids: number[] | null;
  /** `prompt_logprobs`, when asked for. */
  prompt_logprobs: Array<Record<string, unknown> | null> | null;
  [key: string]: unknown;
}

const MAPPED: Record<string, FinishReason["unified"]> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool-calls",
  function_call: "tool-calls",
  content_filter: "content-filter",
};

/** The AI SDK's finish reason, with vLLM's kept as `raw` (`abort`, `repetition` map to `other`). */
export function finishReason(raw: string | null | undefined): FinishReason {
  if (raw === null || raw === undefined) return { unified: "other", raw: undefined };
  return { unified: MAPPED[raw] ?? "other", raw };
}

/** Token counts; a figure the server did not send stays `undefined` rather than guessed. */
export function usage(u: CompletionUsage | null | undefined): Usage {
  const cached = u?.prompt_tokens_details?.cached_tokens ?? undefined;
  const reasoning = u?.completion_tokens_details?.reasoning_tokens ?? undefined;
  return {
    inputTokens: {
      total: u?.prompt_tokens,
      noCache: u !== null && u !== undefined && cached !== undefined ? u.prompt_tokens - cached : undefined,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: {
      total: u?.completion_tokens,
      text: u !== null && u !== undefined && reasoning !== undefined ? u.completion_tokens - reasoning : undefined,
      reasoning,
    },
    ...(u !== null && u !== undefined ? { raw: u as unknown as JSONObject } : {}),
  };
}

// Body fields of a completion that are the reply itself or the AI SDK's own (content, usage).
const BODY_SKIP = new Set([
  "id",
  "object",
  "created",
  "model",
  "choices",
  "usage",
  "prompt_token_ids",
  "prompt_logprobs",
]);
const CHOICE_SKIP = new Set(["index", "message", "delta", "logprobs", "finish_reason", "stop_reason", "token_ids"]);

/** Extras other than the listed ones, when present and not null: kept, never dropped. */
function extras(from: Record<string, unknown>, skip: ReadonlySet<string>, into: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(from))
    if (!skip.has(key) && value !== null && value !== undefined) into[key] = value;
}

/** `providerMetadata.inferloop` of a plain completion's first choice. */
export function completionMetadata(
  completion: ChatCompletion,
  choice: ChatCompletionChoice | undefined,
  requestId: string | undefined,
): InferloopProviderMetadata {
  const meta: InferloopProviderMetadata = {
    id: completion.id ?? null,
    request_id: requestId ?? null,
    finish_reason: choice?.finish_reason ?? null,
    stop_reason: choice?.stop_reason ?? null,
    logprobs: choice?.logprobs?.content ?? null,
    token_ids: choice?.token_ids ?? null,
    prompt_token_ids: completion.prompt_token_ids ?? null,
    prompt_logprobs: completion.prompt_logprobs ?? null,
  };
  extras(completion, BODY_SKIP, meta);
  if (choice !== undefined) extras(choice, CHOICE_SKIP, meta);
  return meta;
}

/** The metadata as the AI SDK types it (JSON values). */
export function asProviderMetadata(meta: InferloopProviderMetadata): { inferloop: JSONObject } {
  return { inferloop: meta as unknown as Record<string, JSONValue> };
}

export { BODY_SKIP, CHOICE_SKIP, extras };
