/**
 * Named types of the chat completion request (`POST /v1/chat/completions`), one doc line per
 * field: meaning, default (what the server does when the field is left out) and range.
 *
 * @module
 */
import type { ChatCompletionMessageParam, ChatCompletionTool } from "./message-types.js";
import type {
  ChatCompletionDocument,
  ChatCompletionStreamOptions,
  EngineXargs,
  RepetitionDetectionParams,
  ResponseFormat,
  StructuredOutputsParams,
} from "./request-option-types.js";

/**
 * How much a reasoning model thinks before answering. Which values a model honours depends on
 * its chat template; `"none"` turns reasoning off where the template allows it.
 *
 * @example
 * ```ts
 * const effort: ReasoningEffort = "low";
 * ```
 */
export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/**
 * A `tool_choice` that names the one function the model must call.
 *
 * @example
 * ```ts
 * const choice: ChatCompletionNamedToolChoice = { type: "function", function: { name: "get_weather" } };
 * ```
 */
export interface ChatCompletionNamedToolChoice {
  /** Always `"function"`; vLLM fills it in when absent. */
  type?: "function";
  /** The function to call. */
  function: {
    /** Its name: one of the request's `tools`. */
    name: string;
  };
}

/**
 * vLLM's forms of `tool_choice`: `"none"` (no calls), `"auto"` (the model decides), `"required"`
 * (at least one call) or a named function.
 *
 * @example
 * ```ts
 * const choice: ChatCompletionToolChoiceOption = "auto";
 * ```
 */
export type ChatCompletionToolChoiceOption = "none" | "auto" | "required" | ChatCompletionNamedToolChoice;

/**
 * The fields of a chat completion request, streaming or not (`stream?: boolean | null`). Use it
 * for a request whose `stream` is only known at run time; {@link ChatCompletionCreateParamsStreaming}
 * and {@link ChatCompletionCreateParamsNonStreaming} fix it. Only `messages` is required.
 *
 * @example
 * ```ts
 * const params: ChatCompletionCreateParamsBase = {
 *   model: "Qwen/Qwen3-8B",
 *   messages: [{ role: "user", content: "Hi" }],
 *   stream: process.env.STREAM === "1",
 * };
 * ```
 */
export interface ChatCompletionCreateParamsBase {
  /** The conversation so far, oldest first. At least one message. */
  messages: ChatCompletionMessageParam[];
  /** Model to answer, an `id` from `client.models.list()`. Absent or null: the server's only model. */
  model?: string | null;
  /** Penalizes tokens by how often they already appear in the output; -2 to 2. Default 0. */
  frequency_penalty?: number | null;
  /** Bias added to the logits of token ids (keys are token ids as strings), clamped to ±100. */
  logit_bias?: Record<string, number> | null;
  /** Return the log-probability of each output token in `choices[].logprobs`. Default false. */
  logprobs?: boolean | null;
  /**
   * Most likely alternatives returned per output token, 0 to the server's maximum (20 by
   * default), or -1 for all; needs `logprobs: true` when above 0. Default 0.
   */
  top_logprobs?: number | null;
  /**
   * Most tokens to generate. Default: as many as the context leaves.
   * @deprecated Use `max_completion_tokens`, its counterpart.
   */
  max_tokens?: number | null;
  /** Most tokens to generate, reasoning included. Default: as many as the context leaves. */
  max_completion_tokens?: number | null;
  /** Replies to generate for the same messages; at least 1. With `use_beam_search`, the beam width. Default 1. */
  n?: number | null;
  /** Penalizes tokens that already appear in the output, once each; -2 to 2. Default 0. */
  presence_penalty?: number | null;
  /** The reply's format: text, any JSON object, or JSON matching a schema (see `zodResponseFormat`). */
  response_format?: ResponseFormat | null;
  /** Seed of the sampler, for replies that repeat; an int64 (`±9223372036854775000` at most in JS). Default random. */
  seed?: number | null;
  /** Text (or up to several texts) that ends generation when produced; not part of the reply. Default none. */
  stop?: string | string[] | null;
  /** Stream the reply as server-sent events: `create` then resolves to a `ChatCompletionStream`. Default false. */
  stream?: boolean | null;
  /** What a streamed reply reports besides the text (usage). Only with `stream: true`. */
  stream_options?: ChatCompletionStreamOptions | null;
  /** Sampling temperature, 0 (greedy) to 2; higher is more random. Default: the model's, else 1. */
  temperature?: number | null;
  /** Nucleus sampling: keep the most likely tokens up to this total probability, above 0 to 1. Default 1. */
  top_p?: number | null;
  /** Functions the model may call. Not empty when given. */
  tools?: ChatCompletionTool[] | null;
  /**
   * Whether and which of `tools` the model calls: `"none"`, `"auto"` (the model decides; needs a
   * server started with `--enable-auto-tool-choice` and a tool parser), `"required"` (at least
   * one call) or a named function. Absent with `tools`: vLLM picks `"auto"`. Anything but
   * `"none"` needs `tools`. See docs/tool-calling.md.
   */
  tool_choice?: ChatCompletionToolChoiceOption | null;
  /** How much a reasoning model thinks before answering. Default: the model's. */
  reasoning_effort?: ReasoningEffort | null;
  /** Return the model's reasoning in `message.reasoning`. Default true. */
  include_reasoning?: boolean;
  /** Allow several tool calls in one reply. Default true. */
  parallel_tool_calls?: boolean | null;
  /** Id of the end user (an OpenAI field; vLLM accepts it and does not use it). */
  user?: string | null;
  /** Beam search instead of sampling; `n` is the beam width. Default false. */
  use_beam_search?: boolean;
  /** Sample only among the k most likely tokens; 0 or -1 for all. Default: all. */
  top_k?: number | null;
  /** Drop tokens less likely than this fraction of the most likely one, 0 to 1. Default 0. */
  min_p?: number | null;
  /** Penalizes tokens already in the prompt or output; above 1 discourages repeats, 1 is none. Default 1. */
  repetition_penalty?: number | null;
  /** Beam search only: favours longer (above 1) or shorter (below 1) sequences. Default 1. */
  length_penalty?: number;
  /** Token ids that end generation, like `stop` for tokens. Default none. */
  stop_token_ids?: number[] | null;
  /** Keep the matched `stop` text at the end of the reply. Default false. */
  include_stop_str_in_output?: boolean;
  /** Keep generating past the end-of-sequence token, up to the token limit. Default false. */
  ignore_eos?: boolean;
  /** Fewest tokens to generate before a stop is honoured; at most the token limit. Default 0. */
  min_tokens?: number;
  /** Leave special tokens out of the reply's text. Default true. */
  skip_special_tokens?: boolean;
  /** Put spaces between special tokens in the reply's text. Default true. */
  spaces_between_special_tokens?: boolean;
  /** Keep only the last this-many prompt tokens; -1 for the model's context length. Default: no truncation. */
  truncate_prompt_tokens?: number | null;
  /** Log-probabilities returned per prompt token (0 or more, -1 for all); not with `stream: true`. */
  prompt_logprobs?: number | null;
  /** Generate only these token ids. Default: any. */
  allowed_token_ids?: number[] | null;
  /** Words the reply must not contain. Each not empty. */
  bad_words?: string[];
  /** Start the reply with the last message when both have the same role. Default false. */
  echo?: boolean;
  /** Add the chat template's generation prompt (the start of an assistant turn). Default true. */
  add_generation_prompt?: boolean;
  /**
   * Leave the final message open (no end-of-turn marker) so the model continues it: a prefilled
   * reply. Cannot be combined with `add_generation_prompt`; alone, the SDK sends
   * `add_generation_prompt: false` for you. Default false.
   */
  continue_final_message?: boolean;
  /** Add special tokens (such as a start-of-sequence token) on top of the chat template's. Default false. */
  add_special_tokens?: boolean;
  /** Documents for retrieval-augmented templates, each with `title` and `text`. No effect if the template has no use for them. */
  documents?: ChatCompletionDocument[] | null;
  /** A chat template (Jinja) to use instead of the model's. Refused unless the server trusts request templates. */
  chat_template?: string | null;
  /** Extra variables for the chat template, such as `{ enable_thinking: false }`. */
  chat_template_kwargs?: Record<string, unknown> | null;
  /** Extra arguments for the multimodal processor. Refused unless the server trusts them. */
  mm_processor_kwargs?: Record<string, unknown> | null;
  /** Constrain the reply to a JSON Schema, regex, choice or grammar (vLLM). Not with a JSON `response_format`. */
  structured_outputs?: StructuredOutputsParams | null;
  /** Scheduling priority: lower is handled earlier. Anything but 0 needs a server with priority scheduling. Default 0. */
  priority?: number;
  /** Id of the request, used in the server's logs and in the reply's `id`. Default: a random one. */
  request_id?: string;
  /** With `logprobs`, write tokens as `token_id:<id>` strings. Default false. */
  return_tokens_as_token_ids?: boolean | null;
  /** Return token ids next to the text: `prompt_token_ids`, and `token_ids` per choice (per chunk when streaming). Default false. */
  return_token_ids?: boolean | null;
  /**
   * Salt of the prefix cache, so that only requests with the same salt share cached prompts.
   * Random and secret: up to 128 characters, without `@`, `/`, `\` (use URL-safe base64).
   */
  cache_salt?: string | null;
  /** Parameters for disaggregated prefill/decode serving, passed to the KV connector. */
  kv_transfer_params?: Record<string, unknown> | null;
  /**
   * Extension parameters for server plugins (the spec's name; vLLM itself reads `vllm_xargs`
   * and keeps this one unread, so a list is sent as written too).
   */
  engine_xargs?: EngineXargs | unknown[] | null;
  /** Extension parameters for server plugins, under vLLM's own name. */
  vllm_xargs?: EngineXargs | null;
  /** End generation early when an n-gram pattern of the output repeats. */
  repetition_detection?: RepetitionDetectionParams | null;
}

/**
 * A streaming request: `stream: true`. `create` resolves to a `ChatCompletionStream`.
 *
 * @example
 * ```ts
 * const params: ChatCompletionCreateParamsStreaming = {
 *   model: "Qwen/Qwen3-8B",
 *   messages: [{ role: "user", content: "Hi" }],
 *   stream: true,
 *   stream_options: { include_usage: true },
 * };
 * ```
 */
export interface ChatCompletionCreateParamsStreaming extends ChatCompletionCreateParamsBase {
  /** Always `true`: stream the reply as server-sent events. */
  stream: true;
}

/**
 * A non-streaming request: `stream` absent, `false` or `null`. `create` resolves to a `ChatCompletion`.
 *
 * @example
 * ```ts
 * const params: ChatCompletionCreateParamsNonStreaming = { model: "Qwen/Qwen3-8B", messages: [{ role: "user", content: "Hi" }] };
 * ```
 */
export interface ChatCompletionCreateParamsNonStreaming extends ChatCompletionCreateParamsBase {
  /** Absent, `false` or `null`: the whole reply at once. */
  stream?: false | null;
}

/**
 * Any chat completion request: streaming or not, told apart by `stream`.
 *
 * @example
 * ```ts
 * const params: ChatCompletionCreateParams = { messages: [{ role: "user", content: "Hi" }], max_completion_tokens: 64 };
 * ```
 */
export type ChatCompletionCreateParams = ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming;
