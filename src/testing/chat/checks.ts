/**
 * Request validation of `POST /v1/chat/completions`, refusing what vLLM refuses with its 400
 * envelope `{"error":{"message","type":"BadRequestError","param","code":400}}` (messages
 * contain vLLM's wording, so tests can match by substring), and 404 `NotFoundError` for a model
 * that is not in the model list. Everything vLLM's request model accepts is accepted (unknown
 * top-level fields such as the spec's `engine_xargs` are kept unread, any role, nulls); the rules follow
 * `vllm/entrypoints/openai/chat_completion/protocol.py` and `vllm/sampling_params.py`. The fake
 * behaves as a server started with `--enable-auto-tool-choice`: `tools` without `tool_choice`
 * (or with `"auto"`) may produce tool calls. The rules are the shared case table's
 * (`tests/cases/real-server-cases.ts`), run against the fake and the SDK alike.
 */
import { isWellFormed } from "../../core/checks/well-formed.js";
import { openAiError } from "../responses.js";
import type { FakeModelEntry, ResponsePlan } from "../types.js";
import { isRecord } from "../util.js";

/**
 * A chat message as the fake reads it.
 */
export interface ChatMessage {
  role: string;
  content?: string | Array<{ type?: string; text?: string }> | null;
  name?: string;
  [key: string]: unknown;
}

/**
 * The chat request members the fake acts on (others are accepted and ignored).
 */
export interface ChatParams {
  model: string;
  messages: ChatMessage[];
  n?: number | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  stop?: string | string[] | null;
  stop_token_ids?: number[] | null;
  include_stop_str_in_output?: boolean;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean | null; continuous_usage_stats?: boolean | null } | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  prompt_logprobs?: number | null;
  return_token_ids?: boolean | null;
  return_tokens_as_token_ids?: boolean | null;
  reasoning_effort?: string | null;
  include_reasoning?: boolean;
  tools?: Array<{
    type: string;
    function: { name: string; description?: string; parameters?: Record<string, unknown> };
  }> | null;
  tool_choice?: string | { type?: string; function?: { name?: string } } | null;
  seed?: number | null;
  temperature?: number | null;
  echo?: boolean;
  add_generation_prompt?: boolean;
  continue_final_message?: boolean;
  request_id?: string;
}

/**
 * How the vLLM the fake stands for was started, where that changes the answer.
 */
export interface ChatServerFlags {
  /** `--enable-auto-tool-choice` with a `--tool-call-parser`. Default true. */
  autoToolChoice?: boolean;
}

type Kind = "bool" | "int" | "number" | "string" | "object" | "array";

// Types of the spec's request members; `null` is accepted for each unless listed in NOT_NULL.
const FIELD_TYPES: Record<string, Kind> = {
  model: "string",
  frequency_penalty: "number",
  logit_bias: "object",
  logprobs: "bool",
  top_logprobs: "int",
  max_tokens: "int",
  max_completion_tokens: "int",
  n: "int",
  presence_penalty: "number",
  response_format: "object",
  seed: "int",
  stream: "bool",
  stream_options: "object",
  temperature: "number",
  top_p: "number",
  tools: "array",
  tool_choice: "string",
  reasoning_effort: "string",
  include_reasoning: "bool",
  parallel_tool_calls: "bool",
  user: "string",
  use_beam_search: "bool",
  top_k: "int",
  min_p: "number",
  repetition_penalty: "number",
  length_penalty: "number",
  stop_token_ids: "array",
  include_stop_str_in_output: "bool",
  ignore_eos: "bool",
  min_tokens: "int",
  skip_special_tokens: "bool",
  spaces_between_special_tokens: "bool",
  truncate_prompt_tokens: "int",
  prompt_logprobs: "int",
  allowed_token_ids: "array",
  bad_words: "array",
  echo: "bool",
  add_generation_prompt: "bool",
  continue_final_message: "bool",
  add_special_tokens: "bool",
  documents: "array",
  chat_template: "string",
  chat_template_kwargs: "object",
  mm_processor_kwargs: "object",
  structured_outputs: "object",
  priority: "int",
  request_id: "string",
  return_tokens_as_token_ids: "bool",
  return_token_ids: "bool",
  cache_salt: "string",
  kv_transfer_params: "object",
  vllm_xargs: "object",
  repetition_detection: "object",
  thinking_token_budget: "int",
  watermarking: "bool",
  truncation_side: "string",
  logprob_token_ids: "array",
  media_io_kwargs: "object",
  session_id: "string",
  routed_experts_prompt_start: "int",
  return_token_offsets: "bool",
  return_prompt_text: "bool",
  return_mm_kwargs: "bool",
  return_assistant_tokens_mask: "bool",
  ec_transfer_params: "object",
  stream_interval: "int",
};

const NOT_NULL = new Set([
  "include_reasoning",
  "use_beam_search",
  "length_penalty",
  "include_stop_str_in_output",
  "ignore_eos",
  "min_tokens",
  "skip_special_tokens",
  "spaces_between_special_tokens",
  "echo",
  "add_generation_prompt",
  "continue_final_message",
  "add_special_tokens",
  "priority",
  "request_id",
  "routed_experts_prompt_start",
  "return_mm_kwargs",
]);

const KIND_MESSAGES: Record<Kind, string> = {
  bool: "Input should be a valid boolean",
  int: "Input should be a valid integer",
  number: "Input should be a valid number",
  string: "Input should be a valid string",
  object: "Input should be a valid dictionary",
  array: "Input should be a valid list",
};

// vLLM bounds seed to int64; a double at or beyond ±2^63 is out (see the SDK's request schema).
const TWO_POW_63 = 2 ** 63;
const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];
const STRUCTURED_CONSTRAINTS = ["json", "regex", "choice", "grammar", "json_object", "structural_tag"];
const FORMAT_CONSTRAINT: Record<string, string> = {
  json_object: "json_object",
  json_schema: "json",
  structural_tag: "structural_tag",
};

function hasKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case "bool":
      return typeof value === "boolean";
    case "int":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "string":
      return typeof value === "string";
    case "object":
      return isRecord(value);
    case "array":
      return Array.isArray(value);
  }
}

/**
 * A 400 in vLLM's form for a failed pydantic validator (message prefixed like pydantic's).
 */
export function invalid(text: string, param: string | null): ResponsePlan {
  return openAiError(
    400,
    "BadRequestError",
    `1 validation error for ChatCompletionRequest\n  Value error, ${text} [type=value_error]`,
    param,
  );
}

function typeError(field: string, kind: Kind): ResponsePlan {
  return openAiError(
    400,
    "BadRequestError",
    `1 validation error for ChatCompletionRequest\n${field}\n  ${KIND_MESSAGES[kind]} [type=${kind}_type]`,
    field,
  );
}

function checkTypes(body: Record<string, unknown>): ResponsePlan | undefined {
  for (const [field, kind] of Object.entries(FIELD_TYPES)) {
    if (!(field in body)) continue;
    const value = body[field];
    if (value === null && !NOT_NULL.has(field)) continue;
    if (field === "stop" || field === "tool_choice" || field === "reasoning_effort") continue;
    if (!hasKind(value, kind)) return typeError(field, kind);
  }
  const stop = body["stop"];
  if (
    stop !== undefined &&
    stop !== null &&
    typeof stop !== "string" &&
    !(Array.isArray(stop) && stop.every((s) => typeof s === "string"))
  ) {
    return typeError("stop", "array");
  }
  return undefined;
}

function checkMessages(messages: unknown): ResponsePlan | undefined {
  if (messages === undefined)
    return openAiError(
      400,
      "BadRequestError",
      "1 validation error for ChatCompletionRequest\nmessages\n  Field required [type=missing]",
      "messages",
    );
  if (!Array.isArray(messages)) return typeError("messages", "array");
  if (messages.length === 0) return invalid("`messages` must contain at least one message.", "messages");
  for (const [i, m] of messages.entries()) {
    if (!isRecord(m) || typeof m["role"] !== "string") {
      return openAiError(
        400,
        "BadRequestError",
        `1 validation error for ChatCompletionRequest\nmessages.${i}.role\n  Field required [type=missing]`,
        "messages",
      );
    }
    const content = m["content"];
    if (content !== undefined && content !== null && typeof content !== "string" && !Array.isArray(content)) {
      return typeError(`messages.${i}.content`, "string");
    }
    // Only OpenAI's assistant and function messages take null; vLLM's free-form message does not.
    if (content === null && m["role"] !== "assistant" && m["role"] !== "function")
      return typeError(`messages.${i}.content`, "string");
    // OpenAI's assistant message refuses tool_calls None, the free-form one content None.
    if (m["role"] === "assistant" && content === null && m["tool_calls"] === null)
      return typeError(`messages.${i}.tool_calls`, "array");
    const partError = Array.isArray(content) ? checkParts(content, i, m["role"]) : undefined;
    if (partError) return partError;
    if (hasLoneSurrogate(m))
      return openAiError(
        400,
        "BadRequestError",
        `1 validation error for ChatCompletionRequest\nmessages.${i}\n  Input should be a valid string, unable to parse raw data as a unicode string [type=string_unicode]`,
        "messages",
      );
  }
  return undefined;
}

const IMAGE_DETAILS = ["auto", "low", "high"];
// chat_utils._parse_chat_message_content_mm_part: the keys a part without `type` is read by.
const UNTYPED_KEYS = [
  "image_url",
  "image_pil",
  "image_embeds",
  "audio_embeds",
  "prompt_embeds",
  "audio_url",
  "video_url",
  "tool_reference",
];
// The part types vLLM's part parser reads (chat_utils.MM_PARSER_MAP, with text and refusal);
// any other is refused when the prompt is rendered, `file` among them.
const PART_TYPES = [
  "audio_embeds",
  "audio_url",
  "image_embeds",
  "image_pil",
  "image_url",
  "input_audio",
  "input_image",
  "input_text",
  "output_text",
  "prompt_embeds",
  "refusal",
  "text",
  "thinking",
  "tool_reference",
  "video_url",
];
const RESPONSES_IMAGE_DETAILS = ["auto", "low", "high", "original"];

// The roles whose OpenAI message type takes content parts: vLLM validates their parts as
// OpenAI's (InputAudio.format: Literal["wav", "mp3"]). Any other role (function included, whose
// OpenAI type takes a string only) is vLLM's free-form message, whose part union ends in `str`
// and holds TypedDicts with no required member: strings and any audio format pass.
const OPENAI_PART_ROLES = ["developer", "system", "user", "assistant", "tool"];
const AUDIO_FORMATS = ["wav", "mp3"];

// What vLLM refuses of the parts when it renders the prompt, on every role (its part parser does
// not look at the role): a part without `type` and without a short-form key, a type it does not
// read (`file`), a typed image part whose `image_url` is not `{ url }` (validated as OpenAI's;
// a part with a `uuid` is read as a short form), an `input_image` part without OpenAI's `detail`.
// On an OpenAI role, also the request model's checks of OpenAI's part types.
function checkParts(parts: unknown[], i: number, role: unknown): ResponsePlan | undefined {
  const openAiRole = OPENAI_PART_ROLES.includes(String(role));
  for (const [j, part] of parts.entries()) {
    if (!isRecord(part)) continue;
    const type = part["type"];
    const image = part["image_url"];
    if (type === "image_url" && isRecord(image) && image["detail"] != null)
      if (!IMAGE_DETAILS.includes(String(image["detail"])))
        return typeError(`messages.${i}.content.${j}.image_url.detail`, "string");
    // vLLM reads a part without `type`, or with a `uuid`, by the short-form key it holds.
    const shortForm = type == null || part["uuid"] != null;
    if (shortForm && !UNTYPED_KEYS.some((k) => k in part) && part["input_audio"] == null)
      return openAiError(400, "BadRequestError", "Missing 'type' field in multimodal part.", null);
    if (type == null) continue;
    if (!shortForm && typeof type === "string" && !PART_TYPES.includes(type))
      return openAiError(
        400,
        "BadRequestError",
        `Unsupported chat content part type: '${type}'. Supported types: ${PART_TYPES.join(", ")}.`,
        "type",
      );
    if (!shortForm && type === "image_url" && !isRecord(image))
      return renderError(
        "ChatCompletionContentPartImageParam",
        "image_url",
        "Input should be a valid dictionary",
        "dict_type",
      );
    if (!shortForm && type === "input_image" && !RESPONSES_IMAGE_DETAILS.includes(String(part["detail"])))
      return renderError("ResponseInputImageParam", "detail", "Field required", "missing");
    if (!openAiRole) continue;
    // OpenAI's part types hold no Responses-API text part, and no member of the free-form
    // message's part union declares `text`: the OpenAI message is chosen and refuses it.
    if (type === "input_text" || type === "output_text")
      return openAiError(
        400,
        "BadRequestError",
        `1 validation error for ValidatorIterator\n${j}.ChatCompletionContentPartTextParam.type\n  Input should be 'text' [type=literal_error]`,
        "messages",
      );
    const audio = part["input_audio"];
    if (type === "input_audio" && isRecord(audio) && !AUDIO_FORMATS.includes(String(audio["format"])))
      return openAiError(
        400,
        "BadRequestError",
        `1 validation error for ChatCompletionRequest\nmessages.${i}.content.${j}.input_audio.format\n  Input should be 'wav' or 'mp3' [type=literal_error]`,
        "messages",
      );
  }
  return undefined;
}

// A part vLLM's parser validates with pydantic while rendering: the ValidationError is a 400.
function renderError(model: string, field: string, text: string, kind: string): ResponsePlan {
  return openAiError(
    400,
    "BadRequestError",
    `1 validation error for ${model}\n${field}\n  ${text} [type=${kind}]`,
    null,
  );
}

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === "string") return !isWellFormed(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (isRecord(value)) return Object.entries(value).some(([k, v]) => !isWellFormed(k) || hasLoneSurrogate(v));
  return false;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// vLLM reads integers from the JSON text exactly, where JSON.parse rounds them to doubles:
// 9223372036854775807 is in range though it parses to 2^63. So the literal of a top-level
// field is found in the raw body and compared as a BigInt; without it, the double decides.
function outsideInt64(raw: string | undefined, field: string, value: number): boolean {
  const literal = raw?.match(new RegExp(`"${field}"\\s*:\\s*(-?\\d+)\\s*[,}]`))?.[1];
  if (literal !== undefined && Number(literal) === value) {
    const exact = BigInt(literal);
    return exact < INT64_MIN || exact > INT64_MAX;
  }
  return Math.abs(value) >= TWO_POW_63;
}

// A top-level integer field written with an exponent (JSON.stringify writes 1e21 up so): vLLM
// reads a float there, past what its int fields parse.
function writtenWithExponent(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  for (const [field, kind] of Object.entries(FIELD_TYPES))
    if (kind === "int" && new RegExp(`"${field}"\\s*:\\s*-?\\d+(\\.\\d+)?[eE]`).test(raw)) return field;
  return undefined;
}

function checkRules(body: Record<string, unknown>, raw?: string): ResponsePlan | undefined {
  const num = (k: string): number | undefined => (typeof body[k] === "number" ? (body[k] as number) : undefined);
  const n = num("n");
  if (n !== undefined && n < 1) return invalid(`n must be at least 1, got ${n}.`, "n");
  if (n !== undefined && n > 16384)
    return invalid(
      `n must be at most 16384, got ${n}. To increase this limit, set the VLLM_MAX_N_SEQUENCES environment variable.`,
      "n",
    );
  const exponent = writtenWithExponent(raw);
  if (exponent !== undefined)
    return openAiError(
      400,
      "BadRequestError",
      `1 validation error for ChatCompletionRequest\n${exponent}\n  Unable to parse input string as an integer, exceeded maximum size [type=int_parsing_size]`,
      exponent,
    );
  const stopList = body["stop"];
  if (Array.isArray(stopList) && stopList.length > 4)
    return openAiError(
      400,
      "BadRequestError",
      "1 validation error for ChatCompletionRequest\nstop\n  List should have at most 4 items after validation [type=too_long]",
      "stop",
    );
  const stopIds = body["stop_token_ids"];
  if (Array.isArray(stopIds) && stopIds.some((t) => typeof t === "number" && t < 0))
    return invalid("token_id(s) in stop_token_ids contain out-of-vocab token ids.", "stop_token_ids");
  // max_completion_tokens wins over max_tokens when both are set.
  const maxField = num("max_completion_tokens") !== undefined ? "max_completion_tokens" : "max_tokens";
  const maxTokens = num(maxField);
  if (maxTokens !== undefined && maxTokens < 1)
    return invalid(`max_tokens must be at least 1, got ${maxTokens}.`, maxField);
  const streamOptions = body["stream_options"];
  if (isRecord(streamOptions) && Object.keys(streamOptions).length > 0 && body["stream"] !== true) {
    return invalid("Stream options can only be defined when `stream=True`.", "stream_options");
  }
  const top = num("top_logprobs");
  if (top !== undefined) {
    if (top < -1) return invalid("`top_logprobs` must be a positive value or -1.", "top_logprobs");
    if (top !== 0 && body["logprobs"] !== true)
      return invalid("when using `top_logprobs`, `logprobs` must be set to true.", "top_logprobs");
    if (top > 20)
      return invalid(`Requested sample logprobs of ${top}, which is greater than max allowed: 20`, "top_logprobs");
  }
  const promptLogprobs = num("prompt_logprobs");
  if (promptLogprobs !== undefined) {
    if (promptLogprobs < -1) return invalid("`prompt_logprobs` must be a positive value or -1.", "prompt_logprobs");
    if ((promptLogprobs > 0 || promptLogprobs === -1) && body["stream"] === true)
      return invalid("`prompt_logprobs` are not available when `stream=True`.", "prompt_logprobs");
  }
  if (body["continue_final_message"] === true && body["add_generation_prompt"] !== false) {
    return invalid(
      "Cannot set both `continue_final_message` and `add_generation_prompt` to True.",
      "continue_final_message",
    );
  }
  const toolError = checkTools(body);
  if (toolError) return toolError;
  const effort = body["reasoning_effort"];
  if (effort != null && !REASONING_EFFORTS.includes(effort as string)) {
    return invalid(`Input should be ${REASONING_EFFORTS.map((e) => `'${e}'`).join(", ")}`, "reasoning_effort");
  }
  const seed = num("seed");
  if (seed !== undefined && outsideInt64(raw, "seed", seed))
    return invalid("Input should be less than or equal to 9223372036854775807", "seed");
  const truncate = num("truncate_prompt_tokens");
  if (truncate !== undefined && truncate < -1)
    return invalid("Input should be greater than or equal to -1", "truncate_prompt_tokens");
  if (truncate !== undefined && outsideInt64(raw, "truncate_prompt_tokens", truncate))
    return invalid("Input should be less than or equal to 9223372036854775807", "truncate_prompt_tokens");
  const temperature = num("temperature");
  if (temperature !== undefined && (temperature < 0 || temperature > 2))
    return invalid("temperature must be in [0, 2]", "temperature");
  const topP = num("top_p");
  if (topP !== undefined && (topP <= 0 || topP > 1)) return invalid(`top_p must be in (0, 1], got ${topP}.`, "top_p");
  for (const k of ["presence_penalty", "frequency_penalty"]) {
    const v = num(k);
    if (v !== undefined && (v < -2 || v > 2)) return invalid(`${k} must be in [-2, 2], got ${v}.`, k);
  }
  return (
    checkSampling(body, maxTokens) ??
    checkStructuredOutputs(body) ??
    checkCacheSalt(body["cache_salt"]) ??
    checkRepetition(body) ??
    checkNewerFields(body)
  );
}

// The fields of the current request model: ChatCompletionRequest's Field bounds, check_logprobs,
// validate_thinking_token_budget and the sampler's MAX_LOGPROB_TOKEN_IDS (128).
function checkNewerFields(body: Record<string, unknown>): ResponsePlan | undefined {
  const budget = body["thinking_token_budget"];
  if (typeof budget === "number" && budget < -1)
    return invalid(
      "`thinking_token_budget` must be a non-negative integer or -1 for unlimited.",
      "thinking_token_budget",
    );
  const side = body["truncation_side"];
  if (side != null && side !== "left" && side !== "right")
    return invalid("Input should be 'left' or 'right'", "truncation_side");
  const interval = body["stream_interval"];
  if (typeof interval === "number" && interval < 1)
    return invalid("Input should be greater than or equal to 1", "stream_interval");
  const start = body["routed_experts_prompt_start"];
  if (typeof start === "number" && start < 0)
    return invalid("Input should be greater than or equal to 0", "routed_experts_prompt_start");
  const media = body["media_io_kwargs"];
  if (isRecord(media))
    for (const v of Object.values(media)) if (!isRecord(v)) return typeError("media_io_kwargs", "object");
  const ids = body["logprob_token_ids"];
  if (Array.isArray(ids)) {
    if (!ids.every((t) => typeof t === "number" && Number.isInteger(t))) return typeError("logprob_token_ids", "int");
    if (ids.length === 0) return invalid("`logprob_token_ids` must not be an empty list.", "logprob_token_ids");
    if (body["use_beam_search"] === true)
      return invalid("`logprob_token_ids` is not supported with beam search.", "logprob_token_ids");
    if (body["logprobs"] !== true)
      return invalid("when using `logprob_token_ids`, `logprobs` must be set to true.", "logprob_token_ids");
    if (ids.length > 128)
      return invalid(
        `Requested logprob_token_ids of length ${ids.length}, which is greater than max allowed: 128`,
        "logprob_token_ids",
      );
    const negative = ids.filter((t) => (t as number) < 0);
    if (negative.length > 0)
      return invalid(
        `token_id(s) [${negative.join(", ")}] in logprob_token_ids contain out-of-vocab token ids.`,
        "logprob_token_ids",
      );
  }
  return undefined;
}

// The rest of SamplingParams._verify_args and the engine's token-id checks.
function checkSampling(body: Record<string, unknown>, maxTokens: number | undefined): ResponsePlan | undefined {
  const num = (k: string): number | undefined => (typeof body[k] === "number" ? (body[k] as number) : undefined);
  const rp = num("repetition_penalty");
  if (rp !== undefined && !(rp > 0)) return invalid(`repetition_penalty must be greater than zero, got ${rp}.`, null);
  const minP = num("min_p");
  if (minP !== undefined && (minP < 0 || minP > 1)) return invalid(`min_p must be in [0, 1], got ${minP}.`, null);
  const topK = num("top_k");
  if (topK !== undefined && topK < -1) return invalid(`top_k must be 0 (disable), or at least 1, got ${topK}.`, null);
  const minTokens = num("min_tokens");
  if (minTokens !== undefined && maxTokens !== undefined && minTokens > maxTokens)
    return invalid(`min_tokens must be less than or equal to max_tokens=${maxTokens}, got ${minTokens}.`, null);
  const temperature = num("temperature");
  const n = num("n");
  if (temperature !== undefined && temperature < 1e-5 && n !== undefined && n > 1 && body["use_beam_search"] !== true)
    return invalid(`n must be 1 when using greedy sampling, got ${n}.`, null);
  const stop = body["stop"];
  if (stop === "" || (Array.isArray(stop) && stop.includes("")))
    return invalid("stop cannot contain an empty string.", null);
  const badWords = body["bad_words"];
  if (Array.isArray(badWords) && badWords.includes(""))
    return invalid("bad_words cannot contain an empty string.", null);
  const bias = body["logit_bias"];
  if (isRecord(bias)) {
    const keys = Object.keys(bias);
    const notInt = keys.filter((k) => !/^\s*[-+]?\d+(_\d+)*\s*$/.test(k));
    if (notInt.length > 0)
      return invalid(
        `logit_bias contains key(s) that cannot be converted to integer token IDs: ${JSON.stringify(notInt)}`,
        "logit_bias",
      );
    const negative = keys.filter((k) => Number.parseInt(k.replaceAll("_", ""), 10) < 0);
    if (negative.length > 0)
      return invalid(
        `token_id(s) [${negative.join(", ")}] in logit_bias contain out-of-vocab token ids.`,
        "logit_bias",
      );
  }
  const allowed = body["allowed_token_ids"];
  if (Array.isArray(allowed) && allowed.length === 0) return invalid("allowed_token_ids is not None and empty!", null);
  if (Array.isArray(allowed) && allowed.some((t) => typeof t === "number" && t < 0))
    return invalid("allowed_token_ids contains out-of-vocab token id!", null);
  return undefined;
}

// vLLM's check_tool_usage: tool_choice other than "none" needs tools, and a named one must
// name one of them. An empty tools list is refused by the current request model.
function checkTools(body: Record<string, unknown>): ResponsePlan | undefined {
  const tools = body["tools"];
  if (Array.isArray(tools) && tools.length === 0) return invalid("`tools` must contain at least one tool.", "tools");
  const choice = body["tool_choice"];
  if (choice == null || choice === "none") return undefined;
  if (!Array.isArray(tools)) return invalid("When using `tool_choice`, `tools` must be set.", "tool_choice");
  if (choice === "auto" || choice === "required") return undefined;
  if (!isRecord(choice))
    return invalid(
      `Invalid value for \`tool_choice\`: ${JSON.stringify(choice)}! Only named tools, "none", "auto" or "required" are supported.`,
      "tool_choice",
    );
  const name = isRecord(choice["function"]) ? choice["function"]["name"] : undefined;
  if (!tools.some((t) => isRecord(t) && isRecord(t["function"]) && t["function"]["name"] === name))
    return invalid("The tool specified in `tool_choice` does not match any of the specified `tools`", "tool_choice");
  return undefined;
}

// StructuredOutputsParams.__post_init__: exactly one non-null constraint, counting the one
// response_format adds (structured_outputs_from_response_format merges it in; a json_schema
// without `schema` adds none); then what the structured-output backends refuse.
function checkStructuredOutputs(body: Record<string, unknown>): ResponsePlan | undefined {
  const structured = body["structured_outputs"];
  const format = body["response_format"];
  const formatError = checkResponseFormat(format);
  if (formatError) return formatError;
  const fromFormat = isRecord(format) ? formatConstraint(format) : undefined;
  if (!isRecord(structured)) {
    if (isRecord(format) && format["type"] === "json_schema" && fromFormat === undefined)
      return invalid(
        "You must use one kind of structured outputs constraint but none are specified.",
        "structured_outputs",
      );
    return undefined;
  }
  const kinds = new Set(STRUCTURED_CONSTRAINTS.filter((k) => structured[k] != null));
  // structured_outputs_from_response_format: a json_schema without `schema` sets json to None.
  if (isRecord(format) && format["type"] === "json_schema" && fromFormat === undefined) kinds.delete("json");
  if (kinds.size === 1 && fromFormat !== undefined) kinds.add(fromFormat);
  if (kinds.size === 0)
    return invalid(
      "You must use one kind of structured outputs constraint but none are specified.",
      "structured_outputs",
    );
  if (kinds.size > 1)
    return invalid(
      `You can only use one kind of structured outputs constraint but multiple are specified: ${[...kinds].join(", ")}.`,
      "structured_outputs",
    );
  const choice = body["tool_choice"];
  if (["json", "regex", "choice"].some((k) => structured[k] != null) && "tool_choice" in body) {
    if (choice === null || isRecord(choice))
      return invalid("You can only either use constraints for structured outputs or tools, not both.", null);
  }
  // The json_object format sets json_object: true over a written false.
  const overridden = fromFormat === "json_object" ? { ...structured, json_object: true } : structured;
  return checkConstraintContents(overridden);
}

function formatConstraint(format: Record<string, unknown>): string | undefined {
  if (format["type"] === "json_schema") {
    const js = format["json_schema"];
    return isRecord(js) && js["schema"] != null ? "json" : undefined;
  }
  return FORMAT_CONSTRAINT[String(format["type"])];
}

function checkResponseFormat(format: unknown): ResponsePlan | undefined {
  if (!isRecord(format) || format["type"] !== "structural_tag") return undefined;
  if ("format" in format || (Array.isArray(format["structures"]) && Array.isArray(format["triggers"])))
    return undefined;
  return invalid("Invalid response_format structural_tag specification.", "response_format");
}

// vllm/v1/structured_output: a falsy constraint finds no grammar; NUL never reaches the regex compiler.
function checkConstraintContents(so: Record<string, unknown>): ResponsePlan | undefined {
  if (typeof so["regex"] === "string" && so["regex"].includes("\u0000"))
    return invalid("structured_outputs.regex must not contain a NUL character ('\\x00')", "structured_outputs");
  if (typeof so["structural_tag"] === "string" && !isJSONText(so["structural_tag"]))
    return invalid("Invalid structured_outputs structural_tag specification.", "structured_outputs");
  if (so["json_object"] === false) return invalid("No valid structured output parameter found", "structured_outputs");
  if (Array.isArray(so["choice"]) && so["choice"].length === 0)
    return invalid("Failed to transform choices into a grammar.", "structured_outputs");
  // SamplingParams._validate_structured_outputs strips both texts (Python's str.strip) first.
  if (typeof so["grammar"] === "string" && strippedEmpty(so["grammar"]))
    return invalid("structured_outputs.grammar cannot be an empty string", "structured_outputs");
  if (typeof so["json"] === "string" && strippedEmpty(so["json"]))
    return invalid("structured_outputs.json cannot be an empty string", "structured_outputs");
  return undefined;
}

// Python's whitespace (str.isspace), which differs from JavaScript's trim() at U+001C-U+001F,
// U+0085 (Python strips them) and U+FEFF (Python keeps it).
const PY_SPACE = new Set([
  ..."\t\n\u000b\f\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000",
]);
for (let c = 0x2000; c <= 0x200a; c++) PY_SPACE.add(String.fromCharCode(c));
function strippedEmpty(text: string): boolean {
  for (const ch of text) if (!PY_SPACE.has(ch)) return false;
  return true;
}

function isJSONText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function checkCacheSalt(salt: unknown): ResponsePlan | undefined {
  if (typeof salt !== "string") return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the refused characters
  if (salt.length === 0 || [...salt].length > 128 || /[@/\\\u0000]/.test(salt))
    return invalid(
      "Parameter 'cache_salt' must be a non-empty string of at most 128 characters without '@', '/', '\\' or NUL.",
      "cache_salt",
    );
  return undefined;
}

// RepetitionDetectionParams.__post_init__ (absent members are 0).
function checkRepetition(body: Record<string, unknown>): ResponsePlan | undefined {
  const rd = body["repetition_detection"];
  if (!isRecord(rd)) return undefined;
  const n = (k: string) => (typeof rd[k] === "number" ? (rd[k] as number) : 0);
  if (n("max_pattern_size") < 0 || n("min_pattern_size") < 0 || n("min_pattern_size") > n("max_pattern_size"))
    return invalid(
      "max_pattern_size, min_pattern_size must be >=0, with min_pattern_size <= max_pattern_size.",
      "repetition_detection",
    );
  if (n("max_pattern_size") > 0 && n("min_count") < 2)
    return invalid("min_count must be >= 2 to detect repetitive patterns in engine output.", "repetition_detection");
  return undefined;
}

/**
 * Validates a chat request against the model list; returns typed params with the model
 * resolved (absent model → the first served one, as vLLM does), or an error plan.
 * `priority` is refused later by the caller, as the engine (not the schema) refuses it.
 */
export function checkChatRequest(
  body: unknown,
  models: FakeModelEntry[],
  raw?: string,
  server?: ChatServerFlags,
): { ok: true; params: ChatParams } | { ok: false; error: ResponsePlan } {
  if (!isRecord(body))
    return {
      ok: false,
      error: openAiError(400, "BadRequestError", "JSON decode error: the body must be a JSON object", null),
    };
  const error = checkMessages(body["messages"]) ?? checkTypes(body) ?? checkRules(body, raw);
  if (error !== undefined) return { ok: false, error };
  const requested = body["model"];
  const model = typeof requested === "string" ? requested : models[0]?.id;
  if (model === undefined || !models.some((m) => m.id === model)) {
    return {
      ok: false,
      error: openAiError(404, "NotFoundError", `The model \`${String(requested)}\` does not exist.`, "model"),
    };
  }
  // serving.py (create_chat_completion): check_tool_usage made tools without tool_choice "auto",
  // which a server without a tool parser refuses once the model is known.
  const tools = body["tools"];
  const autoChoice =
    body["tool_choice"] === "auto" || (!("tool_choice" in body) && Array.isArray(tools) && tools.length > 0);
  if (server?.autoToolChoice === false && autoChoice)
    return {
      ok: false,
      error: openAiError(
        400,
        "BadRequestError",
        '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        null,
      ),
    };
  const priority = body["priority"];
  if (typeof priority === "number" && priority !== 0) {
    return {
      ok: false,
      error: openAiError(
        400,
        "BadRequestError",
        `Got priority ${priority} but Priority scheduling is not enabled.`,
        null,
      ),
    };
  }
  return { ok: true, params: { ...(body as unknown as ChatParams), model } };
}
