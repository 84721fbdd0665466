import { describe, expect, expectTypeOf, it } from "vitest";
import type { ChatCompletionMessageParam } from "../../../src/wire/chat/request-schema.js";
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionFinishReason,
  normalizeChunk,
  normalizeCompletion,
  normalizeReasoning,
} from "../../../src/wire/chat/types.js";

const completion = (message: Record<string, unknown>): ChatCompletion => ({
  id: "c",
  object: "chat.completion",
  created: 0,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "4", ...message }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

describe("normalizeCompletion", () => {
  it("copies reasoning_content to reasoning in place and keeps both keys", () => {
    const c = completion({ reasoning_content: "2+2" });
    const choice = c.choices[0];
    expect(normalizeCompletion(c)).toBe(c);
    expect(c.choices[0]).toBe(choice);
    expect(c.choices[0]!.message).toMatchObject({ reasoning: "2+2", reasoning_content: "2+2" });
  });

  it("leaves an existing reasoning alone, and fills a null one", () => {
    const both = normalizeCompletion(completion({ reasoning: "new", reasoning_content: "old" }));
    expect(both.choices[0]!.message.reasoning).toBe("new");
    const nullNew = normalizeCompletion(completion({ reasoning: null, reasoning_content: "old" }));
    expect(nullNew.choices[0]!.message.reasoning).toBe("old");
  });

  it("adds nothing when neither name is there", () => {
    const c = normalizeCompletion(completion({}));
    expect("reasoning" in c.choices[0]!.message).toBe(false);
  });

  it("handles every choice and a missing choices array", () => {
    const c = completion({ reasoning_content: "a" });
    c.choices.push({
      index: 1,
      message: { role: "assistant", content: "x", reasoning_content: "b" },
      finish_reason: "stop",
    });
    normalizeCompletion(c);
    expect(c.choices.map((ch) => ch.message.reasoning)).toEqual(["a", "b"]);
    expect(() => normalizeCompletion({} as ChatCompletion)).not.toThrow();
  });
});

describe("normalizeChunk", () => {
  it("copies reasoning_content to reasoning on the delta", () => {
    const chunk: ChatCompletionChunk = {
      id: "c",
      object: "chat.completion.chunk",
      created: 0,
      model: "m",
      choices: [{ index: 0, delta: { reasoning_content: "hmm" }, finish_reason: null }],
    };
    expect(normalizeChunk(chunk)).toBe(chunk);
    expect(chunk.choices[0]!.delta).toStrictEqual({ reasoning_content: "hmm", reasoning: "hmm" });
  });

  it("accepts the final usage chunk with no choices", () => {
    const chunk = {
      id: "c",
      object: "chat.completion.chunk",
      created: 0,
      model: "m",
      choices: [],
    } satisfies ChatCompletionChunk;
    expect(normalizeChunk(chunk)).toStrictEqual(chunk);
  });
});

describe("normalizeReasoning", () => {
  it("works on a bare message", () => {
    expect(normalizeReasoning({ reasoning_content: "x" })).toStrictEqual({ reasoning_content: "x", reasoning: "x" });
  });
});

describe("response types", () => {
  it("finish_reason is an open union and unknown fields are typed as kept", () => {
    const reasons: ChatCompletionFinishReason[] = ["stop", "abort", "repetition", "something_new"];
    const c = completion({});
    c.choices[0]!.stop_reason = "</answer>";
    c.choices[0]!.stop_reason = 151645;
    const extra: unknown = c.ec_transfer_params;
    expect([reasons.length, extra]).toEqual([4, undefined]);
  });
});

describe("a reply sent back", () => {
  it("type-checks as a message param", () => {
    const c = completion({ tool_calls: [{ id: "1", type: "function", function: { name: "f", arguments: "{}" } }] });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Hi" }, c.choices[0]!.message];
    expect(messages).toHaveLength(2);
  });
});

describe("responses typed as vLLM sends them", () => {
  // A non-streamed reply as current vLLM writes it: every optional field present, null when
  // unset, plus the newer fields the spec lacks and one unknown field.
  const body = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m",
    "choices":[{"index":0,"message":{"role":"assistant","content":"4","refusal":null,"annotations":null,
      "audio":null,"function_call":null,"tool_calls":[],"reasoning":null},"logprobs":null,
      "finish_reason":"stop","stop_reason":null,"token_ids":null,"routed_experts":[[[1,2]],[[3,0]]]}],
    "service_tier":null,"system_fingerprint":null,"usage":{"prompt_tokens":1,"total_tokens":2,"completion_tokens":1,
      "prompt_tokens_details":null},"prompt_logprobs":null,"prompt_token_ids":null,"prompt_text":null,
    "kv_transfer_params":null,"ec_transfer_params":null,"metrics":null,"future_field":{"kept":true}}`;

  it("reads nulls, the newer fields and unknown fields without loss", () => {
    const c = normalizeCompletion(JSON.parse(body) as ChatCompletion);
    expect(c.ec_transfer_params).toBeNull();
    expect(c.metrics).toBeNull();
    expect(c.prompt_text).toBeNull();
    expect(c.choices[0]!.routed_experts).toEqual([[[1, 2]], [[3, 0]]]);
    expect(c.choices[0]!.message.annotations).toBeNull();
    expect(c.future_field).toEqual({ kept: true });
    expectTypeOf(c.choices[0]!.routed_experts).toEqualTypeOf<number[][][] | null | undefined>();
    expectTypeOf(c.ec_transfer_params).toEqualTypeOf<Record<string, unknown> | null | undefined>();
  });

  it("types annotations as vLLM declares it (one object) and as OpenAI sends it (a list)", () => {
    const one: ChatCompletion["choices"][number]["message"]["annotations"] = { type: "url_citation" };
    const many: ChatCompletion["choices"][number]["message"]["annotations"] = [{ type: "url_citation" }];
    expect([one, many]).toHaveLength(2);
  });
});
