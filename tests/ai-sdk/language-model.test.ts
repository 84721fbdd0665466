/**
 * The provider's mapping, against canned server replies (a `fetch` stub): the forms a real vLLM
 * sends that the fake service does not (`reasoning_content`, tool-call fragments of two indices
 * interleaved, arguments before the name, stop_reason, extras), prompts with files and history,
 * and what is refused or warned of before sending.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createInferloopProvider, type InferloopProviderMetadata } from "../../src/ai-sdk/index.js";
import { Inferloop, RequestValidationError } from "../../src/index.js";
import { chunk, completion, parts, type StubInit, stubClient } from "./replies.js";

function stub(reply: unknown, init: StubInit = {}) {
  const { client, sent } = stubClient(reply, init);
  return { model: createInferloopProvider({ client })("m"), sent };
}

const call = (extra: Partial<LanguageModelV4CallOptions> = {}): LanguageModelV4CallOptions => ({
  prompt: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
  ...extra,
});

describe("doGenerate", () => {
  it("reads reasoning_content (older vLLM) as reasoning, and keeps stop_reason and unknown extras", async () => {
    const { model } = stub(
      completion(
        { content: "4", reasoning_content: "2+2" },
        { finish_reason: "stop", stop_reason: 128001, routed_experts: [[[1, 2]]] },
        { kv_transfer_params: { a: 1 }, system_fingerprint: null },
      ),
    );
    const result = await model.doGenerate(call());
    expect(result.content).toEqual([
      { type: "reasoning", text: "2+2" },
      { type: "text", text: "4" },
    ]);
    const meta = result.providerMetadata!["inferloop"] as unknown as InferloopProviderMetadata;
    expect(meta).toEqual({
      id: "chatcmpl-1",
      request_id: "req-1",
      finish_reason: "stop",
      stop_reason: 128001,
      logprobs: null,
      token_ids: null,
      prompt_token_ids: null,
      prompt_logprobs: null,
      kv_transfer_params: { a: 1 },
      routed_experts: [[[1, 2]]],
    });
    expect(result.usage.inputTokens.total).toBe(3);
    expect(result.usage.outputTokens.total).toBe(4);
    expect(result.usage.inputTokens.cacheRead).toBeUndefined();
  });

  it("maps vLLM's finish reasons, keeping the raw one", async () => {
    for (const [raw, unified] of [
      ["tool_calls", "tool-calls"],
      ["length", "length"],
      ["abort", "other"],
      ["repetition", "other"],
    ] as const) {
      const { model } = stub(completion({ content: "x" }, { finish_reason: raw }));
      const result = await model.doGenerate(call());
      expect(result.finishReason).toEqual({ unified, raw });
    }
  });

  it("reads cached and reasoning token counts when the server sends them", async () => {
    const { model } = stub(
      completion(
        { content: "x" },
        {},
        {
          usage: {
            prompt_tokens: 10,
            completion_tokens: 6,
            total_tokens: 16,
            prompt_tokens_details: { cached_tokens: 4 },
            completion_tokens_details: { reasoning_tokens: 2 },
          },
        },
      ),
    );
    const { usage } = await model.doGenerate(call());
    expect(usage.inputTokens).toEqual({ total: 10, noCache: 6, cacheRead: 4, cacheWrite: undefined });
    expect(usage.outputTokens).toEqual({ total: 6, text: 4, reasoning: 2 });
  });

  it("sends history: reasoning back as `reasoning`, tool calls and results, files by media type", async () => {
    const { model, sent } = stub(completion({ content: "ok" }));
    await model.doGenerate(
      call({
        prompt: [
          { role: "system", content: "S" },
          {
            role: "user",
            content: [
              { type: "text", text: "Look" },
              { type: "file", mediaType: "image/png", data: { type: "data", data: new Uint8Array([1, 2, 3]) } },
              { type: "file", mediaType: "image/jpeg", data: { type: "url", url: new URL("https://x.test/a.jpg") } },
              { type: "file", mediaType: "audio/wav", data: { type: "data", data: "AAAA" } },
              { type: "file", mediaType: "text/plain", filename: "a.txt", data: { type: "data", data: "aGk=" } },
            ],
          },
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: "think" },
              { type: "text", text: "calling" },
              { type: "tool-call", toolCallId: "c1", toolName: "f", input: { a: 1 } },
            ],
          },
          {
            role: "tool",
            content: [
              { type: "tool-result", toolCallId: "c1", toolName: "f", output: { type: "json", value: { r: 2 } } },
            ],
          },
        ],
      }),
    );
    expect(sent[0]!.body["messages"]).toEqual([
      { role: "system", content: "S" },
      {
        role: "user",
        content: [
          { type: "text", text: "Look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AQID" } },
          { type: "image_url", image_url: { url: "https://x.test/a.jpg" } },
          { type: "input_audio", input_audio: { data: "AAAA", format: "wav" } },
          { type: "text", text: "hi" },
        ],
      },
      {
        role: "assistant",
        content: "calling",
        reasoning: "think",
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: '{"r":2}' },
    ]);
  });

  it("warns of provider-defined tools (not sent) and passes headers and the abort signal", async () => {
    const { model, sent } = stub(completion({ content: "ok" }));
    const result = await model.doGenerate(
      call({
        tools: [
          { type: "function", name: "f", inputSchema: { type: "object", properties: {} } },
          { type: "provider", id: "openai.web_search", name: "web_search", args: {} },
        ],
        toolChoice: { type: "required" },
        headers: { "x-trace": "t1", "x-gone": undefined },
      }),
    );
    expect(result.warnings).toEqual([
      expect.objectContaining({ type: "unsupported", feature: "provider-defined tool web_search" }),
    ]);
    expect(sent[0]!.body["tools"]).toEqual([
      { type: "function", function: { name: "f", parameters: { type: "object", properties: {} } } },
    ]);
    expect(sent[0]!.body["tool_choice"]).toBe("required");
    expect(sent[0]!.headers.get("x-trace")).toBe("t1");
    expect(sent[0]!.headers.has("x-gone")).toBe(false);
  });

  it("refuses what the AI SDK call sets itself, and n above 1, naming the key; nothing is sent", async () => {
    const { model, sent } = stub(completion({ content: "ok" }));
    const err = await model
      .doGenerate(call({ providerOptions: { inferloop: { model: "other", n: 3, extraBody: "x" } } }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues.map((i) => i.path)).toEqual([
      "providerOptions.inferloop.model",
      "providerOptions.inferloop.n",
      "providerOptions.inferloop.extraBody",
    ]);
    expect(sent).toHaveLength(0);
  });

  it.each([
    [
      "a PDF (vLLM's chat endpoint has no file part)",
      { type: "file", mediaType: "application/pdf", data: { type: "data", data: "JVBE" } },
      /no file part: send the document's text as a text part/,
    ],
    [
      "a file given by provider reference",
      { type: "file", mediaType: "image/png", data: { type: "reference", reference: { openai: "file-1" } } },
      /provider reference cannot be sent to vLLM/,
    ],
  ] as const)("refuses %s before sending, saying what to send instead", async (_name, part, message) => {
    const { model, sent } = stub(completion({ content: "ok" }));
    const err = await model
      .doGenerate(call({ prompt: [{ role: "user", content: [part as never] }] }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues[0]!.path).toBe("prompt.0.content.0");
    expect((err as Error).message).toMatch(message);
    expect(sent).toHaveLength(0);
  });
});

describe("doStream", () => {
  it("assembles interleaved tool-call fragments by index, whatever order they come in", async () => {
    const { model, sent } = stub(
      [
        chunk(
          [
            {
              index: 0,
              delta: {
                role: "assistant",
                tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "f", arguments: "" } }],
              },
            },
          ],
          {
            prompt_token_ids: [1, 2],
          },
        ),
        chunk([{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '{"y"' } }] } }]),
        chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"x":1}' } }] } }]),
        chunk([
          { index: 0, delta: { tool_calls: [{ index: 1, id: "b", function: { name: "g", arguments: ":2}" } }] } },
        ]),
        chunk([{ index: 0, delta: {}, finish_reason: "tool_calls", stop_reason: null }]),
        chunk([], { usage: { prompt_tokens: 2, completion_tokens: 5, total_tokens: 7 } }),
      ],
      { sse: true },
    );
    const result = await model.doStream(call());
    const all = await parts(result.stream);
    expect(sent[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(all.filter((p) => p.type === "tool-call")).toEqual([
      { type: "tool-call", toolCallId: "a", toolName: "f", input: '{"x":1}' },
      { type: "tool-call", toolCallId: "b", toolName: "g", input: '{"y":2}' },
    ]);
    const deltas = (id: string) =>
      all.flatMap((p) => (p.type === "tool-input-delta" && p.id === id ? [p.delta] : [])).join("");
    expect(deltas("a")).toBe('{"x":1}');
    expect(deltas("b")).toBe('{"y":2}');
    const finish = all.at(-1) as Extract<LanguageModelV4StreamPart, { type: "finish" }>;
    expect(finish.finishReason).toEqual({ unified: "tool-calls", raw: "tool_calls" });
    expect(finish.usage.outputTokens.total).toBe(5);
    expect((finish.providerMetadata!["inferloop"] as unknown as InferloopProviderMetadata).prompt_token_ids).toEqual([
      1, 2,
    ]);
  });

  it("streams reasoning_content deltas as reasoning and closes each block before the next", async () => {
    const { model } = stub(
      [
        chunk([
          {
            index: 0,
            delta: { reasoning_content: "hm" },
            logprobs: { content: [{ token: "hm", logprob: -1 }] },
            token_ids: [5],
          },
        ]),
        chunk([
          { index: 0, delta: { content: "Hi" }, logprobs: { content: [{ token: "Hi", logprob: -2 }] }, token_ids: [6] },
        ]),
        chunk([{ index: 0, delta: {}, finish_reason: "stop", stop_reason: "</s>" }]),
      ],
      { sse: true },
    );
    const all = await parts((await model.doStream(call({ includeRawChunks: true }))).stream);
    expect(all.filter((p) => p.type !== "raw").map((p) => p.type)).toEqual([
      "stream-start",
      "response-metadata",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "text-end",
      "finish",
    ]);
    expect(all.filter((p) => p.type === "raw")).toHaveLength(3);
    const meta = (all.at(-1) as unknown as { providerMetadata: { inferloop: InferloopProviderMetadata } })
      .providerMetadata.inferloop;
    expect(meta.logprobs).toEqual([
      { token: "hm", logprob: -1 },
      { token: "Hi", logprob: -2 },
    ]);
    expect(meta.token_ids).toEqual([5, 6]);
    expect(meta.stop_reason).toBe("</s>");
    expect(meta.request_id).toBe("req-1");
    expect(meta.id).toBe("chatcmpl-2");
  });

  it("keeps the caller's stream_options beside include_usage", async () => {
    const { model, sent } = stub([chunk([{ index: 0, delta: {}, finish_reason: "stop" }])], { sse: true });
    await parts(
      (
        await model.doStream(
          call({ providerOptions: { inferloop: { stream_options: { continuous_usage_stats: true } } } }),
        )
      ).stream,
    );
    expect(sent[0]!.body["stream_options"]).toEqual({ include_usage: true, continuous_usage_stats: true });
  });
});

describe("cancelling the AI SDK's stream", () => {
  it("closes the HTTP response and reports nothing after", async () => {
    let bodyCancelled = false;
    const first = `data: ${JSON.stringify(chunk([{ index: 0, delta: { content: "Hi" } }]))}\n\n`;
    const client = new Inferloop({
      baseURL: "http://vllm.test",
      apiKey: "k",
      maxRetries: 0,
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(first));
            },
            cancel() {
              bodyCancelled = true;
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    });
    const { stream } = await createInferloopProvider({ client })("m").doStream(call());
    const reader = stream.getReader();
    const seen: string[] = [];
    for (;;) {
      const { value } = await reader.read();
      seen.push(value!.type);
      if (value!.type === "text-delta") break;
    }
    await reader.cancel();
    expect(seen).toEqual(["stream-start", "response-metadata", "text-start", "text-delta"]);
    expect(bodyCancelled).toBe(true);
  });
});

describe("the provider", () => {
  it("is callable and a v4 provider of language models only", () => {
    const client = new Inferloop({ baseURL: "http://vllm.test", apiKey: "k" });
    const inferloop = createInferloopProvider({ client });
    expect(inferloop.specificationVersion).toBe("v4");
    const model = inferloop("m");
    expect(model.specificationVersion).toBe("v4");
    expect(model.modelId).toBe("m");
    expect(model.provider).toBe("inferloop.chat");
    expect(inferloop.languageModel("m").modelId).toBe("m");
    expect(() => inferloop.embeddingModel("e")).toThrow(/language \(chat\) models only/);
  });

  it("takes client options, or a client with options changed", async () => {
    const seen: string[] = [];
    const fetch = async (url: string | URL | Request) => {
      seen.push(String(url));
      return new Response(JSON.stringify(completion({ content: "ok" })), {
        headers: { "content-type": "application/json" },
      });
    };
    const own = createInferloopProvider({ baseURL: "http://one.test", apiKey: "k", fetch })("m");
    await own.doGenerate(call());
    const client = new Inferloop({ baseURL: "http://two.test", apiKey: "k", fetch });
    const changed = createInferloopProvider({ client, baseURL: "http://three.test" })("m");
    await changed.doGenerate(call());
    expect(seen).toEqual(["http://one.test/v1/chat/completions", "http://three.test/v1/chat/completions"]);
  });
});
