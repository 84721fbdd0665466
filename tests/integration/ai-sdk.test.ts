/**
 * `inferloop/ai-sdk` with the real `ai` package over real HTTP to the fake service: generateText,
 * streamText, structured output, a multi-step tool loop, abort, errors (typed, never retried on
 * top of the client's retries), providerOptions checked before sending, and capture. Every test
 * runs on both majors of the AI SDK: `ai` 7 with `inferloop/ai-sdk` (specification v4), `ai` 6
 * (the `ai6` alias) with `inferloop/ai-sdk/v3`, and `ai` 7 with the v3 models too, which it
 * takes as well.
 */
import * as ai7 from "ai";
import * as ai6 from "ai6";
import { describe, expect, it } from "vitest";
import { createInferloopProvider as createV4, type InferloopProviderMetadata } from "../../src/ai-sdk/index.js";
import { createInferloopProvider as createV3 } from "../../src/ai-sdk/v3.js";
import {
  type ChatCompletionChoice,
  captureTrajectory,
  RateLimitError,
  RequestValidationError,
} from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { caught, clientFor, MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

const chatRequests = () => fake.svc.requests.filter((r) => r.path === "/v1/chat/completions");
const lastBody = () => chatRequests().at(-1)!.json as Record<string, unknown>;
const metaOf = (m: unknown) => (m as { inferloop: InferloopProviderMetadata }).inferloop;

// The bodies below are written against `ai` 7's types. `ai` 6 takes the same options at run time
// (its own types are checked where a user meets them: the consumer projects of tests/package);
// its v3 call has no reasoning setting, which goes through providerOptions there instead.
const MAJORS = [
  {
    name: "ai 7, inferloop/ai-sdk (v4)",
    ai: ai7,
    createInferloopProvider: createV4,
    reasoning: (effort: "low" | "high") => ({ reasoning: effort }),
  },
  {
    name: "ai 6, inferloop/ai-sdk/v3",
    ai: ai6 as unknown as typeof ai7,
    createInferloopProvider: createV3 as unknown as typeof createV4,
    reasoning: (effort: "low" | "high") => ({ providerOptions: { inferloop: { reasoning_effort: effort } } }),
  },
  {
    name: "ai 7, inferloop/ai-sdk/v3",
    ai: ai7,
    createInferloopProvider: createV3 as unknown as typeof createV4,
    reasoning: (effort: "low" | "high") => ({ providerOptions: { inferloop: { reasoning_effort: effort } } }),
  },
];

describe.each(MAJORS)("$name", ({ ai, createInferloopProvider, reasoning }) => {
  const { generateText, jsonSchema, Output, stepCountIs, streamText, tool } = ai;

  const weatherTools = {
    get_weather: tool({
      description: "Current weather in a city",
      inputSchema: jsonSchema<{ city: string }>({
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      }),
      execute: async ({ city }) => ({ city, celsius: 21 }),
    }),
  };

  describe("generateText", () => {
    it("returns the reply, usage, finish reason and vLLM's extras, as the client got them", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const result = await generateText({
        model: inferloop(MODEL),
        prompt: "echo Hello there.",
        maxRetries: 0,
        providerOptions: { inferloop: { top_k: 20, logprobs: true, top_logprobs: 2, return_token_ids: true } },
      });
      const direct = await fake.client.chat.completions
        .create({
          model: MODEL,
          messages: [{ role: "user", content: "echo Hello there." }],
          top_k: 20,
          logprobs: true,
          top_logprobs: 2,
          return_token_ids: true,
        })
        .withResponse();
      const choice = direct.data.choices[0]!;

      expect(result.text).toBe("Hello there.");
      expect(result.finishReason).toBe("stop");
      expect(result.usage.inputTokens).toBe(direct.data.usage!.prompt_tokens);
      expect(result.usage.outputTokens).toBe(direct.data.usage!.completion_tokens);
      const meta = metaOf(result.providerMetadata);
      expect(meta.logprobs).toEqual(choice.logprobs!.content);
      expect(meta.logprobs!.length).toBeGreaterThan(0);
      expect(meta.token_ids).toEqual(choice.token_ids);
      expect(meta.prompt_token_ids).toEqual(direct.data.prompt_token_ids);
      expect(meta.finish_reason).toBe("stop");
      expect(meta.id).toMatch(/^chatcmpl-/);
      expect(meta.request_id).toBe(chatRequests()[0]!.headers["x-request-id"] ?? meta.request_id);
      expect(meta.request_id).toEqual(expect.any(String));
      expect(result.response.id).toBe(meta.id);

      const sent = chatRequests()[0]!.json as Record<string, unknown>;
      expect(sent).toMatchObject({ model: MODEL, top_k: 20, logprobs: true, top_logprobs: 2, return_token_ids: true });
      expect(sent).not.toHaveProperty("stream");
    });

    it("maps the AI SDK's settings to vLLM's fields and warns of what vLLM cannot take", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const result = await generateText({
        model: inferloop(MODEL),
        system: "Be brief.",
        prompt: "echo one two three",
        maxOutputTokens: 2,
        temperature: 0.5,
        topP: 0.9,
        topK: 5,
        seed: 7,
        stopSequences: ["zzz"],
        maxRetries: 0,
      });
      expect(lastBody()).toMatchObject({
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "echo one two three" },
        ],
        max_completion_tokens: 2,
        temperature: 0.5,
        top_p: 0.9,
        top_k: 5,
        seed: 7,
        stop: ["zzz"],
      });
      expect(result.finishReason).toBe("length");
      expect(metaOf(result.providerMetadata).finish_reason).toBe("length");
      expect(result.usage.outputTokens).toBe(2);
    });

    it("sends the reasoning effort as reasoning_effort and gives the reasoning as its own part", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const result = await generateText({ model: inferloop(MODEL), prompt: "Hi", ...reasoning("low"), maxRetries: 0 });
      expect(lastBody()["reasoning_effort"]).toBe("low");
      const direct = await fake.client.chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: "Hi" }],
        reasoning_effort: "low",
      });
      expect(result.reasoningText).toBe(direct.choices[0]!.message.reasoning);
      expect(result.reasoningText!.length).toBeGreaterThan(0);
      expect(result.text).toBe(direct.choices[0]!.message.content);
    });
  });

  describe("streamText", () => {
    it("streams the text, asks for usage, and joins the stream's logprobs and token ids in order", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const result = streamText({
        model: inferloop(MODEL),
        prompt: "Tell me something",
        maxRetries: 0,
        providerOptions: { inferloop: { logprobs: true, return_token_ids: true } },
      });
      let streamed = "";
      for await (const delta of result.textStream) streamed += delta;
      const sent = lastBody();
      expect(sent).toMatchObject({ stream: true, stream_options: { include_usage: true } });

      const direct = await fake.client.chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: "Tell me something" }],
        logprobs: true,
        return_token_ids: true,
      });
      const choice = direct.choices[0]!;
      expect(streamed).toBe(choice.message.content);
      expect(await result.finishReason).toBe("stop");
      const usage = await result.usage;
      expect(usage.inputTokens).toBe(direct.usage!.prompt_tokens);
      expect(usage.outputTokens).toBe(direct.usage!.completion_tokens);
      const meta = metaOf(await result.providerMetadata);
      expect(meta.logprobs).toEqual(choice.logprobs!.content);
      expect(meta.token_ids).toEqual(choice.token_ids);
      expect(meta.prompt_token_ids).toEqual(direct.prompt_token_ids);
      expect(meta.finish_reason).toBe("stop");
      expect(meta.request_id).toEqual(expect.any(String));
      expect(meta.id).toMatch(/^chatcmpl-/);
    });

    it("streams reasoning before the text", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const result = streamText({ model: inferloop(MODEL), prompt: "Hi", ...reasoning("high"), maxRetries: 0 });
      const kinds: string[] = [];
      for await (const part of result.fullStream)
        if (part.type === "reasoning-delta" || part.type === "text-delta") {
          if (kinds.at(-1) !== part.type) kinds.push(part.type);
        }
      expect(kinds).toEqual(["reasoning-delta", "text-delta"]);
      expect((await result.reasoningText)!.length).toBeGreaterThan(0);
    });

    it("reports a stream cut off before [DONE] as the client's typed error", async () => {
      fake.svc.inject(faults.cutStream(2, { path: "/v1/chat/completions" }));
      const inferloop = createInferloopProvider({ client: fake.client });
      const errors: unknown[] = [];
      const result = streamText({
        model: inferloop(MODEL),
        prompt: "Tell me something",
        maxRetries: 0,
        onError: ({ error }) => {
          errors.push(error);
        },
      });
      for await (const _ of result.textStream);
      expect(errors).toHaveLength(1);
      expect((errors[0] as Error).name).toBe("APIConnectionError");
    });
  });

  describe("tools", () => {
    for (const mode of ["generateText", "streamText"] as const)
      it(`runs a multi-step tool loop with ${mode} (tool calls assembled by index)`, async () => {
        const inferloop = createInferloopProvider({ client: fake.client });
        const options = {
          model: inferloop(MODEL),
          prompt: "What does get_weather say for Paris?",
          tools: weatherTools,
          stopWhen: stepCountIs(3),
          maxRetries: 0,
        };
        const steps = mode === "generateText" ? (await generateText(options)).steps : await streamText(options).steps;
        expect(steps).toHaveLength(2);
        expect(steps[0]!.finishReason).toBe("tool-calls");
        expect(steps[0]!.toolCalls.map((c) => [c.toolName, c.input])).toEqual([["get_weather", { city: "Paris" }]]);
        expect(steps[1]!.text).toBe('The tool answered: {"city":"Paris","celsius":21}');

        const [first, second] = chatRequests().map((r) => r.json as Record<string, unknown>);
        expect(first!["tools"]).toEqual([
          {
            type: "function",
            function: {
              name: "get_weather",
              description: "Current weather in a city",
              parameters: expect.objectContaining({ type: "object", properties: { city: { type: "string" } } }),
            },
          },
        ]);
        const callId = steps[0]!.toolCalls[0]!.toolCallId;
        expect(second!["messages"]).toEqual([
          { role: "user", content: "What does get_weather say for Paris?" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: callId, type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            ],
          },
          { role: "tool", tool_call_id: callId, content: '{"city":"Paris","celsius":21}' },
        ]);
      });

    it("sends a named tool choice in vLLM's form", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      await generateText({
        model: inferloop(MODEL),
        prompt: "Weather?",
        tools: weatherTools,
        toolChoice: { type: "tool", toolName: "get_weather" },
        maxRetries: 0,
      });
      expect(chatRequests()[0]!.json).toMatchObject({
        tool_choice: { type: "function", function: { name: "get_weather" } },
      });
    });
  });

  describe("structured output", () => {
    const schema = jsonSchema<{ city: string; celsius: number }>({
      type: "object",
      properties: { city: { type: "string" }, celsius: { type: "integer" } },
      required: ["city", "celsius"],
      additionalProperties: false,
    });

    it('sends response_format json_schema (named "response" when unnamed) and parses the reply', async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const { output } = await generateText({
        model: inferloop(MODEL),
        prompt: 'echo {"city":"Paris","celsius":21}',
        output: Output.object({ schema }),
        maxRetries: 0,
      });
      expect(output).toEqual({ city: "Paris", celsius: 21 });
      const format = lastBody()["response_format"] as { type: string; json_schema: Record<string, unknown> };
      expect(format.type).toBe("json_schema");
      expect(format.json_schema["name"]).toBe("response");
      expect(format.json_schema["schema"]).toMatchObject({ type: "object", required: ["city", "celsius"] });
    });

    it("keeps the name the caller gave, streamed too", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const result = streamText({
        model: inferloop(MODEL),
        prompt: 'echo {"city":"Oslo","celsius":3}',
        output: Output.object({ schema, name: "weather" }),
        maxRetries: 0,
      });
      expect(await result.output).toEqual({ city: "Oslo", celsius: 3 });
      expect((lastBody()["response_format"] as { json_schema: { name: string } }).json_schema.name).toBe("weather");
    });
  });

  describe("providerOptions.inferloop", () => {
    it("refuses a misspelt field with a did-you-mean, before anything is sent", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const err = await caught(() =>
        generateText({ model: inferloop(MODEL), prompt: "Hi", providerOptions: { inferloop: { top_kk: 20 } } }),
      );
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).issues).toEqual([
        expect.objectContaining({
          path: "providerOptions.inferloop.top_kk",
          message: expect.stringContaining('did you mean "top_k"'),
        }),
      ]);
      expect(chatRequests()).toHaveLength(0);
    });

    it("refuses a bad value and n above 1, before anything is sent; streamed too", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const bad = await caught(() =>
        generateText({ model: inferloop(MODEL), prompt: "Hi", providerOptions: { inferloop: { top_logprobs: -1 } } }),
      );
      expect((bad as RequestValidationError).issues[0]!.path).toBe("providerOptions.inferloop.top_logprobs");
      const many = await caught(() =>
        generateText({ model: inferloop(MODEL), prompt: "Hi", providerOptions: { inferloop: { n: 2 } } }),
      );
      expect((many as RequestValidationError).issues[0]!.path).toBe("providerOptions.inferloop.n");
      const errors: unknown[] = [];
      const streamed = streamText({
        model: inferloop(MODEL),
        prompt: "Hi",
        providerOptions: { inferloop: { top_kk: 1 } },
        onError: ({ error }) => {
          errors.push(error);
        },
      });
      for await (const _ of streamed.textStream);
      expect(errors[0]).toBeInstanceOf(RequestValidationError);
      expect(chatRequests()).toHaveLength(0);
    });

    it("passes unknown fields through extraBody", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      await generateText({
        model: inferloop(MODEL),
        prompt: "Hi",
        maxRetries: 0,
        providerOptions: { inferloop: { min_p: 0.05, extraBody: { my_server_flag: true } } },
      });
      expect(lastBody()).toMatchObject({ min_p: 0.05, my_server_flag: true });
      expect(lastBody()).not.toHaveProperty("extraBody");
    });
  });

  describe("errors and retries", () => {
    it("a 429 is retried by the client only: maxRetries 1 and the AI SDK's 2 make two requests, not six", async () => {
      fake.svc.inject(faults.rateLimited({ path: "/v1/chat/completions", retryAfterMs: 1, times: 10 }));
      const inferloop = createInferloopProvider({ client: clientFor(fake.svc, { maxRetries: 1 }) });
      const err = await caught(() => generateText({ model: inferloop(MODEL), prompt: "Hi", maxRetries: 2 }));
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).status).toBe(429);
      expect(chatRequests()).toHaveLength(2);
    });

    it("the client's retries recover a failed try", async () => {
      fake.svc.inject(faults.serviceUnavailable({ path: "/v1/chat/completions" }));
      const inferloop = createInferloopProvider({ client: clientFor(fake.svc, { maxRetries: 2 }) });
      const { text } = await generateText({ model: inferloop(MODEL), prompt: "echo ok", maxRetries: 0 });
      expect(text).toBe("ok");
      expect(chatRequests()).toHaveLength(2);
    });

    it("abort ends the request with the client's abort error", async () => {
      fake.svc.inject(faults.stall({ path: "/v1/chat/completions", ms: 30_000 }));
      const inferloop = createInferloopProvider({ client: fake.client });
      const controller = new AbortController();
      const pending = generateText({
        model: inferloop(MODEL),
        prompt: "Hi",
        abortSignal: controller.signal,
        maxRetries: 0,
      });
      setTimeout(() => controller.abort(), 50);
      const err = await caught(() => pending);
      expect((err as Error).name).toBe("APIUserAbortError");
    });

    it("abort in the middle of a stream closes it", async () => {
      fake.svc.inject(faults.stall({ path: "/v1/chat/completions", afterChunks: 2, ms: 30_000 }));
      const inferloop = createInferloopProvider({ client: fake.client });
      const controller = new AbortController();
      const result = streamText({
        model: inferloop(MODEL),
        prompt: "Hi",
        abortSignal: controller.signal,
        maxRetries: 0,
      });
      let seen = "";
      for await (const delta of result.textStream) {
        seen += delta;
        controller.abort();
      }
      expect(seen.length).toBeGreaterThan(0);
    });
  });

  describe("capture", () => {
    it("records a generateText inside captureTrajectory like any other call", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const t = await captureTrajectory(async () => {
        const { text } = await generateText({ model: inferloop(MODEL), prompt: "echo captured", maxRetries: 0 });
        return text === "captured" ? 1 : 0;
      });
      expect(t.reward).toBe(1);
      expect(t.messages_and_choices).toHaveLength(2);
      expect(t.messages_and_choices[0]).toEqual({ role: "user", content: "echo captured" });
      expect((t.messages_and_choices[1] as ChatCompletionChoice).message.content).toBe("captured");
    });

    it("records a streamed tool loop as one conversation", async () => {
      const inferloop = createInferloopProvider({ client: fake.client });
      const t = await captureTrajectory(async () => {
        const result = streamText({
          model: inferloop(MODEL),
          prompt: "What does get_weather say for Paris?",
          tools: weatherTools,
          stopWhen: stepCountIs(3),
          maxRetries: 0,
        });
        return (await result.text).length > 0 ? 1 : 0;
      });
      expect(t.additional_histories).toEqual([]);
      expect(t.messages_and_choices.map((m) => ("role" in m ? m.role : "choice"))).toEqual([
        "user",
        "choice",
        "tool",
        "choice",
      ]);
    });
  });
});
