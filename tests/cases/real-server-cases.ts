/**
 * One table of requests and what the real servers behind the interface do with them: vLLM's
 * OpenAI-compatible chat completions and Weave's call query. It drives both the SDK's
 * validation tests (`tests/wire/real-server-cases.test.ts`: refused ⇒
 * `RequestValidationError` with nothing sent; accepted ⇒ sent as written) and the fake
 * service's (`tests/testing/real-server-cases.test.ts`: the fake answers the real server's
 * status and error envelope), so the SDK and its test double cannot drift apart.
 *
 * `source` names the file of the real project the rule comes from (vLLM:
 * `vllm-project/vllm`, Weave: `wandb/weave`), so a case can be checked again when they change.
 */

/** The operation a case exercises. */
export type CaseOperation = "chat" | "calls";

export interface RealServerCase {
  name: string;
  operation: CaseOperation;
  /** The JSON body as the user writes it (chat: without `model`; calls: without `project_id`). */
  request: Record<string, unknown>;
  /** What a real server started with default flags answers. */
  real: "accepted" | "refused";
  why: string;
  source: string;
  /**
   * When the SDK makes a spec default explicit, the body it sends instead of `request`
   * (the case then holds for that body: accepted by the real server).
   */
  sdkSends?: Record<string, unknown>;
  /**
   * A refusal that depends on a server flag or setting: the SDK cannot know it and sends the
   * request; the fake, a default server, refuses it.
   */
  dependsOnServer?: true;
  /** The fake models a server started with a flag that changes the answer. */
  fakeAccepts?: string;
  /**
   * The real server accepts it but the SDK refuses it on purpose (a near miss of a known key,
   * which the server would drop silently): why.
   */
  sdkRefuses?: string;
}

const VLLM_CHAT = "vllm/entrypoints/openai/chat_completion/protocol.py (ChatCompletionRequest)";
const VLLM_SAMPLING = "vllm/sampling_params.py";
const VLLM_MESSAGES = "vllm/entrypoints/chat_utils.py (ChatCompletionMessageParam)";
const WEAVE_REQ = "weave/trace_server/trace_server_interface.py (CallsQueryReq, CallsFilter)";
const VLLM_EFFORT = "vllm/entrypoints/openai/reasoning_effort.py (ReasoningEffortValue)";
// Rules the issue and the research notes give for the current model that the stored copy of
// protocol.py does not show (it checks only that cache_salt is non-empty, and lets tools: []
// through): kept because a current server refuses them; recheck when vLLM changes.
const CURRENT_MODEL_ONLY = "vllm/entrypoints/openai/chat_completion/protocol.py (the current request model)";
const WEAVE_QUERY =
  "weave/trace_server/interface/query.py (LiteralOperation, GetFieldOperator, ContainsTokenOperation)";
const VLLM_BASE =
  "vllm/entrypoints/generate/base/protocol.py (StreamOptions, FunctionDefinition, response formats, validate_cache_salt)";
const VLLM_BACKEND = "vllm/v1/structured_output (backend_xgrammar.py, request.py)";
const VLLM_ENGINE = "vllm/v1/engine/input_processor.py (_validate_logit_bias, allowed_token_ids)";
const PYDANTIC_STR = "pydantic-core str validation (a lone surrogate is not valid Unicode)";
const VLLM_PART_PARSER = "vllm/entrypoints/chat_utils.py (_parse_chat_message_content_mm_part)";
// What vLLM refuses or skips when it renders the prompt, after the request model took it.
const VLLM_RENDER =
  "vllm/entrypoints/chat_utils.py (_parse_chat_message_content_part: MM_PARSER_MAP, PART_TYPES_TO_SKIP_NONE_CONTENT)";
const VLLM_STOP = "vllm/entrypoints/generate/base/protocol.py (StopParam: max_length=VLLM_MAX_STOP_STRINGS, 4)";
const VLLM_FROM_FORMAT = "vllm/entrypoints/generate/base/protocol.py (structured_outputs_from_response_format)";
const VLLM_TAG = "vllm/entrypoints/generate/base/protocol.py (validate_structural_tag_payload)";
const VLLM_NUM_SEQ = "vllm/sampling_params.py (_verify_num_sequences: n <= VLLM_MAX_N_SEQUENCES, 16384)";
const VLLM_STOP_IDS = "vllm/sampling_params.py (SamplingParams._validate_stop_token_ids)";
const PYDANTIC_INT = "pydantic-core int from JSON: 1e+21 is a float past int range (exceeded maximum size)";

const user = [{ role: "user", content: "Hi" }];
const tool = { type: "function", function: { name: "get_weather", parameters: { type: "object" } } };
const jsonSchemaFormat = { type: "json_schema", json_schema: { name: "a", schema: { type: "object" } } };

const AUTO_TOOLS = "the fake runs as a server started with --enable-auto-tool-choice";

type Row = [string, Record<string, unknown>, string, string?, Partial<RealServerCase>?];
const weather = { type: "function", function: { name: "get_weather", parameters: { type: "object" } } };

// SamplingParams._verify_args and _verify_greedy_sampling, the engine's token-id checks.
const sampling: { accepted: Row[]; refused: Row[] } = {
  accepted: [
    ["max_completion_tokens above 2^53", { max_completion_tokens: 2 ** 60 }, "int: any size", VLLM_SAMPLING],
    ["top_k -1 (all tokens)", { top_k: -1 }, "top_k >= -1", VLLM_SAMPLING],
    ["temperature 0 with n 1", { temperature: 0, n: 1 }, "greedy sampling with one reply", VLLM_SAMPLING],
    [
      "n 2 with temperature 0 under beam search",
      { temperature: 0, n: 2, use_beam_search: true },
      "beam search builds BeamSearchParams, not SamplingParams",
    ],
    ["logit_bias keyed by token ids", { logit_bias: { "42": 5, "7": -100 } }, "int(key) >= 0", VLLM_SAMPLING],
    [
      "max_tokens 0 when max_completion_tokens is set",
      { max_tokens: 0, max_completion_tokens: 8 },
      "max_completion_tokens wins",
    ],
    ["min_tokens equal to max_tokens", { min_tokens: 4, max_tokens: 4 }, "min_tokens <= max_tokens", VLLM_SAMPLING],
  ],
  refused: [
    ["temperature above 2", { temperature: 2.5 }, "temperature must be in [0, 2]", VLLM_SAMPLING],
    ["temperature below 0", { temperature: -0.1 }, "temperature must be non-negative", VLLM_SAMPLING],
    ["top_p 0", { top_p: 0 }, "top_p must be in (0, 1]", VLLM_SAMPLING],
    ["top_p above 1", { top_p: 1.5 }, "top_p must be in (0, 1]", VLLM_SAMPLING],
    ["presence_penalty above 2", { presence_penalty: 3 }, "presence_penalty must be in [-2, 2]", VLLM_SAMPLING],
    ["frequency_penalty below -2", { frequency_penalty: -3 }, "frequency_penalty must be in [-2, 2]", VLLM_SAMPLING],
    ["repetition_penalty 0", { repetition_penalty: 0 }, "repetition_penalty must be greater than zero", VLLM_SAMPLING],
    ["min_p above 1", { min_p: 1.5 }, "min_p must be in [0, 1]", VLLM_SAMPLING],
    ["top_k -2", { top_k: -2 }, "top_k must be 0 (disable), or at least 1", VLLM_SAMPLING],
    ["max_tokens 0", { max_tokens: 0 }, "max_tokens must be at least 1", VLLM_SAMPLING],
    ["max_completion_tokens 0", { max_completion_tokens: 0 }, "max_tokens must be at least 1", VLLM_SAMPLING],
    ["min_tokens above max_tokens", { min_tokens: 9, max_tokens: 4 }, "min_tokens <= max_tokens", VLLM_SAMPLING],
    ["n 2 with temperature 0", { temperature: 0, n: 2 }, "n must be 1 when using greedy sampling", VLLM_SAMPLING],
    ["an empty stop string", { stop: "" }, "stop cannot contain an empty string", VLLM_SAMPLING],
    ["an empty string in stop", { stop: ["end", ""] }, "stop cannot contain an empty string", VLLM_SAMPLING],
    ["an empty string in bad_words", { bad_words: [""] }, "bad_words cannot contain an empty string", VLLM_SAMPLING],
    [
      "logit_bias key not a token id",
      { logit_bias: { abc: 1 } },
      "key(s) that cannot be converted to integer",
      VLLM_SAMPLING,
    ],
    ["logit_bias negative token id", { logit_bias: { "-5": 1 } }, "token_id < 0 is out of vocab", VLLM_ENGINE],
    ["allowed_token_ids empty", { allowed_token_ids: [] }, "allowed_token_ids is not None and empty", VLLM_ENGINE],
    ["allowed_token_ids negative", { allowed_token_ids: [-1] }, "out-of-vocab token id", VLLM_ENGINE],
    ["priority beyond int64", { priority: 2 ** 63 }, "priority: Field(le=int64 max)"],
  ],
};

// vLLM's message union: OpenAI's message types or its free-form message
// (chat_utils.CustomChatCompletionMessageParam), whose content takes every part kind.
const messageShapes: { accepted: Row[]; refused: Row[] } = {
  accepted: [
    [
      "an image on a system message",
      {
        messages: [
          { role: "system", content: [{ type: "image_url", image_url: { url: "https://x/a.png" } }] },
          ...user,
        ],
      },
      "the free-form message takes any part on any role",
      VLLM_MESSAGES,
    ],
    [
      "audio on a developer message",
      {
        messages: [
          { role: "developer", content: [{ type: "input_audio", input_audio: { data: "UklG", format: "wav" } }] },
          ...user,
        ],
      },
      "the free-form message takes any part on any role",
      VLLM_MESSAGES,
    ],
    [
      "thinking on an assistant message",
      { messages: [...user, { role: "assistant", content: [{ type: "thinking", thinking: "hmm", closed: true }] }] },
      "CustomThinkCompletionContentParam",
      VLLM_MESSAGES,
    ],
    [
      "an image on an assistant message",
      {
        messages: [
          ...user,
          { role: "assistant", content: [{ type: "image_url", image_url: { url: "https://x/a.png" } }] },
        ],
      },
      "the free-form message takes any part on any role",
      VLLM_MESSAGES,
    ],
    [
      "audio_embeds on a user message",
      { messages: [{ role: "user", content: [{ type: "audio_embeds", audio_embeds: "k05V" }] }] },
      "ChatCompletionContentPartAudioEmbedsParam",
      VLLM_MESSAGES,
    ],
    [
      "prompt_embeds on a user message",
      { messages: [{ role: "user", content: [{ type: "prompt_embeds", data: "k05V" }] }] },
      "ChatCompletionContentPartPromptEmbedsParam",
      VLLM_MESSAGES,
    ],
    [
      "image_url as a string on a typed part with a uuid",
      {
        messages: [{ role: "user", content: [{ type: "image_url", image_url: "https://x/a.png", uuid: "img-1" }] }],
      },
      "a part with a uuid is read as the short form, which takes the URL string",
      VLLM_PART_PARSER,
      {
        sdkRefuses:
          "the typed part is held to { url } (a bare string there is refused without a uuid); the short form without type takes the string",
      },
    ],
    [
      "content parts on a function message",
      { messages: [...user, { role: "function", name: "f", content: [{ type: "text", text: "12:00" }] }] },
      "the free-form message takes a list",
      VLLM_MESSAGES,
    ],
    [
      "thinking on a custom role",
      { messages: [...user, { role: "ipython", content: [{ type: "thinking", thinking: "x" }] }] },
      "the free-form message takes any part",
      VLLM_MESSAGES,
    ],
    [
      "a tool message without tool_call_id",
      { messages: [...user, { role: "tool", content: "18C" }] },
      "the free-form message: tool_call_id is optional",
      VLLM_MESSAGES,
    ],
    [
      "a function message without name",
      { messages: [...user, { role: "function", content: "12:00" }] },
      "the free-form message: name is optional",
      VLLM_MESSAGES,
    ],
    [
      "a message without content",
      { messages: [...user, { role: "user" }] },
      "the free-form message: content is optional",
      VLLM_MESSAGES,
    ],
    ...untypedParts(),
    [
      "image_embeds null with a uuid",
      { messages: [{ role: "user", content: [{ type: "image_embeds", image_embeds: null, uuid: "img-1" }] }] },
      "ChatCompletionContentPartImageEmbedsParam.image_embeds: str | dict | None",
      VLLM_MESSAGES,
    ],
    [
      "a tool message with tool_call_id null",
      { messages: [...user, { role: "tool", tool_call_id: null, content: "18C" }] },
      "CustomChatCompletionMessageParam.tool_call_id: str | None",
      VLLM_MESSAGES,
    ],
    [
      "an assistant message with tool_calls null and content",
      { messages: [...user, { role: "assistant", content: "ok", tool_calls: null }] },
      "the free-form message takes tool_calls None with string content",
      VLLM_MESSAGES,
    ],
    [
      "reasoning that is not a string",
      { messages: [...user, { role: "assistant", content: "4", reasoning: { steps: 2 } }] },
      "OpenAI's assistant message ignores keys it does not declare",
      VLLM_MESSAGES,
    ],
  ],
  refused: [
    [
      "null content on a custom role",
      { messages: [...user, { role: "ipython", content: null }] },
      "free-form content: str | list, not None",
      VLLM_MESSAGES,
    ],
    [
      "an unpaired surrogate in a message",
      { messages: [{ role: "user", content: "caf\ud83d" }] },
      "a string must be valid Unicode",
      PYDANTIC_STR,
    ],
    [
      "image detail outside OpenAI's set",
      {
        messages: [
          { role: "user", content: [{ type: "image_url", image_url: { url: "https://x/a.png", detail: "ultra" } }] },
        ],
      },
      "ImageURL.detail: Literal['auto', 'low', 'high']",
      VLLM_MESSAGES,
    ],
    [
      "a text part without type",
      { messages: [{ role: "user", content: [{ text: "hi" }] }] },
      "no short form for text: Missing 'type' field in multimodal part",
      VLLM_PART_PARSER,
    ],
    [
      "a part without type or any short-form key",
      { messages: [{ role: "user", content: [{ uuid: "x" }] }] },
      "Missing 'type' field in multimodal part",
      VLLM_PART_PARSER,
    ],
    [
      "a file part on a tool message",
      {
        messages: [...user, { role: "tool", tool_call_id: "c1", content: [{ type: "file", file: { file_id: "f1" } }] }],
      },
      "the request model takes it, the renderer refuses it: Unsupported chat content part type: 'file'",
      VLLM_RENDER,
    ],
    [
      "a file part on a user message",
      {
        messages: [
          { role: "user", content: [{ type: "file", file: { file_data: "data:application/pdf;base64,JVBE" } }] },
        ],
      },
      "vLLM's chat endpoint has no file part type",
      VLLM_RENDER,
    ],
    [
      "image_url as a string on a typed part",
      { messages: [{ role: "user", content: [{ type: "image_url", image_url: "https://x/a.png" }] }] },
      "the request model takes it (CustomChatCompletionContentSimpleImageParam); the renderer validates OpenAI's image part: image_url must be { url }",
      VLLM_RENDER,
    ],
    [
      "assistant content null and tool_calls null",
      { messages: [...user, { role: "assistant", content: null, tool_calls: null }] },
      "OpenAI's assistant message refuses tool_calls None; the free-form one refuses content None",
      VLLM_MESSAGES,
    ],
  ],
};

// The current request model's fields the SDK declares since issue 41, and vLLM's free-form
// message (chat_utils.CustomChatCompletionMessageParam) against OpenAI's typed ones.
const VLLM_CUSTOM_PARTS =
  "vllm/entrypoints/chat_utils.py (CustomChatCompletionMessageParam.content: str | list[ChatCompletionContentPartParam], a union ending in str)";
const OPENAI_AUDIO =
  "openai/types/chat/chat_completion_content_part_input_audio_param.py (InputAudio.format: Literal['wav', 'mp3'])";
const VLLM_LOGPROB_IDS =
  "vllm/entrypoints/openai/chat_completion/protocol.py (check_logprobs); vllm/sampling_params.py (MAX_LOGPROB_TOKEN_IDS = 128)";
const VLLM_BUDGET = "vllm/sampling_params.py (validate_thinking_token_budget)";
const VLLM_SO_STRIP = "vllm/sampling_params.py (_validate_structured_outputs strips grammar and json)";
const audioPart = (format?: string) => ({
  type: "input_audio",
  input_audio: format === undefined ? { data: "UklG" } : { data: "UklG", format },
});
const newer: { accepted: Row[]; refused: Row[] } = {
  accepted: [
    [
      "thinking_token_budget 256",
      { thinking_token_budget: 256 },
      "ThinkingTokenBudget: int >= 0 or -1 (whether the model's reasoning parser honours it is the server's question)",
      VLLM_BUDGET,
    ],
    ["thinking_token_budget -1 (unlimited)", { thinking_token_budget: -1 }, "-1 means no budget", VLLM_BUDGET],
    ["stream_interval 8 while streaming", { stream: true, stream_interval: 8 }, "stream_interval: int >= 1 | None"],
    ["session_id", { session_id: "conv-42" }, "session_id: str | None"],
    ["watermarking", { watermarking: true }, "watermarking: bool | None"],
    [
      "return_token_offsets",
      { return_token_offsets: true },
      "return_token_offsets: bool | None (used by the render endpoints)",
    ],
    ["return_prompt_text", { return_prompt_text: true }, "return_prompt_text: bool | None"],
    ["return_mm_kwargs false", { return_mm_kwargs: false }, "return_mm_kwargs: bool"],
    [
      "logprob_token_ids with logprobs",
      { logprobs: true, logprob_token_ids: [11, 12] },
      "check_logprobs: needs logprobs",
      VLLM_LOGPROB_IDS,
    ],
    [
      "logprob_token_ids of 128 ids",
      { logprobs: true, logprob_token_ids: Array.from({ length: 128 }, (_, i) => i) },
      "at most 128",
      VLLM_LOGPROB_IDS,
    ],
    ["routed_experts_prompt_start 12", { routed_experts_prompt_start: 12 }, "routed_experts_prompt_start: int >= 0"],
    ["ec_transfer_params", { ec_transfer_params: { producer: "enc-0" } }, "ec_transfer_params: dict | None"],
    [
      "truncation_side left",
      { truncate_prompt_tokens: 64, truncation_side: "left" },
      "truncation_side: Literal['left', 'right'] | None",
    ],
    [
      "media_io_kwargs per modality",
      { media_io_kwargs: { video: { num_frames: 8 } } },
      "media_io_kwargs: dict[str, dict[str, Any]] | None (a server without --trust-request-mm-kwargs refuses it: sent)",
    ],
    [
      "engine_xargs as a string",
      { engine_xargs: "x" },
      "no field of the request model: kept unread (extra='allow'), any JSON",
    ],
    ["engine_xargs as an empty list", { engine_xargs: [] }, "kept unread, any JSON"],
    ["engine_xargs with a nested object", { engine_xargs: { a: { b: 1 } } }, "kept unread, any JSON"],
    ["engine_xargs as a number", { engine_xargs: 5 }, "kept unread, any JSON"],
    [
      "repetition_detection sizes at 2^64",
      { repetition_detection: { max_pattern_size: 2 ** 64, min_pattern_size: 2, min_count: 2 ** 64 } },
      "RepetitionDetectionParams sizes are Python ints (no int64 bound)",
      VLLM_SAMPLING,
    ],
    [
      "a bare string part on a custom role",
      { messages: [...user, { role: "ipython", content: ["hello"] }] },
      "the part union ends in str",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "a tool_reference part on a user message",
      { messages: [{ role: "user", content: [{ type: "tool_reference", name: "get_weather" }] }] },
      "validates as the free-form message (role: str), whose part union declares it; passed to the template",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "a tool_reference part on a system message",
      { messages: [{ role: "system", content: [{ type: "tool_reference", name: "get_weather" }] }, ...user] },
      "the free-form message's branch, as on any role",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "a tool_reference part on a tool message",
      {
        messages: [...user, { role: "tool", tool_call_id: "c1", content: [{ type: "tool_reference", name: "f" }] }],
      },
      "kept structured for the template (a tool message's text parts are joined, a tool_reference is not)",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "input_text on a custom role",
      { messages: [...user, { role: "ipython", content: [{ type: "input_text", text: "hi" }] }] },
      "MM_PARSER_MAP reads it as text",
      VLLM_RENDER,
    ],
    [
      "output_text on a custom role",
      { messages: [...user, { role: "ipython", content: [{ type: "output_text", text: "hi" }] }] },
      "MM_PARSER_MAP reads it as text",
      VLLM_RENDER,
    ],
    [
      "input_image on a custom role",
      {
        messages: [
          ...user,
          { role: "ipython", content: [{ type: "input_image", detail: "auto", image_url: "https://x/a.png" }] },
        ],
      },
      "MM_PARSER_MAP validates it as openai's ResponseInputImageParam",
      VLLM_RENDER,
    ],
    [
      "a text part without text on a custom role",
      { messages: [...user, { role: "ipython", content: [{ type: "text" }, { type: "text", text: "hi" }] }] },
      "a text part whose text is None is skipped (PART_TYPES_TO_SKIP_NONE_CONTENT)",
      VLLM_RENDER,
    ],
    [
      "input_audio flac on a generic message",
      { messages: [...user, { role: "generic", content: [audioPart("flac")] }] },
      "generic is no role of vLLM's: a custom-role message, which takes any format",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "a bare string part on a generic message",
      { messages: [...user, { role: "generic", content: ["note"] }] },
      "a custom-role message: the part union ends in str",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "return_assistant_tokens_mask",
      { return_assistant_tokens_mask: true },
      "a request field of the current model, read by the render endpoints",
    ],
    [
      "a tool_reference part on a custom role",
      { messages: [...user, { role: "ipython", content: [{ type: "tool_reference", name: "get_weather" }] }] },
      "CustomChatCompletionContentToolReferenceParam, handed to the chat template",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "input_audio flac on a custom role",
      { messages: [...user, { role: "ipython", content: [audioPart("flac")] }] },
      "the free-form message takes any format",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "input_audio without format on a custom role",
      { messages: [...user, { role: "ipython", content: [audioPart()] }] },
      "the free-form message takes none",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "input_audio ogg on a function message",
      { messages: [...user, { role: "function", name: "f", content: [audioPart("ogg")] }] },
      "OpenAI's function message takes a string only: parts are the free-form message's",
      VLLM_CUSTOM_PARTS,
    ],
    [
      "input_audio mp3 on a user message",
      { messages: [{ role: "user", content: [audioPart("mp3")] }] },
      "InputAudio.format: wav or mp3",
      OPENAI_AUDIO,
    ],
  ],
  refused: [
    ["thinking_token_budget -2", { thinking_token_budget: -2 }, "a non-negative integer or -1", VLLM_BUDGET],
    ["thinking_token_budget 1.5", { thinking_token_budget: 1.5 }, "a float is refused", VLLM_BUDGET],
    ["stream_interval 0", { stream: true, stream_interval: 0 }, "stream_interval: Field(ge=1)"],
    ["routed_experts_prompt_start -1", { routed_experts_prompt_start: -1 }, "routed_experts_prompt_start: Field(ge=0)"],
    ["truncation_side middle", { truncation_side: "middle" }, "Literal['left', 'right']"],
    ["return_mm_kwargs null", { return_mm_kwargs: null }, "return_mm_kwargs: bool (not Optional)"],
    [
      "media_io_kwargs with a value that is not an object",
      { media_io_kwargs: { video: 8 } },
      "dict[str, dict[str, Any]]",
    ],
    [
      "logprob_token_ids empty",
      { logprobs: true, logprob_token_ids: [] },
      "must not be an empty list",
      VLLM_LOGPROB_IDS,
    ],
    ["logprob_token_ids without logprobs", { logprob_token_ids: [11] }, "needs logprobs: true", VLLM_LOGPROB_IDS],
    [
      "logprob_token_ids with beam search",
      { logprobs: true, use_beam_search: true, logprob_token_ids: [11] },
      "not supported with beam search",
      VLLM_LOGPROB_IDS,
    ],
    [
      "logprob_token_ids of 129 ids",
      { logprobs: true, logprob_token_ids: Array.from({ length: 129 }, (_, i) => i) },
      "greater than max allowed: 128",
      VLLM_LOGPROB_IDS,
    ],
    [
      "logprob_token_ids with a negative id",
      { logprobs: true, logprob_token_ids: [-1] },
      "out-of-vocab token ids",
      VLLM_LOGPROB_IDS,
    ],
    [
      "structured_outputs.json of whitespace",
      { structured_outputs: { json: " \n\t" } },
      "stripped, it is empty",
      VLLM_SO_STRIP,
    ],
    [
      "structured_outputs.grammar of whitespace",
      { structured_outputs: { grammar: "\u0085 " } },
      "Python's strip removes U+0085 too",
      VLLM_SO_STRIP,
    ],
    ...["user", "system", "developer", "assistant", "tool"].map(
      (role): Row => [
        `input_audio flac on ${role === "assistant" ? "an" : "a"} ${role} message`,
        { messages: [...(role === "user" ? [] : user), { role, content: [audioPart("flac")] }] },
        "OpenAI's message type holds the part to InputAudio.format",
        OPENAI_AUDIO,
      ],
    ),
    [
      "input_audio without format on a user message",
      { messages: [{ role: "user", content: [audioPart()] }] },
      "InputAudio.format is required",
      OPENAI_AUDIO,
    ],
    [
      "a part without type on a custom role",
      { messages: [...user, { role: "ipython", content: [{ text: "hi" }] }] },
      "the request model takes it; the renderer: Missing 'type' field in multimodal part",
      VLLM_PART_PARSER,
    ],
    [
      "a part without type on a generic message",
      { messages: [...user, { role: "generic", content: [{ text: "hi" }] }] },
      "a custom-role message: Missing 'type' field in multimodal part",
      VLLM_PART_PARSER,
    ],
    [
      "an unknown part type on a custom role",
      { messages: [...user, { role: "ipython", content: [{ type: "markdown", text: "hi" }] }] },
      "Unsupported chat content part type",
      VLLM_RENDER,
    ],
    [
      "input_image without detail on a custom role",
      { messages: [...user, { role: "ipython", content: [{ type: "input_image", image_url: "https://x/a.png" }] }] },
      "openai's ResponseInputImageParam requires detail",
      VLLM_RENDER,
    ],
    [
      "input_text on a user message",
      { messages: [{ role: "user", content: [{ type: "input_text", text: "hi" }] }] },
      "OpenAI's user message is chosen and its part types have no input_text",
      VLLM_MESSAGES,
    ],
  ],
};

// vLLM's short forms without `type` (chat_utils._parse_chat_message_content_mm_part reads the
// part by the key it holds), on the roles a user writes them on.
function untypedParts(): Row[] {
  const forms: Array<[string, Record<string, unknown>]> = [
    ["image_url as a string", { image_url: "https://x/a.png" }],
    ["image_url as an object", { image_url: { url: "https://x/a.png", detail: "ultra" } }],
    ["image_url with a uuid", { image_url: "https://x/a.png", uuid: "img-1" }],
    ["image_embeds", { image_embeds: "k05V" }],
    ["audio_embeds", { audio_embeds: { a: "k05V" } }],
    ["prompt_embeds", { prompt_embeds: true, data: "k05V" }],
    ["audio_url", { audio_url: "https://x/a.wav" }],
    ["input_audio", { input_audio: { data: "UklG", format: "ogg" } }],
    ["video_url", { video_url: { url: "https://x/v.mp4" } }],
    ["tool_reference", { tool_reference: true, name: "get_weather" }],
  ];
  return forms.map(([name, part]) => [
    `a part without type: ${name}`,
    { messages: [{ role: "user", content: [{ type: "text", text: "look" }, part] }] },
    "the short form is read by its key",
    VLLM_PART_PARSER,
  ]);
}

// The forms vLLM's request model takes for tools, tool_choice, response_format, structured
// outputs and the option objects, and what it refuses among them.
const vllmForms: { accepted: Row[]; refused: Row[] } = {
  accepted: [
    ['tool_choice "required"', { tools: [weather], tool_choice: "required" }, "needs no tool parser"],
    [
      "a named tool_choice",
      { tools: [weather], tool_choice: { type: "function", function: { name: "get_weather" } } },
      "ChatCompletionNamedToolChoiceParam",
    ],
    [
      "a named tool_choice without type",
      { tools: [weather], tool_choice: { function: { name: "get_weather" } } },
      "type defaults to function",
    ],
    [
      "a tool without type",
      { tools: [{ function: { name: "f" } }], tool_choice: "none" },
      "ChatCompletionToolsParam.type defaults",
    ],
    [
      "tool description and parameters null",
      {
        tools: [{ type: "function", function: { name: "f", description: null, parameters: null } }],
        tool_choice: "none",
      },
      "FunctionDefinition: str | None, dict | None",
      VLLM_BASE,
    ],
    [
      "repetition_detection min_count 1 with detection off",
      { repetition_detection: { max_pattern_size: 0, min_count: 1 } },
      "min_count is checked only when max_pattern_size > 0",
      VLLM_SAMPLING,
    ],
    [
      "repetition_detection min_count alone",
      { repetition_detection: { min_count: 1 } },
      "max_pattern_size defaults to 0: detection off",
      VLLM_SAMPLING,
    ],
    ["booleans in vllm_xargs", { vllm_xargs: { flag: true, flags: [false, 1] } }, "lax int takes a bool"],
    [
      "cache_salt of 128 code points (256 UTF-16 units)",
      { cache_salt: "😀".repeat(128) },
      "len() counts code points",
      VLLM_BASE,
    ],
    [
      "an unknown key in stream_options",
      { stream: true, stream_options: { include_usage: true, progress_every: 4 } },
      "StreamOptions keeps unknown keys",
      VLLM_BASE,
    ],
    [
      "an unknown key in structured_outputs",
      { structured_outputs: { regex: "a+", backend_hint: "x" } },
      "a pydantic dataclass ignores unknown keys",
      VLLM_SAMPLING,
    ],
    [
      "an unknown key in repetition_detection",
      { repetition_detection: { max_pattern_size: 4, min_count: 2, window: 64 } },
      "a pydantic dataclass ignores unknown keys",
      VLLM_SAMPLING,
    ],
    [
      "json_schema without schema next to a structured_outputs constraint",
      { response_format: { type: "json_schema", json_schema: { name: "a" } }, structured_outputs: { regex: "a+" } },
      "the format adds json=None: one constraint left",
      VLLM_BASE,
    ],
    [
      "structural_tag response_format in the current form",
      { response_format: { type: "structural_tag", format: { type: "triggered_tags", triggers: ["<a>"], tags: [] } } },
      "StructuralTagResponseFormat.format",
      VLLM_BASE,
    ],
    [
      "structural_tag response_format in the legacy form",
      {
        response_format: {
          type: "structural_tag",
          structures: [{ begin: "<a>", schema: { type: "object" }, end: "</a>" }],
          triggers: ["<a>"],
        },
      },
      "LegacyStructuralTagResponseFormat",
      VLLM_BASE,
    ],
    [
      "structured_outputs json as an empty schema object",
      { structured_outputs: { json: {} } },
      "json is not None",
      VLLM_BACKEND,
    ],
    [
      "json_object response_format over structured_outputs json_object false",
      { response_format: { type: "json_object" }, structured_outputs: { json_object: false } },
      "the format overrides json_object with true: one constraint",
      VLLM_FROM_FORMAT,
    ],
    [
      "repetition_detection sizes above 2^53",
      { repetition_detection: { max_pattern_size: 2 ** 60, min_pattern_size: 2, min_count: 2 ** 55 } },
      "Python int: any size",
      VLLM_SAMPLING,
    ],
    ["engine_xargs as a list", { engine_xargs: ["a", 1] }, "an unknown top-level key: kept and ignored"],
    [
      "structured_outputs structural_tag as JSON text",
      {
        structured_outputs: {
          structural_tag: '{"type":"structural_tag","format":{"type":"const_string","value":"x"}}',
        },
      },
      "JSON text",
      VLLM_TAG,
    ],
    ["stop with four strings", { stop: ["a", "b", "c", "d"] }, "at the limit", VLLM_STOP],
    ["n at VLLM_MAX_N_SEQUENCES", { n: 16384 }, "n <= 16384", VLLM_NUM_SEQ],
    [
      "a misspelt key in stream_options",
      { stream: true, stream_options: { include_usag: true } },
      "vLLM drops the unknown key silently",
      VLLM_BASE,
      { sdkRefuses: "a near miss of include_usage: refused with a did-you-mean so the option is not lost" },
    ],
  ],
  refused: [
    ["tool_choice auto without tools", { tool_choice: "auto" }, "When using `tool_choice`, `tools` must be set."],
    [
      'tool_choice "required" without tools',
      { tool_choice: "required" },
      "When using `tool_choice`, `tools` must be set.",
    ],
    [
      "a named tool_choice that is not among tools",
      { tools: [weather], tool_choice: { type: "function", function: { name: "get_time" } } },
      "does not match any of the specified `tools`",
    ],
    [
      "tool_choice outside vLLM's forms",
      { tools: [weather], tool_choice: "any" },
      "Literal none/auto/required or named",
    ],
    [
      "tool_choice null with a structured_outputs constraint",
      { tool_choice: null, structured_outputs: { regex: "a+" } },
      "check_structured_outputs_count: structured outputs or tools, not both",
    ],
    [
      "a named tool_choice with a structured_outputs constraint",
      {
        tools: [weather],
        tool_choice: { function: { name: "get_weather" } },
        structured_outputs: { json: { type: "object" } },
      },
      "check_structured_outputs_count: structured outputs or tools, not both",
    ],
    [
      "structured_outputs choice empty",
      { structured_outputs: { choice: [] } },
      "no grammar from no choices",
      VLLM_BACKEND,
    ],
    [
      "structured_outputs grammar empty",
      { structured_outputs: { grammar: "" } },
      "an empty grammar does not parse",
      VLLM_BACKEND,
    ],
    [
      "structured_outputs json empty",
      { structured_outputs: { json: "" } },
      "an empty JSON text does not parse",
      VLLM_BACKEND,
    ],
    [
      "structured_outputs json_object false alone",
      { structured_outputs: { json_object: false } },
      "No valid structured output parameter found",
      VLLM_BACKEND,
    ],
    [
      "structured_outputs regex with NUL",
      { structured_outputs: { regex: "a\u0000b" } },
      "regex must not contain NUL",
      VLLM_BACKEND,
    ],
    [
      "structured_outputs structural_tag empty",
      { structured_outputs: { structural_tag: "" } },
      "Invalid structured_outputs structural_tag specification",
      VLLM_BASE,
    ],
    [
      "json_schema response_format without schema",
      { response_format: { type: "json_schema", json_schema: { name: "a" } } },
      "json=None leaves no constraint",
      VLLM_SAMPLING,
    ],
    [
      "structured_outputs structural_tag that is not JSON",
      { structured_outputs: { structural_tag: "<tag>" } },
      "check_json_nesting / xgrammar parse the JSON text: Invalid structured_outputs structural_tag specification",
      VLLM_TAG,
    ],
    [
      "structured_outputs grammar blank",
      { structured_outputs: { grammar: "  \n " } },
      "a blank grammar does not parse",
      VLLM_BACKEND,
    ],
    [
      "json_schema without schema over structured_outputs json",
      {
        response_format: { type: "json_schema", json_schema: { name: "a" } },
        structured_outputs: { json: { type: "object" } },
      },
      "the format replaces json with None: no constraint left",
      VLLM_FROM_FORMAT,
    ],
    [
      "stop with five strings",
      { stop: ["a", "b", "c", "d", "e"] },
      "list longer than VLLM_MAX_STOP_STRINGS",
      VLLM_STOP,
    ],
    ["n above VLLM_MAX_N_SEQUENCES", { n: 16385 }, "n must be at most 16384", VLLM_NUM_SEQ],
    ["a negative stop_token_id", { stop_token_ids: [2, -1] }, "out-of-vocab token id", VLLM_STOP_IDS],
    [
      "max_completion_tokens 1e21 (written 1e+21)",
      { max_completion_tokens: 1e21 },
      "not an integer in JSON",
      PYDANTIC_INT,
    ],
    ["top_k 1e22 (written 1e+22)", { top_k: 1e22 }, "not an integer in JSON", PYDANTIC_INT],
    [
      "structural_tag response_format without its parts",
      { response_format: { type: "structural_tag" } },
      "neither format nor structures/triggers",
      VLLM_BASE,
    ],
  ],
};

const chatAccepted: Row[] = [
  ...newer.accepted,
  ...sampling.accepted,
  ...messageShapes.accepted,
  ...vllmForms.accepted,
  ["stop as one string", { stop: "\n" }, "stop: str | list[str] | None"],
  ["stop null", { stop: null }, "stop is nullable"],
  ["a custom role (ipython)", { messages: [...user, { role: "ipython", content: "42" }] }, "role: str", VLLM_MESSAGES],
  [
    "assistant content null without tool calls",
    { messages: [...user, { role: "assistant", content: null }] },
    "assistant content is optional",
    VLLM_MESSAGES,
  ],
  ["reasoning_effort none", { reasoning_effort: "none" }, "reasoning_effort literal includes none", VLLM_EFFORT],
  [
    "reasoning_effort minimal",
    { reasoning_effort: "minimal" },
    "reasoning_effort literal includes minimal",
    VLLM_EFFORT,
  ],
  ["reasoning_effort xhigh", { reasoning_effort: "xhigh" }, "reasoning_effort literal includes xhigh", VLLM_EFFORT],
  ["reasoning_effort max", { reasoning_effort: "max" }, "reasoning_effort literal includes max", VLLM_EFFORT],
  ["vllm_xargs (vLLM's name)", { vllm_xargs: { my_ext: "on", ids: [1, 2] } }, "vllm_xargs is the field vLLM reads"],
  ["engine_xargs (the spec's name)", { engine_xargs: { my_ext: "on" } }, "unknown top-level keys are kept and ignored"],
  ["logit_bias null", { logit_bias: null }, "logit_bias: dict | None"],
  ["response_format null", { response_format: null }, "response_format: AnyResponseFormat | None"],
  ["stream_options null", { stream_options: null }, "stream_options: StreamOptions | None"],
  ["structured_outputs null", { structured_outputs: null }, "structured_outputs: StructuredOutputsParams | None"],
  ["tool_choice null", { tool_choice: null }, "tool_choice: ... | None"],
  ["chat_template_kwargs null", { chat_template_kwargs: null }, "chat_template_kwargs: dict | None"],
  ["kv_transfer_params null", { kv_transfer_params: null }, "kv_transfer_params: dict | None"],
  ["mm_processor_kwargs null", { mm_processor_kwargs: null }, "mm_processor_kwargs: dict | None"],
  ["repetition_detection null", { repetition_detection: null }, "repetition_detection: ... | None"],
  ["empty stream_options without stream", { stream_options: {} }, "only a truthy stream_options needs stream"],
  [
    "stream_options members null",
    { stream: true, stream_options: { include_usage: null, continuous_usage_stats: null } },
    "StreamOptions members are bool | None",
    "vllm/entrypoints/openai/engine/protocol.py (StreamOptions)",
  ],
  ["top_logprobs 0 without logprobs", { top_logprobs: 0 }, "only top_logprobs > 0 or -1 needs logprobs"],
  ["top_logprobs -1 with logprobs", { logprobs: true, top_logprobs: -1 }, "-1 means all"],
  ["prompt_logprobs 0 with stream", { stream: true, prompt_logprobs: 0 }, "only > 0 or -1 is refused with stream"],
  [
    "structured_outputs with one constraint",
    { structured_outputs: { regex: "\\d+" } },
    "one constraint",
    VLLM_SAMPLING,
  ],
  [
    "structured_outputs json next to response_format json_schema",
    { response_format: jsonSchemaFormat, structured_outputs: { json: { type: "object" } } },
    "response_format fills the same json constraint: still one kind",
  ],
  ["cache_salt in URL-safe base64", { cache_salt: "q83vEjRWeJA-_w" }, "non-empty, no '/' or '@'"],
  ["tools with tool_choice none", { tools: [tool], tool_choice: "none" }, "none needs no tool parser"],
  [
    "repetition_detection within its rules",
    { repetition_detection: { max_pattern_size: 8, min_pattern_size: 2, min_count: 2 } },
    "min_count >= 2, min <= max",
    VLLM_SAMPLING,
  ],
  ["seed at 2^63 - 1024 (written 9223372036854775000)", { seed: 9223372036854775000 }, "inside int64"],
];

const chatRefused: Row[] = [
  ...newer.refused,
  ["seed 2^63 (the spec's bound as a double)", { seed: 2 ** 63 }, "seed: Field(le=int64 max)"],
  ["seed -2^63 (written below int64's minimum)", { seed: -(2 ** 63) }, "JSON.stringify writes -9223372036854776000"],
  ["truncate_prompt_tokens 2^63", { truncate_prompt_tokens: 2 ** 63 }, "truncate_prompt_tokens: Field(le=int64 max)"],
  ["top_logprobs without logprobs", { top_logprobs: 5 }, "check_logprobs: top_logprobs needs logprobs=true"],
  ["top_logprobs -1 without logprobs", { top_logprobs: -1 }, "check_logprobs: -1 counts as set"],
  ["prompt_logprobs with stream", { stream: true, prompt_logprobs: 2 }, "check_logprobs: not available when streaming"],
  ["prompt_logprobs -1 with stream", { stream: true, prompt_logprobs: -1 }, "check_logprobs: -1 counts as set"],
  [
    "stream_options without stream",
    { stream_options: { include_usage: true } },
    "validate_stream_options: only with stream=True",
  ],
  ["structured_outputs without a constraint", { structured_outputs: {} }, "none specified", VLLM_SAMPLING],
  [
    "structured_outputs with tuning flags only",
    { structured_outputs: { disable_any_whitespace: true } },
    "flags are not a constraint",
    VLLM_SAMPLING,
  ],
  [
    "structured_outputs with json_object false next to a constraint",
    { structured_outputs: { choice: ["a", "b"], json_object: false } },
    "a non-null json_object counts",
    VLLM_SAMPLING,
  ],
  [
    "structured_outputs regex next to response_format json_schema",
    { response_format: jsonSchemaFormat, structured_outputs: { regex: "a+" } },
    "to_sampling_params adds json: two kinds",
  ],
  ["cache_salt empty", { cache_salt: "" }, "check_cache_salt_support: non-empty"],
  [
    "cache_salt with '/' (standard base64)",
    { cache_salt: "ab/cd+e=" },
    "current models refuse '/', '@', '\\\\', NUL",
    CURRENT_MODEL_ONLY,
  ],
  [
    "cache_salt over 128 characters",
    { cache_salt: "a".repeat(129) },
    "current models cap it at 128",
    CURRENT_MODEL_ONLY,
  ],
  ["tools empty", { tools: [] }, "current models refuse an empty tools list", CURRENT_MODEL_ONLY],
  [
    "repetition_detection min_count 1",
    { repetition_detection: { max_pattern_size: 8, min_count: 1 } },
    "RepetitionDetectionParams: min_count >= 2",
    VLLM_SAMPLING,
  ],
  [
    "repetition_detection min_pattern_size above max_pattern_size",
    { repetition_detection: { max_pattern_size: 4, min_pattern_size: 8, min_count: 3 } },
    "RepetitionDetectionParams: min <= max",
    VLLM_SAMPLING,
  ],
  [
    "continue_final_message with add_generation_prompt",
    { continue_final_message: true, add_generation_prompt: true },
    "check_generation_prompt",
  ],
  ["n 0", { n: 0 }, "n >= 1", VLLM_SAMPLING],
  [
    "top_logprobs above the server's max (20 by default)",
    { logprobs: true, top_logprobs: 21 },
    "--max-logprobs decides: the SDK sends, a default server refuses",
    "vllm/v1/engine/processor.py",
    { dependsOnServer: true },
  ],
  [
    "priority without priority scheduling",
    { priority: 1 },
    "--scheduling-policy priority decides: the SDK sends, a default server refuses",
    "vllm/v1/engine/processor.py",
    { dependsOnServer: true },
  ],
  [
    "tools without tool_choice",
    { tools: [tool] },
    'vLLM picks tool_choice "auto": a 400 without --enable-auto-tool-choice, tool calling with it; sent as written',
    VLLM_CHAT,
    { dependsOnServer: true, fakeAccepts: AUTO_TOOLS },
  ],
  [
    'tool_choice "auto"',
    { tools: [tool], tool_choice: "auto" },
    "needs a server started with --enable-auto-tool-choice and a tool parser",
    VLLM_CHAT,
    { dependsOnServer: true, fakeAccepts: AUTO_TOOLS },
  ],
  ...sampling.refused,
  ...messageShapes.refused,
  ...vllmForms.refused,
];

const callsAccepted: Row[] = [
  ["filter.wb_user_ids (Weave's name)", { filter: { wb_user_ids: ["u1"] } }, "CallsFilter.wb_user_ids"],
  ["filter.wb_run_ids (Weave's name)", { filter: { wb_run_ids: ["acme/bot/r1"] } }, "CallsFilter.wb_run_ids"],
  [
    "filter.svc_user_ids (the spec's name)",
    { filter: { svc_user_ids: ["u1"] } },
    "accepted but IGNORED by current Weave: the query runs unfiltered",
  ],
  ["latest_only", { latest_only: true }, "CallsQueryReq.latest_only"],
  [
    "the body Weave's Python client sends",
    {
      filter: { op_names: null, wb_user_ids: null, wb_run_ids: null, trace_roots_only: true },
      latest_only: false,
      include_costs: false,
      include_feedback: false,
      sort_by: [{ field: "started_at", direction: "desc" }],
    },
    "the Python client serialises every CallsQueryReq field: latest_only and null wb_* filters arrive",
  ],
  [
    "$containsToken",
    {
      query: {
        $expr: { $containsToken: { input: { $getField: "inputs.q" }, substr: { $literal: "reset" } } },
      },
    },
    "ContainsTokenOperation: a whole-token match (ClickHouse hasToken)",
    WEAVE_QUERY,
  ],
  [
    "an unknown top-level key",
    { include_everything: true },
    "current request models ignore unknown keys (logged)",
    WEAVE_REQ,
    { sdkRefuses: "the SDK refuses fields it does not know; extraBody sends them" },
  ],
  [
    "an unknown filter key",
    { filter: { user_ids: ["u1"] } },
    "ignored with a logged warning: the query runs unfiltered",
    WEAVE_REQ,
    { sdkRefuses: "a filter key Weave ignores would return everything: the SDK refuses it" },
  ],
  [
    "columns",
    { columns: ["id", "output"] },
    "every field comes back, the unrequested ones null",
    "weave/trace_server/calls_query_builder (select columns)",
  ],
  [
    "an explicit sort",
    { sort_by: [{ field: "inputs.user_tier", direction: "asc" }] },
    "the server adds the id as the last sort key",
    "weave/trace_server/calls_query_builder (order by ... id)",
  ],
  [
    "$getField with an escaped dot",
    { query: { $expr: { $eq: [{ $getField: "attributes.a\\.b" }, { $literal: 1 }] } } },
    "a key holding a dot is written a\\.b",
    WEAVE_QUERY,
  ],
];

const callsRefused: Row[] = [
  [
    "a bare array inside $literal",
    { query: { $expr: { $eq: [{ $getField: "inputs.tags" }, { $literal: ["a"] }] } } },
    "each element must be a LiteralOperation",
    WEAVE_QUERY,
  ],
  [
    "a bare object inside $literal",
    { query: { $expr: { $eq: [{ $getField: "inputs.o" }, { $literal: { tier: "pro" } }] } } },
    "each value must be a LiteralOperation",
    WEAVE_QUERY,
  ],
  ["wb_user_ids not a list", { filter: { wb_user_ids: "u1" } }, "list[str] | None"],
  ["latest_only not a boolean", { latest_only: "yes" }, "bool | None"],
  [
    "sort direction other than asc/desc",
    { sort_by: [{ field: "id", direction: "up" }] },
    "SortBy.direction: Literal['asc', 'desc']",
  ],
];

function build(
  operation: CaseOperation,
  real: RealServerCase["real"],
  defaultSource: string,
  rows: Array<[string, Record<string, unknown>, string, string?, Partial<RealServerCase>?]>,
): RealServerCase[] {
  return rows.map(([name, request, why, source, extra]) => ({
    name,
    operation,
    request: operation === "chat" && !("messages" in request) ? { messages: user, ...request } : request,
    real,
    why,
    source: source ?? defaultSource,
    ...extra,
  }));
}

/**
 * Every case: chat completions (vLLM) and call queries (Weave), accepted and refused.
 */
export const REAL_SERVER_CASES: readonly RealServerCase[] = [
  ...build("chat", "accepted", VLLM_CHAT, chatAccepted),
  ...build("chat", "refused", VLLM_CHAT, chatRefused),
  ...build("calls", "accepted", WEAVE_REQ, callsAccepted),
  ...build("calls", "refused", WEAVE_REQ, callsRefused),
];
