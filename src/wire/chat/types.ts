/**
 * Response and chunk types of chat completions: plain interfaces, no run-time validation
 * (the hot path is parse-and-cast). Fields are optional or nullable where real servers omit
 * them or send `null`; unknown fields are kept and typed through index signatures.
 *
 * @module
 */

/**
 * Why a choice stopped. Open union: servers add values (vLLM: `abort`, `repetition`).
 */
export type ChatCompletionFinishReason =
  | "stop"
  | "length"
  | "tool_calls"
  | "abort"
  | "repetition"
  | "content_filter"
  | "function_call"
  | (string & {});

/**
 * Service tier that handled the request.
 */
export type ChatCompletionServiceTier = "auto" | "default" | "flex" | "scale" | "priority" | (string & {});

/**
 * One alternative token with its log probability.
 */
export interface ChatCompletionTopLogprob {
  token: string;
  logprob: number;
  bytes?: number[] | null;
  [key: string]: unknown;
}

/**
 * Log probability of one generated token (`-inf` arrives clamped to -9999).
 * With `return_tokens_as_token_ids`, `token` reads `"token_id:<id>"`.
 */
export interface ChatCompletionTokenLogprob {
  token: string;
  logprob: number;
  bytes?: number[] | null;
  top_logprobs?: ChatCompletionTopLogprob[];
  [key: string]: unknown;
}

/**
 * `logprobs` of a choice. vLLM sends only `content`; OpenAI adds `refusal`.
 */
export interface ChatCompletionChoiceLogprobs {
  content?: ChatCompletionTokenLogprob[] | null;
  refusal?: ChatCompletionTokenLogprob[] | null;
  [key: string]: unknown;
}

/**
 * One prompt token's log probability entry (`prompt_logprobs`).
 */
export interface PromptLogprob {
  logprob: number;
  rank?: number | null;
  decoded_token?: string | null;
  [key: string]: unknown;
}

/**
 * `prompt_logprobs`: one entry per prompt token (the first is `null`), each keyed by the
 * token id as a string.
 */
export type PromptLogprobs = Array<Record<string, PromptLogprob> | null>;

/**
 * Token accounting. In streams with `continuous_usage_stats`, every chunk carries it.
 */
export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number | null; [key: string]: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null; [key: string]: unknown } | null;
  [key: string]: unknown;
}

/**
 * A URL citation annotation of a message.
 */
export interface ChatCompletionAnnotation {
  type: "url_citation" | (string & {});
  url_citation?: {
    start_index: number;
    end_index: number;
    title: string;
    url: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/**
 * Audio output of a message.
 */
export interface ChatCompletionAudio {
  id: string;
  data: string;
  transcript: string;
  expires_at: number;
  [key: string]: unknown;
}

/**
 * A function call made by the model; `arguments` is a JSON string (not validated).
 */
export interface ChatCompletionFunctionCall {
  name: string;
  arguments: string;
  [key: string]: unknown;
}

/**
 * A tool call in a reply message.
 */
export interface ChatCompletionMessageToolCall {
  id: string;
  type: "function";
  function: ChatCompletionFunctionCall;
  [key: string]: unknown;
}

/**
 * The reply message of a choice. `reasoning` is filled from `reasoning_content` by
 * {@link normalizeCompletion} when only the older name was sent; both keys then exist.
 */
export interface ChatCompletionMessage {
  /**
   * Typed as `"assistant"` so a reply can be pushed back onto `messages` as is. (With
   * `add_generation_prompt: false`, vLLM reports the last message's role here instead.)
   */
  role: "assistant";
  content: string | null;
  refusal?: string | null;
  /**
   * vLLM declares this as one annotation object (`ChatMessage.annotations` in
   * `vllm/entrypoints/openai/chat_completion/protocol.py`) and sends `null` in practice;
   * OpenAI sends a list. Both shapes are typed.
   */
  annotations?: ChatCompletionAnnotation | ChatCompletionAnnotation[] | null;
  audio?: ChatCompletionAudio | null;
  function_call?: ChatCompletionFunctionCall | null;
  tool_calls?: ChatCompletionMessageToolCall[] | null;
  reasoning?: string | null;
  /** Older name of `reasoning`, sent by vLLM before late 2025. */
  reasoning_content?: string | null;
  [key: string]: unknown;
}

/**
 * One choice of a non-streamed completion.
 */
export interface ChatCompletionChoice {
  index: number;
  message: ChatCompletionMessage;
  logprobs?: ChatCompletionChoiceLogprobs | null;
  /** `null` only in completions accumulated from a stream that stopped early. */
  finish_reason: ChatCompletionFinishReason | null;
  /** The stop token id or stop string that ended the choice, when one did. */
  stop_reason?: number | string | null;
  /** Generated token ids, with `return_token_ids`. */
  token_ids?: number[] | null;
  /**
   * Newer vLLM, mixture-of-experts models asked for it: the experts routed to, per token, per
   * layer (`[tokens][layers][top_k]`); `null` otherwise.
   */
  routed_experts?: number[][][] | null;
  [key: string]: unknown;
}

/**
 * A chat completion (response of a non-streamed request, or accumulated from a stream).
 */
export interface ChatCompletion {
  id: string;
  object: "chat.completion" | (string & {});
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  /** Always sent by the server; absent on a completion accumulated without `include_usage`. */
  usage?: CompletionUsage | null;
  service_tier?: ChatCompletionServiceTier | null;
  system_fingerprint?: string | null;
  prompt_logprobs?: PromptLogprobs | null;
  prompt_token_ids?: number[] | null;
  prompt_text?: string | null;
  kv_transfer_params?: Record<string, unknown> | null;
  /** Newer vLLM: encoder-cache transfer parameters for disaggregated serving; `null` when unused. */
  ec_transfer_params?: Record<string, unknown> | null;
  /** Newer vLLM: per-request metrics when the server reports them; `null` otherwise. */
  metrics?: Record<string, unknown> | null;
  [key: string]: unknown;
}

/**
 * A fragment of a tool call in a stream. The first fragment of a tool `index` carries
 * `id`, `type` and `function.name`; later ones carry only `function.arguments` pieces.
 */
export interface ChatCompletionChunkToolCallDelta {
  index: number;
  id?: string | null;
  type?: "function" | null;
  function?: { name?: string | null; arguments?: string | null; [key: string]: unknown } | null;
  [key: string]: unknown;
}

/**
 * What one chunk adds to a choice's message.
 */
export interface ChatCompletionChunkDelta {
  role?: "assistant" | (string & {}) | null;
  content?: string | null;
  reasoning?: string | null;
  /** Older name of `reasoning`; see {@link normalizeChunk}. */
  reasoning_content?: string | null;
  refusal?: string | null;
  tool_calls?: ChatCompletionChunkToolCallDelta[] | null;
  function_call?: { name?: string | null; arguments?: string | null; [key: string]: unknown } | null;
  [key: string]: unknown;
}

/**
 * One choice inside a chunk. vLLM sends exactly one per chunk; with `n > 1` indices interleave.
 */
export interface ChatCompletionChunkChoice {
  index: number;
  delta: ChatCompletionChunkDelta;
  logprobs?: ChatCompletionChoiceLogprobs | null;
  finish_reason?: ChatCompletionFinishReason | null;
  /** Only on the finish chunk: the stop token id or string, or null. */
  stop_reason?: number | string | null;
  /** Token ids generated in this chunk, with `return_token_ids`. */
  token_ids?: number[] | null;
  [key: string]: unknown;
}

/**
 * A streamed chunk (`object: "chat.completion.chunk"`). The final usage chunk has `choices: []`.
 */
export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk" | (string & {});
  created: number;
  model: string;
  choices: ChatCompletionChunkChoice[];
  usage?: CompletionUsage | null;
  service_tier?: ChatCompletionServiceTier | null;
  system_fingerprint?: string | null;
  /** First chunk only, with `return_token_ids`. */
  prompt_token_ids?: number[] | null;
  prompt_text?: string | null;
  metrics?: Record<string, unknown> | null;
  [key: string]: unknown;
}

/**
 * In place, copies `reasoning_content` to `reasoning` on one message or delta when
 * `reasoning` is absent (or null while `reasoning_content` is set). Returns its argument.
 *
 * @example
 * ```ts
 * const message: { reasoning?: string; reasoning_content?: string } = { reasoning_content: "2+2" };
 * normalizeReasoning(message).reasoning; // "2+2"
 * ```
 */
export function normalizeReasoning<T extends { reasoning?: string | null; reasoning_content?: string | null }>(
  target: T,
): T {
  // Hot path: servers now send only `reasoning`, so one read of an absent key ends it.
  if (target === undefined || target === null) return target;
  const rc = target.reasoning_content;
  if (rc === undefined) return target;
  const r = target.reasoning;
  if (r === undefined || (r === null && rc !== null)) target.reasoning = rc;
  return target;
}

/**
 * In place, copies each choice message's `reasoning_content` to `reasoning` when
 * `reasoning` is absent (or null while `reasoning_content` is set). Keeps the original key.
 * Returns its argument.
 *
 * @example
 * ```ts
 * const res = await fetch("http://localhost:8000/v1/chat/completions", { method: "POST", body: JSON.stringify({ model, messages }) });
 * normalizeCompletion((await res.json()) as ChatCompletion).choices[0]?.message.reasoning;
 * ```
 */
export function normalizeCompletion<T extends ChatCompletion>(completion: T): T {
  const choices = completion.choices;
  if (choices === undefined || choices === null) return completion;
  for (let i = 0, n = choices.length; i < n; i++) normalizeReasoning(choices[i]!.message);
  return completion;
}

/**
 * In place, copies each choice delta's `reasoning_content` to `reasoning` when `reasoning`
 * is absent. Keeps the original key. Returns its argument.
 *
 * @example
 * ```ts
 * const line = '{"choices":[{"index":0,"delta":{"reasoning_content":"2+2"},"finish_reason":null}]}';
 * normalizeChunk(JSON.parse(line) as ChatCompletionChunk).choices[0]?.delta.reasoning; // "2+2"
 * ```
 */
export function normalizeChunk<T extends ChatCompletionChunk>(chunk: T): T {
  const choices = chunk.choices;
  if (choices === undefined || choices === null) return chunk;
  for (let i = 0, n = choices.length; i < n; i++) normalizeReasoning(choices[i]!.delta);
  return chunk;
}
