/**
 * `inferloop/ai-sdk/v3` beside `inferloop/ai-sdk`: a call in specification v3's forms (files as
 * bytes, base64 text or a URL; a tool result's `file-data`, `image-data`, `image-url` parts) sends
 * exactly what the same call in v4's forms sends, and the reply comes back the same, streamed or
 * not. The v3 calls are typed by `@ai-sdk/provider` 3 itself (the `@ai-sdk/provider-v3` alias).
 * That `ai` 6's `LanguageModel` type takes the model whichever `@ai-sdk/provider` a project has
 * is checked by tests/types/ai-sdk-v3.test-d.ts and on the packed package
 * (tests/package/ai-sdk-projects.test.ts).
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider-v3";
import { describe, expect, it } from "vitest";
import { createInferloopProvider as createV4 } from "../../src/ai-sdk/index.js";
import { createInferloopProvider as createV3 } from "../../src/ai-sdk/v3.js";
import { RequestValidationError } from "../../src/index.js";
import { chunk, completion, parts, type StubInit, stubClient } from "./replies.js";

/** The same reply behind a v3 model and a v4 model, and what each sent. */
function both(reply: unknown, init: StubInit = {}) {
  const v3 = stubClient(reply, init);
  const v4 = stubClient(reply, init);
  return {
    v3: createV3({ client: v3.client })("m"),
    v4: createV4({ client: v4.client })("m"),
    sent: { v3: v3.sent, v4: v4.sent },
  };
}

// A text file ("hi" in base64): vLLM takes it as a text part (it has no file part).
const note = "aGk=";
const png = new Uint8Array([137, 80, 78, 71]);

// One conversation in both forms: every place a file can be, every way v3 gives one.
const promptV3: LanguageModelV3Prompt = [
  { role: "system", content: "S" },
  {
    role: "user",
    content: [
      { type: "text", text: "Look" },
      { type: "file", mediaType: "image/png", data: png },
      { type: "file", mediaType: "image/jpeg", data: new URL("https://x.test/a.jpg") },
      { type: "file", mediaType: "audio/wav", data: "AAAA" },
      { type: "file", mediaType: "text/plain", filename: "a.txt", data: note },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "think" },
      { type: "text", text: "calling" },
      { type: "tool-call", toolCallId: "c1", toolName: "f", input: { a: 1 } },
      { type: "tool-call", toolCallId: "c2", toolName: "g", input: {} },
    ],
  },
  {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: "c1", toolName: "f", output: { type: "json", value: { r: 2 } } },
      {
        type: "tool-result",
        toolCallId: "c2",
        toolName: "g",
        output: {
          type: "content",
          value: [
            { type: "text", text: "chart:" },
            { type: "image-data", data: "iVBO", mediaType: "image/png" },
            { type: "image-url", url: "https://x.test/chart.png" },
            { type: "file-data", data: note, mediaType: "text/plain", filename: "r.txt" },
          ],
        },
      },
    ],
  },
];
const promptV4: LanguageModelV4Prompt = [
  { role: "system", content: "S" },
  {
    role: "user",
    content: [
      { type: "text", text: "Look" },
      { type: "file", mediaType: "image/png", data: { type: "data", data: png } },
      { type: "file", mediaType: "image/jpeg", data: { type: "url", url: new URL("https://x.test/a.jpg") } },
      { type: "file", mediaType: "audio/wav", data: { type: "data", data: "AAAA" } },
      { type: "file", mediaType: "text/plain", filename: "a.txt", data: { type: "data", data: note } },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "think" },
      { type: "text", text: "calling" },
      { type: "tool-call", toolCallId: "c1", toolName: "f", input: { a: 1 } },
      { type: "tool-call", toolCallId: "c2", toolName: "g", input: {} },
    ],
  },
  {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: "c1", toolName: "f", output: { type: "json", value: { r: 2 } } },
      {
        type: "tool-result",
        toolCallId: "c2",
        toolName: "g",
        output: {
          type: "content",
          value: [
            { type: "text", text: "chart:" },
            { type: "file", data: { type: "data", data: "iVBO" }, mediaType: "image/png" },
            { type: "file", data: { type: "url", url: new URL("https://x.test/chart.png") }, mediaType: "image/*" },
            { type: "file", data: { type: "data", data: note }, mediaType: "text/plain", filename: "r.txt" },
          ],
        },
      },
    ],
  },
];

// The settings both specifications share.
const settings = {
  maxOutputTokens: 64,
  temperature: 0.2,
  topP: 0.9,
  topK: 20,
  stopSequences: ["END"],
  seed: 7,
  responseFormat: { type: "json" as const, schema: { type: "object" as const, properties: {} } },
  tools: [{ type: "function" as const, name: "f", inputSchema: { type: "object" as const, properties: {} } }],
  toolChoice: { type: "tool" as const, toolName: "f" },
  headers: { "x-trace": "t1" },
  providerOptions: { inferloop: { logprobs: true, return_token_ids: true, reasoning_effort: "low" } },
};

describe("a v3 call", () => {
  it("sends what the same call in v4's forms sends: messages, files, tool results, settings, headers", async () => {
    const { v3, v4, sent } = both(completion({ content: "ok" }));
    await v3.doGenerate({ prompt: promptV3, ...settings } satisfies LanguageModelV3CallOptions);
    await v4.doGenerate({ prompt: promptV4, ...settings } satisfies LanguageModelV4CallOptions);
    expect(sent.v3[0]!.body).toEqual(sent.v4[0]!.body);
    expect(sent.v3[0]!.headers.get("x-trace")).toBe("t1");
    // What both sent, in vLLM's forms.
    expect((sent.v3[0]!.body["messages"] as unknown[]).slice(1, 2)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw==" } },
          { type: "image_url", image_url: { url: "https://x.test/a.jpg" } },
          { type: "input_audio", input_audio: { data: "AAAA", format: "wav" } },
          { type: "text", text: "hi" },
        ],
      },
    ]);
    expect((sent.v3[0]!.body["messages"] as unknown[]).at(-1)).toEqual({
      role: "tool",
      tool_call_id: "c2",
      content: [
        { type: "text", text: "chart:" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } },
        { type: "image_url", image_url: { url: "https://x.test/chart.png" } },
        { type: "text", text: "hi" },
      ],
    });
    expect(sent.v3[0]!.body).toMatchObject({ reasoning_effort: "low", top_k: 20, max_completion_tokens: 64 });
  });

  it("gets the same result: content, finish reason, usage, providerMetadata.inferloop, response", async () => {
    const reply = completion(
      {
        content: "4",
        reasoning_content: "2+2",
        tool_calls: [{ id: "t1", type: "function", function: { name: "f", arguments: '{"x":1}' } }],
      },
      {
        finish_reason: "tool_calls",
        stop_reason: 128001,
        token_ids: [4],
        logprobs: { content: [{ token: "4", logprob: -0.1 }] },
      },
      { prompt_token_ids: [1, 2], kv_transfer_params: { a: 1 } },
    );
    const { v3, v4 } = both(reply);
    const fromV3 = await v3.doGenerate({ prompt: promptV3 });
    const fromV4 = await v4.doGenerate({ prompt: promptV4 });
    expect(fromV3).toEqual(fromV4);
    expect(fromV3.content.map((p) => p.type)).toEqual(["reasoning", "text", "tool-call"]);
    expect(fromV3.finishReason).toEqual({ unified: "tool-calls", raw: "tool_calls" });
    expect(fromV3.providerMetadata?.["inferloop"]).toMatchObject({
      request_id: "req-1",
      stop_reason: 128001,
      token_ids: [4],
      prompt_token_ids: [1, 2],
      kv_transfer_params: { a: 1 },
    });
  });

  it("streams the same parts: reasoning, text, tool calls assembled, finish with the extras", async () => {
    const chunks = [
      chunk([{ index: 0, delta: { role: "assistant", reasoning: "hm" }, token_ids: [5] }], { prompt_token_ids: [1] }),
      chunk([{ index: 0, delta: { content: "Hi" }, token_ids: [6] }]),
      chunk([
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: "t1", type: "function", function: { name: "f", arguments: '{"x"' } }] },
        },
      ]),
      chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ":1}" } }] } }]),
      chunk([{ index: 0, delta: {}, finish_reason: "tool_calls", stop_reason: null }]),
      chunk([], { usage: { prompt_tokens: 2, completion_tokens: 5, total_tokens: 7 } }),
    ];
    const { v3, v4, sent } = both(chunks, { sse: true });
    const fromV3 = await parts((await v3.doStream({ prompt: promptV3, includeRawChunks: true })).stream);
    const fromV4 = await parts((await v4.doStream({ prompt: promptV4, includeRawChunks: true })).stream);
    expect(fromV3).toEqual(fromV4);
    expect(sent.v3[0]!.body).toEqual(sent.v4[0]!.body);
    expect(fromV3.filter((p) => p.type === "tool-call")).toEqual([
      { type: "tool-call", toolCallId: "t1", toolName: "f", input: '{"x":1}' },
    ]);
    const finish = fromV3.at(-1);
    expect(finish).toMatchObject({
      type: "finish",
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      providerMetadata: { inferloop: { token_ids: [5, 6], prompt_token_ids: [1] } },
    });
  });

  it("refuses, before sending, a file given by id, by provider reference as ai 7 hands one on, or by a URL that is none", async () => {
    const { v3, sent } = both(completion({ content: "ok" }));
    const byId = await v3
      .doGenerate({
        prompt: [
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "c",
                toolName: "f",
                output: { type: "content", value: [{ type: "image-file-id", fileId: "file-1" }] },
              },
            ],
          },
        ],
      })
      .catch((e: unknown) => e);
    expect(byId).toBeInstanceOf(RequestValidationError);
    expect((byId as RequestValidationError).message).toMatch(/provider reference cannot be sent to vLLM/);
    // `ai` 7 gives a v3 model a v4 file it has no v3 form for as it is.
    const reference = { type: "reference", reference: { openai: "file-1" } } as unknown as Uint8Array;
    const byReference = await v3
      .doGenerate({ prompt: [{ role: "user", content: [{ type: "file", mediaType: "image/png", data: reference }] }] })
      .catch((e: unknown) => e);
    expect((byReference as RequestValidationError).issues[0]!.path).toBe("prompt.0.content.0");
    const badURL = await v3
      .doGenerate({
        prompt: [
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "c",
                toolName: "f",
                output: { type: "content", value: [{ type: "file-url", url: "chart.png" }] },
              },
            ],
          },
        ],
      })
      .catch((e: unknown) => e);
    expect(badURL).toBeInstanceOf(RequestValidationError);
    expect((badURL as RequestValidationError).message).toMatch(/"chart\.png" is not a URL/);
    expect(sent.v3).toHaveLength(0);
  });
});

describe("the v3 provider", () => {
  it("is a callable v3 provider of language models only", () => {
    const { client } = stubClient(completion({ content: "ok" }));
    const inferloop = createV3({ client });
    expect(inferloop.specificationVersion).toBe("v3");
    const model = inferloop("m");
    expect(model.specificationVersion).toBe("v3");
    expect(model.modelId).toBe("m");
    expect(model.provider).toBe("inferloop.chat");
    expect(inferloop.languageModel("l").modelId).toBe("l");
    expect(inferloop.chatModel("c").modelId).toBe("c");
    expect(() => inferloop.embeddingModel("e")).toThrow(/language \(chat\) models only/);
    expect(() => inferloop("")).toThrow(/needs its id/);
  });
});
