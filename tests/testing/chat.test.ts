import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";
import { startFakeService, tokenize } from "../../src/testing/index.js";
import type { Chunk } from "./helpers.js";
import { bearer, chat, postJson, readStream } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService();
});
afterAll(() => svc.close());

const user = (content: string) => ({ messages: [{ role: "user", content }] });

interface Completion {
  id: string;
  object: string;
  model: string;
  choices: Array<{
    index: number;
    message: Record<string, unknown> & { content: string | null; reasoning: string | null };
    logprobs: {
      content: Array<{ token: string; logprob: number; bytes: number[]; top_logprobs: Array<{ token: string }> }>;
    } | null;
    finish_reason: string;
    stop_reason: string | number | null;
    token_ids: number[] | null;
  }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details: null };
  prompt_token_ids: number[] | null;
  [key: string]: unknown;
}

async function complete(body: Record<string, unknown>): Promise<Completion> {
  const res = await chat(svc, body);
  expect(res.status).toBe(200);
  return (await res.json()) as Completion;
}

function contentOf(chunks: Chunk[], index: number): string {
  return chunks
    .flatMap((c) => c.choices)
    .filter((c) => c.index === index)
    .map((c) => c.delta.content ?? "")
    .join("");
}

describe("chat, non-streamed", () => {
  it("returns every field of the response, with nulls where vLLM sends null", async () => {
    const body = await complete(user("Hello there"));
    expect(Object.keys(body).sort()).toEqual(
      [
        "choices",
        "created",
        "id",
        "kv_transfer_params",
        "model",
        "object",
        "prompt_logprobs",
        "prompt_token_ids",
        "service_tier",
        "system_fingerprint",
        "usage",
      ].sort(),
    );
    expect(body.object).toBe("chat.completion");
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.model).toBe("Qwen/Qwen3-8B");
    expect(body.service_tier).toBeNull();
    expect(body.prompt_token_ids).toBeNull();
    const [choice] = body.choices;
    expect(choice!.message).toEqual({
      role: "assistant",
      content: expect.any(String),
      refusal: null,
      annotations: null,
      audio: null,
      function_call: null,
      reasoning: null,
    });
    expect(choice!.finish_reason).toBe("stop");
    expect(choice!.stop_reason).toBeNull();
    expect(choice!.logprobs).toBeNull();
    expect(choice!.token_ids).toBeNull();
    expect(body.usage.completion_tokens).toBe(tokenize(choice!.message.content!).length);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(body.usage.prompt_tokens_details).toBeNull();
  });

  it("is deterministic for the same request and differs per choice index", async () => {
    const a = await complete({ ...user("What is the plan?"), n: 2 });
    const b = await complete({ ...user("What is the plan?"), n: 2 });
    expect(a.choices.map((c) => c.message.content)).toEqual(b.choices.map((c) => c.message.content));
    expect(a.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(a.choices[0]!.message.content).not.toBe(a.choices[1]!.message.content);
  });

  it("uses the first served model when model is absent, and 404s an unknown one", async () => {
    const res = await chat(svc, { ...user("hi"), model: undefined });
    expect(((await res.json()) as Completion).model).toBe("Qwen/Qwen3-8B");
    const unknown = await chat(svc, { ...user("hi"), model: "no/such-model" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { message: "The model `no/such-model` does not exist.", type: "NotFoundError", param: "model", code: 404 },
    });
  });

  it("echo replies are exact, and stop strings end them with stop_reason", async () => {
    expect((await complete(user("echo one two three"))).choices[0]!.message.content).toBe("one two three");
    const stopped = await complete({ ...user("echo one two STOP three"), stop: ["STOP"] });
    expect(stopped.choices[0]!.message.content).toBe("one two ");
    expect(stopped.choices[0]!.finish_reason).toBe("stop");
    expect(stopped.choices[0]!.stop_reason).toBe("STOP");
    const kept = await complete({
      ...user("echo one two STOP three"),
      stop: ["STOP"],
      include_stop_str_in_output: true,
    });
    expect(kept.choices[0]!.message.content).toBe("one two STOP");
  });

  it("max_completion_tokens and max_tokens cut the reply with finish_reason length", async () => {
    const a = await complete({ ...user("echo alpha beta gamma delta"), max_completion_tokens: 2 });
    expect(a.choices[0]!.message.content).toBe("alpha beta");
    expect(a.choices[0]!.finish_reason).toBe("length");
    expect(a.usage.completion_tokens).toBe(2);
    const b = await complete({ ...user("echo alpha beta gamma delta"), max_tokens: 3 });
    expect(b.choices[0]!.message.content).toBe("alpha beta gamma");
    expect(b.choices[0]!.finish_reason).toBe("length");
  });

  it("logprobs with top_logprobs, token ids and prompt token ids", async () => {
    const body = await complete({ ...user("echo hi there"), logprobs: true, top_logprobs: 3, return_token_ids: true });
    const choice = body.choices[0]!;
    expect(choice.logprobs!.content.map((e) => e.token)).toEqual(["hi", " there"]);
    expect(choice.logprobs!.content[0]!.bytes).toEqual([104, 105]);
    expect(choice.logprobs!.content[0]!.top_logprobs).toHaveLength(3);
    expect(choice.logprobs!.content[0]!.top_logprobs[0]!.token).toBe("hi");
    expect(choice.token_ids).toHaveLength(2);
    expect(body.prompt_token_ids).toHaveLength(body.usage.prompt_tokens);
    const asIds = await complete({
      ...user("echo hi"),
      logprobs: true,
      return_tokens_as_token_ids: true,
      return_token_ids: true,
    });
    expect(asIds.choices[0]!.logprobs!.content[0]!.token).toBe(`token_id:${asIds.choices[0]!.token_ids![0]}`);
  });

  it("produces reasoning for reasoning_effort or a 'reason' model, unless include_reasoning is false", async () => {
    const a = await complete({ ...user("Why?"), reasoning_effort: "low" });
    expect(a.choices[0]!.message.reasoning).toEqual(expect.any(String));
    const b = await complete({ ...user("Why?"), model: "deepseek-ai/DeepSeek-R1-reasoning" });
    expect(b.choices[0]!.message.reasoning).toEqual(expect.any(String));
    const c = await complete({ ...user("Why?"), reasoning_effort: "low", include_reasoning: false });
    expect(c.choices[0]!.message.reasoning).toBeNull();
  });

  it("calls a tool named in the user message, with arguments from its schema", async () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
        },
      },
    ];
    const body = await complete({ messages: [{ role: "user", content: "Please get_weather for Paris" }], tools });
    const choice = body.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    expect(choice.message["tool_calls"]).toEqual([
      {
        id: expect.stringMatching(/^chatcmpl-tool-/),
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris","days":42}' },
      },
    ]);
    const none = await complete({
      messages: [{ role: "user", content: "Please get_weather for Paris" }],
      tools,
      tool_choice: "none",
    });
    expect(none.choices[0]!.message["tool_calls"]).toBeUndefined();
  });

  it("with add_generation_prompt false, the reply's role is the last message's", async () => {
    const body = await complete({
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "Sure" },
      ],
      continue_final_message: true,
      add_generation_prompt: false,
    });
    expect(body.choices[0]!.message["role"]).toBe("assistant");
  });
});

describe("chat, validation errors as vLLM sends them", () => {
  const cases: Array<[string, Record<string, unknown>, string, string | null]> = [
    ["missing messages", { model: "Qwen/Qwen3-8B" }, "Field required", "messages"],
    [
      "continue_final_message with the default add_generation_prompt",
      { ...user("hi"), continue_final_message: true },
      "Cannot set both `continue_final_message` and `add_generation_prompt` to True.",
      "continue_final_message",
    ],
    [
      "both true",
      { ...user("hi"), continue_final_message: true, add_generation_prompt: true },
      "Cannot set both",
      "continue_final_message",
    ],
    [
      "non-zero priority",
      { ...user("hi"), priority: 1 },
      "Got priority 1 but Priority scheduling is not enabled.",
      null,
    ],
    ["tool_choice auto", { ...user("hi"), tool_choice: "auto" }, "tool_choice", "tool_choice"],
    [
      "stream_options without stream",
      { ...user("hi"), stream_options: { include_usage: true } },
      "Stream options can only be defined when `stream=True`.",
      "stream_options",
    ],
    [
      "top_logprobs without logprobs",
      { ...user("hi"), top_logprobs: 2 },
      "`logprobs` must be set to true",
      "top_logprobs",
    ],
    ["n = 0", { ...user("hi"), n: 0 }, "n must be at least 1", "n"],
    ["a wrongly typed field", { ...user("hi"), n: "two" }, "Input should be a valid integer", "n"],
    [
      "reasoning_effort out of the enum",
      { ...user("hi"), reasoning_effort: "extreme" },
      "'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'",
      "reasoning_effort",
    ],
    [
      "truncate_prompt_tokens below -1",
      { ...user("hi"), truncate_prompt_tokens: -2 },
      "greater than or equal to -1",
      "truncate_prompt_tokens",
    ],
  ];
  it.each(cases)("refuses %s with 400 BadRequestError", async (_name, body, message, param) => {
    const res = await chat(svc, body);
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as {
      error: { message: string; type: string; param: string | null; code: number };
    };
    expect(error.type).toBe("BadRequestError");
    expect(error.code).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message).toContain(message);
  });

  it("accepts continue_final_message with add_generation_prompt false, and priority 0", async () => {
    expect(
      (await chat(svc, { ...user("hi"), continue_final_message: true, add_generation_prompt: false })).status,
    ).toBe(200);
    expect((await chat(svc, { ...user("hi"), priority: 0 })).status).toBe(200);
  });

  it("refuses a body that is not JSON", async () => {
    const res = await fetch(`${svc.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${svc.apiKey}`, "content-type": "application/json" },
      body: "{nope",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(400);
  });
});

describe("chat, int64 fields judged on the JSON text, as vLLM reads them", () => {
  // JSON.parse rounds all four to ±2^63; vLLM reads the integers exactly.
  it.each([
    ["9223372036854775807", 200],
    ["-9223372036854775808", 200],
    ["9223372036854775808", 400],
    ["-9223372036854775809", 400],
  ])("seed %s → %i", async (seed, status) => {
    const body = `{"model":"Qwen/Qwen3-8B","messages":[{"role":"user","content":"hi"}],"seed":${seed}}`;
    const res = await postJson(svc, "/v1/chat/completions", body, bearer(svc));
    expect(res.status).toBe(status);
    await res.body?.cancel();
  });
});

describe("chat, streamed", () => {
  it("streams role chunk, token chunks, finish on the last token, then [DONE]", async () => {
    const res = await chat(svc, { ...user("echo Hi there!"), stream: true });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const { chunks, done } = await readStream(res);
    expect(done).toBe(true);
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.choices.length === 1)).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0]!.choices[0]).toEqual({
      index: 0,
      delta: { role: "assistant", content: "" },
      logprobs: null,
      finish_reason: null,
    });
    expect(chunks.slice(1).map((c) => c.choices[0]!.delta.content)).toEqual(["Hi", " there", "!"]);
    expect(chunks.slice(1, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
    const last = chunks.at(-1)!.choices[0]!;
    expect(last.finish_reason).toBe("stop");
    expect(last.stop_reason).toBeNull();
    expect(chunks.some((c) => "usage" in c)).toBe(false);
  });

  it("matches the non-streamed reply", async () => {
    const plain = await complete({ ...user("Tell me something"), n: 2 });
    const { chunks } = await readStream(await chat(svc, { ...user("Tell me something"), n: 2, stream: true }));
    expect(contentOf(chunks, 0)).toBe(plain.choices[0]!.message.content);
    expect(contentOf(chunks, 1)).toBe(plain.choices[1]!.message.content);
  });

  it("with n=2: role chunks for each index first, interleaved tokens, one finish chunk per index", async () => {
    const { chunks } = await readStream(await chat(svc, { ...user("echo a b c"), n: 2, stream: true }));
    expect(chunks.slice(0, 2).map((c) => [c.choices[0]!.index, c.choices[0]!.delta.role])).toEqual([
      [0, "assistant"],
      [1, "assistant"],
    ]);
    expect(chunks.slice(2).map((c) => c.choices[0]!.index)).toEqual([0, 1, 0, 1, 0, 1]);
    for (const index of [0, 1]) {
      const finishes = chunks.flatMap((c) => c.choices).filter((c) => c.index === index && c.finish_reason !== null);
      expect(finishes).toHaveLength(1);
    }
  });

  it("include_usage adds a final usage chunk with empty choices before [DONE]", async () => {
    const { chunks, done } = await readStream(
      await chat(svc, { ...user("echo x y"), n: 2, stream: true, stream_options: { include_usage: true } }),
    );
    expect(done).toBe(true);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.completion_tokens).toBe(4);
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + 4);
    expect(chunks.slice(0, -1).some((c) => "usage" in c)).toBe(false);
  });

  it("continuous_usage_stats puts cumulative usage on every chunk", async () => {
    const { chunks } = await readStream(
      await chat(svc, {
        ...user("echo x y z"),
        stream: true,
        stream_options: { include_usage: true, continuous_usage_stats: true },
      }),
    );
    expect(chunks.map((c) => c.usage?.completion_tokens)).toEqual([0, 1, 2, 3, 3]);
  });

  it("return_token_ids: prompt_token_ids on the first chunk only, token_ids per chunk", async () => {
    const plain = await complete({ ...user("echo x y"), return_token_ids: true });
    const { chunks } = await readStream(await chat(svc, { ...user("echo x y"), stream: true, return_token_ids: true }));
    expect(chunks[0]!.prompt_token_ids).toEqual(plain.prompt_token_ids);
    expect(chunks.slice(1).every((c) => c.prompt_token_ids === undefined)).toBe(true);
    expect(chunks.slice(1).flatMap((c) => c.choices[0]!.token_ids!)).toEqual(plain.choices[0]!.token_ids);
  });

  it("streams reasoning deltas before content", async () => {
    const { chunks } = await readStream(
      await chat(svc, { ...user("echo done"), stream: true, reasoning_effort: "high" }),
    );
    const kinds = chunks.slice(1).map((c) => (c.choices[0]!.delta.reasoning !== undefined ? "r" : "c"));
    expect(kinds.join("")).toMatch(/^r+c+$/);
  });

  it("streams a tool call in fragments: id, type and name first, then argument pieces, then a finish chunk", async () => {
    const tools = [
      {
        type: "function",
        function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } },
      },
    ];
    const { chunks } = await readStream(
      await chat(svc, { messages: [{ role: "user", content: "lookup Berlin" }], tools, stream: true }),
    );
    const calls = chunks.slice(1, -1).map((c) => c.choices[0]!.delta.tool_calls![0]!);
    expect(calls[0]).toEqual({
      id: expect.stringMatching(/^chatcmpl-tool-/),
      type: "function",
      index: 0,
      function: { name: "lookup" },
    });
    const args = calls
      .slice(1)
      .map((c) => (c["function"] as { arguments: string }).arguments)
      .join("");
    expect(JSON.parse(args)).toEqual({ q: "Berlin" });
    expect(chunks.at(-1)!.choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
  });

  it("streams logprobs per token chunk", async () => {
    const { chunks } = await readStream(
      await chat(svc, { ...user("echo a b"), stream: true, logprobs: true, top_logprobs: 2 }),
    );
    expect(chunks[0]!.choices[0]!.logprobs).toBeNull();
    expect(chunks.slice(1).map((c) => c.choices[0]!.logprobs!.content[0]!.token)).toEqual(["a", " b"]);
    expect(chunks[1]!.choices[0]!.logprobs!.content[0]!.top_logprobs).toHaveLength(2);
  });

  it("uses request_id for the completion id", async () => {
    const { chunks } = await readStream(await chat(svc, { ...user("hi"), stream: true, request_id: "abc123" }));
    expect(chunks[0]!.id).toBe("chatcmpl-abc123");
  });
});

describe("chat: tool calls by tool_choice, as a server with auto tool choice", () => {
  const tools = [
    { type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } },
    {
      type: "function",
      function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
    },
  ];
  const ask = async (body: Record<string, unknown>) => {
    const res = await chat(svc, { tools, ...body });
    expect(res.status).toBe(200);
    const choice = ((await res.json()) as { choices: any[] }).choices[0];
    return { finish: choice.finish_reason as string, name: choice.message.tool_calls?.[0]?.function.name as string };
  };
  const hi = [{ role: "user", content: "Hello there" }];

  it("a named tool_choice calls that function whatever the message says", async () => {
    expect(await ask({ messages: hi, tool_choice: { function: { name: "get_weather" } } })).toEqual({
      finish: "tool_calls",
      name: "get_weather",
    });
  });

  it('"required" and "auto" call the named tool, else the first; "none" calls nothing', async () => {
    const weather = [{ role: "user", content: "Use get_weather for Oslo" }];
    expect((await ask({ messages: weather, tool_choice: "required" })).name).toBe("get_weather");
    expect((await ask({ messages: hi, tool_choice: "required" })).name).toBe("get_time");
    expect((await ask({ messages: hi, tool_choice: "auto" })).name).toBe("get_time");
    expect((await ask({ messages: hi })).name).toBe("get_time");
    expect(await ask({ messages: weather, tool_choice: "none" })).toEqual({ finish: "stop", name: undefined });
  });

  it('"auto" answers a tool result with text; the same call is deterministic', async () => {
    const messages = [
      ...hi,
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "get_time", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "12:00" },
    ];
    const res = await chat(svc, { tools, messages, tool_choice: "auto" });
    const body = (await res.json()) as { choices: any[] };
    expect(body.choices[0].finish_reason).toBe("stop");
    expect(body.choices[0].message.content).toBe("The tool answered: 12:00");
    const again = (await (await chat(svc, { tools, messages: hi })).json()) as { choices: any[] };
    const twice = (await (await chat(svc, { tools, messages: hi })).json()) as { choices: any[] };
    expect(again.choices[0].message.tool_calls).toEqual(twice.choices[0].message.tool_calls);
  });
});
