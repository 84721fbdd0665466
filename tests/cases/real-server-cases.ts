/**
 * One table of requests and what the real servers behind the interface do with them: vLLM's
 * OpenAI-compatible chat completions and Weave's call query. It drives both the SDK's
 * validation tests (`tests/resources/real-server-cases.test.ts`: refused ⇒
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
}

const VLLM_CHAT = "vllm/entrypoints/openai/chat_completion/protocol.py (ChatCompletionRequest)";
const VLLM_SAMPLING = "vllm/sampling_params.py";
const VLLM_MESSAGES = "vllm/entrypoints/chat_utils.py (ChatCompletionMessageParam)";
const WEAVE_REQ = "weave/trace_server/trace_server_interface.py (CallsQueryReq, CallsFilter)";
const VLLM_EFFORT = "vllm/entrypoints/openai/reasoning_effort.py (ReasoningEffortValue)";
// Rules the issue and the research notes give for the current model that the stored copy of
// protocol.py does not show (it checks only that cache_salt is non-empty, and lets tools: []
// through): kept because a current server refuses them; recheck when vLLM changes.
const CURRENT_MODEL_ONLY = "research/real-servers.md (current request model; not in the stored protocol.py)";
const WEAVE_QUERY = "weave/trace_server/interface/query.py (LiteralOperation, GetFieldOperator)";

const user = [{ role: "user", content: "Hi" }];
const tool = { type: "function", function: { name: "get_weather", parameters: { type: "object" } } };
const jsonSchemaFormat = { type: "json_schema", json_schema: { name: "a", schema: { type: "object" } } };

const chatAccepted: Array<[string, Record<string, unknown>, string, string?]> = [
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

const chatRefused: Array<[string, Record<string, unknown>, string, string?, Partial<RealServerCase>?]> = [
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
    'vLLM picks tool_choice "auto", a 400 without --enable-auto-tool-choice; the SDK sends the spec\'s "none"',
    VLLM_CHAT,
    {
      sdkSends: { messages: user, tools: [tool], tool_choice: "none" },
      fakeAccepts: "the fake runs as a server with --enable-auto-tool-choice",
    },
  ],
];

const callsAccepted: Array<[string, Record<string, unknown>, string, string?]> = [
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
    "$literal holding a list of $literal operands",
    {
      query: {
        $expr: { $in: [{ $getField: "op_name" }, [{ $literal: [{ $literal: "a" }, { $literal: 1 }] }]] },
      },
    },
    "list[LiteralOperation]",
    WEAVE_QUERY,
  ],
  [
    "$literal holding an object of $literal operands",
    { query: { $expr: { $eq: [{ $getField: "inputs.o" }, { $literal: { tier: { $literal: "pro" } } }] } } },
    "dict[str, LiteralOperation]",
    WEAVE_QUERY,
  ],
  [
    "$getField with an escaped dot",
    { query: { $expr: { $eq: [{ $getField: "attributes.a\\.b" }, { $literal: 1 }] } } },
    "a key holding a dot is written a\\.b",
    WEAVE_QUERY,
  ],
];

const callsRefused: Array<[string, Record<string, unknown>, string, string?]> = [
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
