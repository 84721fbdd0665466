import { describe, expect, it } from "vitest";
import {
  type ChatCompletionCreateParams,
  type ChatCompletionCreateParamsBase,
  type ChatCompletionCreateParamsNonStreaming,
  type ChatCompletionCreateParamsStreaming,
  type ChatCompletionMessageParam,
  chatCompletionCreateParamsNonStreamingSchema,
  chatCompletionCreateParamsSchema,
  chatCompletionCreateParamsStreamingSchema,
  chatCompletionMessageParamSchema,
  prepareChatRequest,
  requestIssues,
} from "../../../src/wire/chat/request-schema.js";

// The widest doubles vLLM's int64 bounds let through: 2^63 - 1024, written 9223372036854775000.
const INT64_MAX = 9223372036854775000;
// The spec's bound, 9223372036854776000, is 2^63 once a double: out of range for vLLM.
const SPEC_BOUND = 9223372036854776000;
const ABOVE_INT64 = 2 ** 63 + 2048;
const user: ChatCompletionMessageParam[] = [{ role: "user", content: "Hi" }];

type Invalid = [label: string, input: unknown, path: PropertyKey[]];

const invalid: Invalid[] = [
  ["missing messages", {}, ["messages"]],
  ["empty messages", { messages: [] }, ["messages"]],
  ["messages not an array", { messages: "hello" }, ["messages"]],
  ["message not an object", { messages: ["hello"] }, ["messages", 0]],
  ["role a number", { messages: [{ role: 7, content: "x" }] }, ["messages", 0, "role"]],
  ["missing role", { messages: [{ content: "x" }] }, ["messages", 0, "role"]],
  ["custom-role content a number", { messages: [{ role: "ipython", content: 5 }] }, ["messages", 0, "content"]],
  ["user content a number", { messages: [{ role: "user", content: 5 }] }, ["messages", 0, "content"]],
  ["custom-role content null", { messages: [{ role: "ipython", content: null }] }, ["messages", 0, "content"]],
  [
    "unknown content part type",
    { messages: [{ role: "user", content: [{ type: "audio", data: "x" }] }] },
    ["messages", 0, "content"],
  ],
  [
    "image part without url",
    { messages: [{ role: "user", content: [{ type: "image_url", image_url: {} }] }] },
    ["messages", 0, "content"],
  ],
  [
    "image detail outside OpenAI's set",
    { messages: [{ role: "system", content: [{ type: "image_url", image_url: { url: "u", detail: "ultra" } }] }] },
    ["messages", 0, "content"],
  ],
  ["name not a string", { messages: [{ role: "user", content: "x", name: 5 }] }, ["messages", 0, "name"]],
  ["tool message content null", { messages: [{ role: "tool", content: null }] }, ["messages", 0, "content"]],
  [
    "function message name a number",
    { messages: [{ role: "function", content: "x", name: 1 }] },
    ["messages", 0, "name"],
  ],
  [
    "assistant tool call of wrong type",
    {
      messages: [
        { role: "assistant", tool_calls: [{ id: "1", type: "code", function: { name: "f", arguments: "{}" } }] },
      ],
    },
    ["messages", 0, "tool_calls", 0, "type"],
  ],
  ["model a number", { messages: user, model: 5 }, ["model"]],
  ["seed not an integer", { messages: user, seed: 1.5 }, ["seed"]],
  ["seed above int64", { messages: user, seed: ABOVE_INT64 }, ["seed"]],
  ["seed below int64", { messages: user, seed: -ABOVE_INT64 }, ["seed"]],
  ["seed at the spec's bound (2^63)", { messages: user, seed: SPEC_BOUND }, ["seed"]],
  ["seed at -2^63 (written below int64's minimum)", { messages: user, seed: -SPEC_BOUND }, ["seed"]],
  [
    "truncate_prompt_tokens at 2^63",
    { messages: user, truncate_prompt_tokens: SPEC_BOUND },
    ["truncate_prompt_tokens"],
  ],
  ["top_logprobs without logprobs", { messages: user, top_logprobs: 5 }, ["top_logprobs"]],
  ["top_logprobs -1 with logprobs false", { messages: user, logprobs: false, top_logprobs: -1 }, ["top_logprobs"]],
  ["prompt_logprobs with stream", { messages: user, stream: true, prompt_logprobs: 1 }, ["prompt_logprobs"]],
  ["prompt_logprobs -1 with stream", { messages: user, stream: true, prompt_logprobs: -1 }, ["prompt_logprobs"]],
  ["structured_outputs without a constraint", { messages: user, structured_outputs: {} }, ["structured_outputs"]],
  [
    "structured_outputs with tuning flags only",
    { messages: user, structured_outputs: { disable_any_whitespace: true } },
    ["structured_outputs"],
  ],
  [
    "structured_outputs with json_object: false next to a constraint",
    { messages: user, structured_outputs: { choice: ["a"], json_object: false } },
    ["structured_outputs"],
  ],
  [
    "structured_outputs regex next to response_format json_schema",
    {
      messages: user,
      response_format: { type: "json_schema", json_schema: { name: "a", schema: {} } },
      structured_outputs: { regex: "a+" },
    },
    ["structured_outputs"],
  ],
  ["cache_salt empty", { messages: user, cache_salt: "" }, ["cache_salt"]],
  ["cache_salt with a slash (standard base64)", { messages: user, cache_salt: "ab/c+d==" }, ["cache_salt"]],
  ["cache_salt over 128 characters", { messages: user, cache_salt: "a".repeat(129) }, ["cache_salt"]],
  ["tools empty", { messages: user, tools: [] }, ["tools"]],
  [
    "repetition_detection min_count below 2",
    { messages: user, repetition_detection: { max_pattern_size: 8, min_count: 1 } },
    ["repetition_detection", "min_count"],
  ],
  [
    "repetition_detection min_pattern_size above max_pattern_size",
    { messages: user, repetition_detection: { min_pattern_size: 9, max_pattern_size: 8, min_count: 3 } },
    ["repetition_detection", "min_pattern_size"],
  ],
  ["seed a string", { messages: user, seed: "1" }, ["seed"]],
  ["seed NaN", { messages: user, seed: Number.NaN }, ["seed"]],
  ["truncate_prompt_tokens below -1", { messages: user, truncate_prompt_tokens: -2 }, ["truncate_prompt_tokens"]],
  [
    "truncate_prompt_tokens not an integer",
    { messages: user, truncate_prompt_tokens: 2.5 },
    ["truncate_prompt_tokens"],
  ],
  [
    "truncate_prompt_tokens above int64",
    { messages: user, truncate_prompt_tokens: ABOVE_INT64 },
    ["truncate_prompt_tokens"],
  ],
  ["tool_choice auto", { messages: user, tool_choice: "auto" }, ["tool_choice"]],
  [
    "tool_choice named tool",
    { messages: user, tool_choice: { type: "function", function: { name: "f" } } },
    ["tool_choice"],
  ],
  ["reasoning_effort extreme", { messages: user, reasoning_effort: "extreme" }, ["reasoning_effort"]],
  [
    "continue_final_message with add_generation_prompt",
    { messages: user, continue_final_message: true, add_generation_prompt: true },
    ["add_generation_prompt"],
  ],
  ["n not an integer", { messages: user, n: 1.5 }, ["n"]],
  ["n zero", { messages: user, n: 0 }, ["n"]],
  ["max_tokens a string", { messages: user, max_tokens: "10" }, ["max_tokens"]],
  ["max_completion_tokens not an integer", { messages: user, max_completion_tokens: 10.5 }, ["max_completion_tokens"]],
  ["top_k not an integer", { messages: user, top_k: 2.5 }, ["top_k"]],
  ["top_logprobs below -1", { messages: user, top_logprobs: -2 }, ["top_logprobs"]],
  ["prompt_logprobs not an integer", { messages: user, prompt_logprobs: 0.5 }, ["prompt_logprobs"]],
  ["min_tokens negative", { messages: user, min_tokens: -1 }, ["min_tokens"]],
  ["priority not an integer", { messages: user, priority: 0.5 }, ["priority"]],
  ["temperature a string", { messages: user, temperature: "hot" }, ["temperature"]],
  ["stream a string", { messages: user, stream: "true" }, ["stream"]],
  ["stop a list with a number", { messages: user, stop: ["a", 1] }, ["stop"]],
  ["stop_token_ids with a float", { messages: user, stop_token_ids: [1.5] }, ["stop_token_ids", 0]],
  ["allowed_token_ids not an array", { messages: user, allowed_token_ids: 5 }, ["allowed_token_ids"]],
  ["bad_words with a number", { messages: user, bad_words: [1] }, ["bad_words", 0]],
  ["logit_bias value a string", { messages: user, logit_bias: { "50256": "x" } }, ["logit_bias", "50256"]],
  [
    "tools item of wrong type",
    { messages: user, tools: [{ type: "retrieval", function: { name: "f" } }] },
    ["tools", 0, "type"],
  ],
  [
    "tools function without name",
    { messages: user, tools: [{ type: "function", function: { description: "d" } }] },
    ["tools", 0, "function", "name"],
  ],
  ["tools not an array", { messages: user, tools: { type: "function" } }, ["tools"]],
  ["stream_options a string", { messages: user, stream: true, stream_options: "yes" }, ["stream_options"]],
  [
    "stream_options member wrong type",
    { messages: user, stream: true, stream_options: { include_usage: "yes" } },
    ["stream_options", "include_usage"],
  ],
  ["stream_options without stream", { messages: user, stream_options: { include_usage: true } }, ["stream_options"]],
  ["vllm_xargs with object value", { messages: user, vllm_xargs: { a: { b: 1 } } }, ["vllm_xargs", "a"]],
  ["vllm_xargs with nested list", { messages: user, vllm_xargs: { a: [[1]] } }, ["vllm_xargs", "a"]],
  ["response_format unknown type", { messages: user, response_format: { type: "xml" } }, ["response_format", "type"]],
  [
    "response_format json_schema without name",
    { messages: user, response_format: { type: "json_schema", json_schema: { schema: {} } } },
    ["response_format", "json_schema", "name"],
  ],
  [
    "structured_outputs with two constraints",
    { messages: user, structured_outputs: { json: "{}", regex: "a+" } },
    ["structured_outputs"],
  ],
  [
    "structured_outputs choice not a list",
    { messages: user, structured_outputs: { choice: "yes" } },
    ["structured_outputs", "choice"],
  ],
  [
    "repetition_detection non-integer",
    { messages: user, repetition_detection: { min_count: 1.5 } },
    ["repetition_detection", "min_count"],
  ],
  [
    "documents with a non-string value",
    { messages: user, documents: [{ title: "a", text: 5 }] },
    ["documents", 0, "text"],
  ],
  ["chat_template_kwargs not an object", { messages: user, chat_template_kwargs: "x" }, ["chat_template_kwargs"]],
  ["cache_salt a number", { messages: user, cache_salt: 1 }, ["cache_salt"]],
  ["echo null (spec: boolean)", { messages: user, echo: null }, ["echo"]],
];

function startsWith(path: readonly PropertyKey[], prefix: readonly PropertyKey[]): boolean {
  return prefix.every((p, i) => path[i] === p);
}

describe("chatCompletionCreateParamsSchema: invalid requests", () => {
  it("has a table of at least 25 cases", () => {
    expect(invalid.length).toBeGreaterThanOrEqual(25);
  });

  it.each(invalid)("refuses %s", (_label, input, path) => {
    const r = chatCompletionCreateParamsSchema.safeParse(input);
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path);
    // Each expected path must be named exactly or be the prefix of a more precise one.
    expect(
      paths.some((p) => startsWith(p, path)),
      JSON.stringify(r.error!.issues),
    ).toBe(true);
  });

  it("refuses unknown top-level keys, naming them and suggesting the near field", () => {
    const r = chatCompletionCreateParamsSchema.safeParse({ messages: user, max_completion_token: 5 });
    expect(r.success).toBe(false);
    const issue = r.error!.issues[0]!;
    expect(issue.code).toBe("unrecognized_keys");
    expect(issue.path).toEqual([]);
    expect((issue as { keys: string[] }).keys).toEqual(["max_completion_token"]);
    expect(issue.message).toContain('"max_completion_token"');
    expect(issue.message).toContain('did you mean "max_completion_tokens"');
    expect(issue.message).toContain("extraBody");
  });

  it("points an unknown field with no near name to extraBody", () => {
    const r = chatCompletionCreateParamsSchema.safeParse({ messages: user, new_vllm_field: 64 });
    expect(r.error!.issues[0]!.message).toMatch(/"new_vllm_field"; .*extraBody/);
  });

  it("says why continue_final_message and add_generation_prompt are refused", () => {
    const r = chatCompletionCreateParamsSchema.safeParse({
      messages: user,
      continue_final_message: true,
      add_generation_prompt: true,
    });
    expect(r.error!.issues[0]!.message).toMatch(/cannot be combined/);
  });

  it("says what the seed range is, as the exact int64 bounds", () => {
    const r = chatCompletionCreateParamsSchema.safeParse({ messages: user, seed: ABOVE_INT64 });
    expect(r.error!.issues[0]!.message).toBe(
      "seed must be an integer in -9223372036854775808..9223372036854775807 (int64); JavaScript numbers beyond ±9223372036854775000 are inexact",
    );
    const low = chatCompletionCreateParamsSchema.safeParse({ messages: user, truncate_prompt_tokens: -2 });
    expect(low.error!.issues[0]!.message).toBe(
      "truncate_prompt_tokens must be an integer in -1..9223372036854775807 (int64)",
    );
  });

  it("refuses 2^63 and -2^63 (JSON writes them outside int64) and accepts the widest doubles inside", () => {
    for (const seed of [2 ** 63, -(2 ** 63)])
      expect(chatCompletionCreateParamsSchema.safeParse({ messages: user, seed }).success).toBe(false);
    for (const seed of [2 ** 63 - 1024, -(2 ** 63 - 1024), 0, -1])
      expect(chatCompletionCreateParamsSchema.safeParse({ messages: user, seed }).success).toBe(true);
  });
});

// Every field of the spec's request table, set at once.
const everyField = {
  messages: [
    { role: "developer", content: "Be brief.", name: "dev" },
    { role: "system", content: [{ type: "text", text: "You are helpful." }] },
    {
      role: "user",
      name: "ana",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image_url", image_url: { url: "https://example.com/cat.png", detail: "low" } },
        { type: "input_audio", input_audio: { data: "UklGR", format: "wav" } },
        { type: "audio_url", audio_url: { url: "https://example.com/a.wav" } },
        { type: "video_url", video_url: { url: "https://example.com/v.mp4" } },
        { type: "image_embeds", image_embeds: "k05VTVBZ" },
        { type: "tool_reference", name: "get_weather" },
      ],
    },
    {
      role: "assistant",
      content: null,
      reasoning: "Need the weather",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "18°C" },
    { role: "function", name: "get_weather", content: "18°C" },
    { role: "custom", content: "state: ready", tool_call_id: "x", vendor_field: 1 },
    { role: "generic", content: "note" },
    { role: "assistant", content: "It is 18°C in" },
  ],
  model: "Qwen/Qwen3-8B",
  frequency_penalty: 0.5,
  logit_bias: { "50256": -100 },
  logprobs: true,
  top_logprobs: 5,
  max_tokens: 100,
  max_completion_tokens: 100,
  n: 2,
  presence_penalty: -0.5,
  response_format: {
    type: "json_schema",
    json_schema: { name: "answer", description: "An answer", schema: { type: "object" }, strict: true },
  },
  seed: 42,
  stop: ["\n\n"],
  stream: true,
  stream_options: { include_usage: true, continuous_usage_stats: true },
  temperature: 0.7,
  top_p: 0.9,
  tools: [
    {
      type: "function",
      function: {
        name: "get_weather",
        description: "Weather of a city",
        parameters: { type: "object", properties: { city: { type: "string" } } },
        strict: true,
      },
    },
  ],
  tool_choice: "none",
  reasoning_effort: "high",
  include_reasoning: true,
  parallel_tool_calls: false,
  user: "user-1",
  use_beam_search: false,
  top_k: 40,
  min_p: 0.05,
  repetition_penalty: 1.1,
  length_penalty: 1,
  stop_token_ids: [151645],
  include_stop_str_in_output: false,
  ignore_eos: false,
  min_tokens: 1,
  skip_special_tokens: true,
  spaces_between_special_tokens: true,
  truncate_prompt_tokens: -1,
  prompt_logprobs: 0,
  allowed_token_ids: [1, 2, 3],
  bad_words: ["darn"],
  echo: false,
  add_generation_prompt: false,
  continue_final_message: true,
  add_special_tokens: false,
  documents: [{ title: "Paris", text: "Paris is in France.", source: "wiki" }],
  chat_template: "{% for m in messages %}{{ m.content }}{% endfor %}",
  chat_template_kwargs: { enable_thinking: true },
  mm_processor_kwargs: { num_crops: 4 },
  structured_outputs: {
    json: '{"type":"object"}',
    disable_fallback: false,
    disable_any_whitespace: true,
    disable_additional_properties: true,
    whitespace_pattern: "[ ]?",
    _backend: "xgrammar",
    _backend_was_auto: false,
  },
  priority: 0,
  request_id: "req-1",
  return_tokens_as_token_ids: true,
  return_token_ids: true,
  cache_salt: "c2FsdA==",
  kv_transfer_params: { do_remote_decode: true },
  engine_xargs: { my_ext: "on", weight: 0.5, ids: [1, "two", 3] },
  vllm_xargs: { my_ext: "on" },
  repetition_detection: { max_pattern_size: 16, min_pattern_size: 2, min_count: 4 },
  thinking_token_budget: 512,
  watermarking: false,
  truncation_side: "left",
  logprob_token_ids: [11, 12],
  media_io_kwargs: { video: { num_frames: 8 } },
  session_id: "conv-42",
  routed_experts_prompt_start: 0,
  return_token_offsets: false,
  return_prompt_text: true,
  return_mm_kwargs: true,
  return_assistant_tokens_mask: false,
  ec_transfer_params: { producer: "enc-0" },
  stream_interval: 4,
};

const nulls = {
  messages: user,
  model: null,
  frequency_penalty: null,
  logprobs: null,
  top_logprobs: null,
  max_tokens: null,
  max_completion_tokens: null,
  n: null,
  presence_penalty: null,
  seed: null,
  stream: null,
  temperature: null,
  top_p: null,
  tools: null,
  reasoning_effort: null,
  parallel_tool_calls: null,
  user: null,
  top_k: null,
  min_p: null,
  repetition_penalty: null,
  stop_token_ids: null,
  truncate_prompt_tokens: null,
  prompt_logprobs: null,
  allowed_token_ids: null,
  documents: null,
  chat_template: null,
  return_tokens_as_token_ids: null,
  return_token_ids: null,
  cache_salt: null,
  // vLLM types these as nullable too.
  stop: null,
  logit_bias: null,
  response_format: null,
  stream_options: null,
  structured_outputs: null,
  tool_choice: null,
  chat_template_kwargs: null,
  kv_transfer_params: null,
  repetition_detection: null,
  mm_processor_kwargs: null,
  engine_xargs: null,
  vllm_xargs: null,
  thinking_token_budget: null,
  watermarking: null,
  truncation_side: null,
  logprob_token_ids: null,
  media_io_kwargs: null,
  session_id: null,
  return_token_offsets: null,
  return_prompt_text: null,
  ec_transfer_params: null,
  stream_interval: null,
};

const valid: [string, Record<string, unknown>][] = [
  ["every field of the spec at once", everyField],
  ["every nullable field as null", nulls],
  ["seed at the widest double inside int64", { messages: user, seed: INT64_MAX }],
  ["seed at the widest negative double inside int64", { messages: user, seed: -INT64_MAX }],
  ["truncate_prompt_tokens -1", { messages: user, truncate_prompt_tokens: -1 }],
  ["truncate_prompt_tokens at the maximum", { messages: user, truncate_prompt_tokens: INT64_MAX }],
  ["continue_final_message without add_generation_prompt", { messages: user, continue_final_message: true }],
  ["add_generation_prompt true alone", { messages: user, add_generation_prompt: true }],
  ["response_format json_object", { messages: user, response_format: { type: "json_object" } }],
  ["response_format text", { messages: user, response_format: { type: "text" } }],
  ["structured_outputs choice", { messages: user, structured_outputs: { choice: ["yes", "no"], json_object: null } }],
  [
    "structured_outputs json next to response_format json_schema (vLLM keeps one json constraint)",
    {
      messages: user,
      response_format: { type: "json_schema", json_schema: { name: "a", schema: {} } },
      structured_outputs: { json: { type: "object" } },
    },
  ],
  ["stop as one string", { messages: user, stop: "\n" }],
  ["a custom role (ipython)", { messages: [...user, { role: "ipython", content: "42" }] }],
  ["a role in another case", { messages: [{ role: "User", content: "x" }] }],
  ["assistant content null without tool calls", { messages: [...user, { role: "assistant", content: null }] }],
  ...["none", "minimal", "low", "medium", "high", "xhigh", "max"].map((effort): [string, Record<string, unknown>] => [
    `reasoning_effort ${effort}`,
    { messages: user, reasoning_effort: effort },
  ]),
  ["vllm_xargs (vLLM's name)", { messages: user, vllm_xargs: { my_ext: "on", ids: [1, 2] } }],
  ["both xargs names side by side", { messages: user, vllm_xargs: { a: 1 }, engine_xargs: { b: 2 } }],
  ["cache_salt in URL-safe base64", { messages: user, cache_salt: "q83vEjRWeJA-_w" }],
  ["top_logprobs 0 without logprobs", { messages: user, top_logprobs: 0 }],
  ["prompt_logprobs 0 with stream", { messages: user, stream: true, prompt_logprobs: 0 }],
  [
    "repetition_detection within the rules",
    { messages: user, repetition_detection: { max_pattern_size: 8, min_pattern_size: 0, min_count: 2 } },
  ],
  ["structured_outputs json as an object", { messages: user, structured_outputs: { json: { type: "object" } } }],
  ["empty stream_options without stream", { messages: user, stream_options: {} }],
  ["top_logprobs -1", { messages: user, logprobs: true, top_logprobs: -1 }],
  [
    "a reply message sent back as is",
    {
      messages: [
        ...user,
        {
          role: "assistant",
          content: "4",
          refusal: null,
          annotations: null,
          audio: null,
          function_call: null,
          tool_calls: null,
          reasoning: null,
          reasoning_content: null,
        },
        { role: "user", content: "Thanks" },
      ],
    },
  ],
  ["assistant with only a refusal", { messages: [{ role: "assistant", refusal: "No." }] }],
  [
    "unknown message and part keys kept",
    { messages: [{ role: "user", content: [{ type: "text", text: "x", cache_control: {} }], extra: [1] }] },
  ],
];

describe("chatCompletionCreateParamsSchema: valid requests", () => {
  it.each(valid)("accepts %s, output deep-equal to input", (_label, input) => {
    const r = chatCompletionCreateParamsSchema.safeParse(input);
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    expect(r.data).toStrictEqual(input);
  });

  it("covers every field of the schema in the every-field request", () => {
    // The exported schema is typed by its interface; its object shape is still there at run time.
    const schemaKeys = Object.keys((chatCompletionCreateParamsSchema as unknown as { shape: object }).shape).sort();
    expect(Object.keys(everyField).sort()).toEqual(schemaKeys);
  });

  it("has no defaults: an absent field stays absent", () => {
    const r = chatCompletionCreateParamsSchema.parse({ messages: user });
    expect(r).toStrictEqual({ messages: user });
  });

  it("checks a single message", () => {
    expect(chatCompletionMessageParamSchema.safeParse({ role: "user", content: "x" }).success).toBe(true);
    expect(chatCompletionMessageParamSchema.safeParse({ role: "robot", content: "x" }).success).toBe(true);
    expect(chatCompletionMessageParamSchema.safeParse({ role: null, content: "x" }).success).toBe(false);
  });
});

describe("streaming and non-streaming request schemas", () => {
  it("non-streaming accepts stream absent, false or null and refuses true", () => {
    for (const stream of [undefined, false, null]) {
      const input = stream === undefined ? { messages: user } : { messages: user, stream };
      expect(chatCompletionCreateParamsNonStreamingSchema.safeParse(input).success).toBe(true);
    }
    const r = chatCompletionCreateParamsNonStreamingSchema.safeParse({ messages: user, stream: true });
    expect(r.error?.issues[0]?.path).toEqual(["stream"]);
  });

  it("streaming needs stream: true", () => {
    expect(chatCompletionCreateParamsStreamingSchema.safeParse({ messages: user, stream: true }).success).toBe(true);
    const r = chatCompletionCreateParamsStreamingSchema.safeParse({ messages: user });
    expect(r.error?.issues[0]?.path).toEqual(["stream"]);
  });

  it("applies the cross-field rules to both", () => {
    const bad = { messages: user, continue_final_message: true, add_generation_prompt: true };
    expect(chatCompletionCreateParamsNonStreamingSchema.safeParse(bad).success).toBe(false);
    expect(chatCompletionCreateParamsStreamingSchema.safeParse({ ...bad, stream: true }).success).toBe(false);
  });

  it("types: literals pick the variant, typos and non-string roles do not compile", () => {
    const ns: ChatCompletionCreateParamsNonStreaming = { messages: [{ role: "user", content: "Hi" }], stream: false };
    const s: ChatCompletionCreateParamsStreaming = { messages: [{ role: "user", content: "Hi" }], stream: true };
    const any: ChatCompletionCreateParams[] = [ns, s];
    const base: ChatCompletionCreateParamsBase = {
      messages: [{ role: "user", content: "Hi" }],
      stream: any.length > 1,
    };
    // @ts-expect-error stream must be true on the streaming variant
    const s2: ChatCompletionCreateParamsStreaming = { messages: [{ role: "user", content: "Hi" }] };
    // @ts-expect-error unknown top-level field
    const typo: ChatCompletionCreateParams = { messages: [], max_completion_token: 5 };
    // @ts-expect-error a role is a string
    const m: ChatCompletionMessageParam = { role: 7, content: "x" };
    // @ts-expect-error misspelt message key
    const m2: ChatCompletionMessageParam = { role: "user", content: "x", nmae: "bob" };
    // @ts-expect-error tool_choice takes vLLM's forms only
    const tc: ChatCompletionCreateParams = { messages: [], tool_choice: "any" };
    expect([base, s2, typo, m, m2, tc]).toHaveLength(6);
  });
});

describe("prepareChatRequest", () => {
  it("adds add_generation_prompt: false to a copy when continue_final_message is true and it is unset", () => {
    const params = { messages: user, continue_final_message: true };
    const body = prepareChatRequest(params);
    expect(body).not.toBe(params);
    expect(body).toStrictEqual({ messages: user, continue_final_message: true, add_generation_prompt: false });
    expect(params).toStrictEqual({ messages: user, continue_final_message: true });
  });

  it("returns the same object otherwise", () => {
    const cases: ChatCompletionCreateParamsBase[] = [
      { messages: user },
      { messages: user, continue_final_message: false },
      { messages: user, continue_final_message: true, add_generation_prompt: false },
      { messages: user, add_generation_prompt: true },
    ];
    for (const params of cases) expect(prepareChatRequest(params)).toBe(params);
  });

  it("keeps the caller's type", () => {
    const params: ChatCompletionCreateParamsStreaming = { messages: user, stream: true };
    const body: ChatCompletionCreateParamsStreaming = prepareChatRequest(params);
    expect(body.stream).toBe(true);
  });
});

describe("requestIssues", () => {
  const issuesOf = (input: unknown) => {
    const r = chatCompletionCreateParamsSchema.safeParse(input);
    expect(r.success).toBe(false);
    return requestIssues(r.error!.issues);
  };

  it("gives each unknown key its own path, with a hint at top level", () => {
    expect(issuesOf({ messages: user, max_completion_token: 5, foo: 1 })).toEqual([
      {
        path: ["max_completion_token"],
        message:
          'unknown field "max_completion_token" (did you mean "max_completion_tokens"?); send fields unknown to the SDK with the extraBody option',
        code: "unrecognized_keys",
      },
      {
        path: ["foo"],
        message: 'unknown field "foo"; send fields unknown to the SDK with the extraBody option',
        code: "unrecognized_keys",
      },
    ]);
    expect(issuesOf({ messages: user, stream: true, stream_options: { include_usag: true } })).toEqual([
      {
        path: ["stream_options", "include_usag"],
        message:
          'unknown field "include_usag" (did you mean "include_usage"?); a misspelt field is refused, other unknown fields are sent as written',
        code: "custom",
      },
    ]);
  });

  it("reports the union branch the value was meant for", () => {
    const [issue, ...rest] = issuesOf({
      messages: [{ role: "user", content: [{ type: "image_url", image_url: {} }] }],
    });
    expect(rest).toEqual([]);
    expect(issue!.path).toEqual(["messages", 0, "content", 0, "image_url", "url"]);
    expect(issue!.message).toMatch(/expected string/);
  });

  it("lists the expected types when no branch fits", () => {
    const [issue] = issuesOf({ messages: user, vllm_xargs: { a: { b: 1 } } });
    expect(issue).toEqual({
      path: ["vllm_xargs", "a"],
      message: "Invalid input: expected string or number or boolean or array",
      code: "invalid_union",
    });
  });

  it("keeps other issues as they are", () => {
    expect(issuesOf({ messages: user, seed: 0.5 })).toEqual([
      {
        path: ["seed"],
        message: "seed must be an integer",
        code: "custom",
      },
    ]);
  });
  it("names each unpaired surrogate by its path, keys included, in the order of the request", () => {
    const issues = issuesOf({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "ok" },
            { type: "text", text: "caf\ud83d" },
          ],
        },
        { role: "user", content: "fine" },
      ],
      chat_template_kwargs: { "k\udc00": 1, nested: ["\ud800"] },
    });
    expect(issues.map((i) => i.path)).toEqual([
      ["messages", 0, "content", 1, "text"],
      ["chat_template_kwargs", "k\udc00"],
      ["chat_template_kwargs", "nested", 0],
    ]);
    expect(issues[1]!.message).toBe("key holds an unpaired UTF-16 surrogate");
  });
});
