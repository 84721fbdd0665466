/**
 * Plain (non-streamed) chat generation over real HTTP against the fake service, with the
 * default undici transport: typed replies, options honoured by the server, the exact body on
 * the wire, response info, client-side validation that sends nothing, and structured parsing.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BadRequestError,
  type ChatCompletion,
  type ChatCompletionCreateParamsNonStreaming,
  type ChatCompletionMessageParam,
  ContentParseError,
  NotFoundError,
  RequestValidationError,
  zodResponseFormat,
} from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { caught, MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

const user = (content: string) => [{ role: "user" as const, content }];

describe("chat.completions.create", () => {
  it("returns a typed ChatCompletion whose content is the echo text", async () => {
    const completion: ChatCompletion = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("echo Hello there, world!"),
    });
    expect(completion.object).toBe("chat.completion");
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe(MODEL);
    expect(typeof completion.created).toBe("number");
    expect(completion.choices).toHaveLength(1);
    const [choice] = completion.choices;
    expect(choice!.index).toBe(0);
    expect(choice!.message.role).toBe("assistant");
    expect(choice!.message.content).toBe("Hello there, world!");
    expect(choice!.finish_reason).toBe("stop");
    const usage = completion.usage!;
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    // Sent once, with the Bearer key, to the spec's path.
    expect(fake.svc.requests).toHaveLength(1);
    expect(fake.svc.requests[0]!.method).toBe("POST");
    expect(fake.svc.requests[0]!.path).toBe("/v1/chat/completions");
    expect(fake.svc.requests[0]!.headers.authorization).toBe(`Bearer ${fake.svc.apiKey}`);
    expect(fake.svc.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  it("n=2 gives two choices, by index", async () => {
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("echo two of us"),
      n: 2,
    });
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1]);
    for (const c of completion.choices) {
      expect(c.message.content).toBe("two of us");
      expect(c.finish_reason).toBe("stop");
    }
  });

  it("max_completion_tokens cuts the reply with finish_reason length", async () => {
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("echo one two three four five"),
      max_completion_tokens: 2,
    });
    expect(completion.choices[0]!.finish_reason).toBe("length");
    expect(completion.choices[0]!.message.content).toBe("one two");
    expect(completion.usage!.completion_tokens).toBe(2);
  });

  it("logprobs with top_logprobs come back per token", async () => {
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("echo alpha beta gamma"),
      logprobs: true,
      top_logprobs: 3,
    });
    const choice = completion.choices[0]!;
    const content = choice.logprobs!.content!;
    expect(content.length).toBe(completion.usage!.completion_tokens);
    expect(content.map((t) => t.token).join("")).toBe("alpha beta gamma");
    for (const t of content) {
      expect(typeof t.logprob).toBe("number");
      expect(t.logprob).toBeLessThanOrEqual(0);
      expect(t.top_logprobs).toHaveLength(3);
      expect(t.top_logprobs![0]!.token).toBe(t.token);
    }
  });

  it("return_token_ids gives the completion and prompt token ids", async () => {
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("echo count my tokens"),
      return_token_ids: true,
    });
    const ids = completion.choices[0]!.token_ids!;
    expect(ids).toHaveLength(completion.usage!.completion_tokens);
    expect(ids.every((id) => Number.isInteger(id))).toBe(true);
    expect(completion.prompt_token_ids).toHaveLength(completion.usage!.prompt_tokens);
  });

  it("reads reasoning from a reasoning model", async () => {
    const completion = await fake.client.chat.completions.create({
      model: "deepseek-ai/DeepSeek-R1-reasoning",
      messages: user("echo the answer"),
    });
    const message = completion.choices[0]!.message;
    expect(message.content).toBe("the answer");
    expect(typeof message.reasoning).toBe("string");
    expect(message.reasoning!.length).toBeGreaterThan(0);
  });

  it("reads reasoning_content (the older name) into reasoning, keeping the original key and unknown fields", async () => {
    fake.svc.inject(
      faults.body(
        JSON.stringify({
          id: "chatcmpl-raw",
          object: "chat.completion",
          created: 1,
          model: MODEL,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: "4", reasoning_content: "2+2 is 4" },
              finish_reason: "stop",
              logprobs: null,
            },
          ],
          usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
          extra_server_field: { kept: true },
        }),
        { path: "/v1/chat/completions" },
      ),
    );
    const completion = await fake.client.chat.completions.create({ model: MODEL, messages: user("what is 2+2?") });
    const message = completion.choices[0]!.message;
    expect(message.reasoning).toBe("2+2 is 4");
    expect(message.reasoning_content).toBe("2+2 is 4");
    expect(message.content).toBe("4");
    expect((completion as unknown as Record<string, unknown>).extra_server_field).toEqual({ kept: true });
  });

  it("returns tool calls with parsed-able arguments (tool_choice auto)", async () => {
    const completion = await fake.client.chat.completions.create({
      tool_choice: "auto",
      model: MODEL,
      messages: user("Please call get_weather for Paris"),
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather of a city",
            parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
          },
        },
      ],
    });
    expect((fake.svc.requests[0]!.json as { tool_choice: unknown }).tool_choice).toBe("auto");
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    const calls = choice.message.tool_calls!;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.type).toBe("function");
    expect(typeof calls[0]!.id).toBe("string");
    expect(calls[0]!.function.name).toBe("get_weather");
    expect(JSON.parse(calls[0]!.function.arguments)).toEqual({ city: "Paris", days: 42 });
  });

  it("continue_final_message alone sends add_generation_prompt: false, and the server accepts it", async () => {
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "user", content: "Tell me a story" },
        { role: "assistant", content: "Once upon a time" },
      ],
      continue_final_message: true,
    });
    const body = fake.svc.requests[0]!.json as Record<string, unknown>;
    expect(body.continue_final_message).toBe(true);
    expect(body.add_generation_prompt).toBe(false);
    // The continued message keeps its role.
    expect(completion.choices[0]!.message.role).toBe("assistant");
  });

  it("sends exactly what the caller set: no defaults, no undefined keys", async () => {
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: MODEL,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "echo exact body" }] },
      ],
      temperature: 0.5,
      top_p: null,
      seed: 7,
      stop: ["\n\n"],
      max_completion_tokens: 50,
      logit_bias: { "42": -1 },
      user: null,
      engine_xargs: { mode: "fast", ids: [1, 2] },
      chat_template_kwargs: { enable_thinking: false },
    };
    const before = structuredClone(params);
    await fake.client.chat.completions.create(params);
    expect(fake.svc.requests[0]!.json).toStrictEqual(params);
    // The caller's object is left alone.
    expect(params).toStrictEqual(before);

    // An explicit `undefined` is not a value: the key is not sent at all.
    await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("echo x"),
      temperature: undefined,
      n: undefined,
    });
    const raw = fake.svc.requests[1]!.body;
    expect(raw).not.toContain("temperature");
    expect(raw).not.toContain('"n"');
    expect(fake.svc.requests[1]!.json).toStrictEqual({ model: MODEL, messages: user("echo x") });
  });

  it(".withResponse() gives status, headers and the request id", async () => {
    const { data, response } = await fake.client.chat.completions
      .create({ model: MODEL, messages: user("echo hi") })
      .withResponse();
    expect(data.choices[0]!.message.content).toBe("hi");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.requestId).toMatch(/^req-/);
    expect(response.requestId).toBe(response.headers.get("x-request-id"));
  });

  it("maps server refusals to the APIError subclasses", async () => {
    const unknownModel = await caught(() =>
      fake.client.chat.completions.create({ model: "no/such-model", messages: user("hi") }),
    );
    expect(unknownModel).toBeInstanceOf(NotFoundError);
    expect((unknownModel as NotFoundError).status).toBe(404);

    // Accepted by the client, refused by the server (priority scheduling is off).
    const priority = await caught(() =>
      fake.client.chat.completions.create({ model: MODEL, messages: user("hi"), priority: 5 }),
    );
    expect(priority).toBeInstanceOf(BadRequestError);
    expect((priority as BadRequestError).requestId).toMatch(/^req-/);
  });
});

describe("invalid requests are refused before anything is sent", () => {
  const ok = { model: MODEL, messages: user("hi") };
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["messages missing", { model: MODEL }, "messages"],
    ["messages empty", { ...ok, messages: [] }, "messages"],
    ["messages not an array", { ...ok, messages: "hi" }, "messages"],
    ["role not a string", { ...ok, messages: [{ role: 5, content: "x" }] }, "messages.0.role"],
    ["user content a number", { ...ok, messages: [{ role: "user", content: 5 }] }, "messages.0.content"],
    [
      "unknown content part type",
      { ...ok, messages: [{ role: "user", content: [{ type: "audio" }] }] },
      "messages.0.content.0.type",
    ],
    [
      "image part without url",
      { ...ok, messages: [{ role: "user", content: [{ type: "image_url", image_url: {} }] }] },
      "messages.0.content.0.image_url.url",
    ],
    ["tools empty", { ...ok, tools: [] }, "tools"],
    ["tool message content null", { ...ok, messages: [{ role: "tool", content: null }] }, "messages.0.content"],
    [
      "second message broken",
      {
        ...ok,
        messages: [
          { role: "user", content: "a" },
          { role: "system", content: 5 },
        ],
      },
      "messages.1.content",
    ],
    ["model not a string", { ...ok, model: 5 }, "model"],
    ["temperature not a number", { ...ok, temperature: "hot" }, "temperature"],
    ["n zero", { ...ok, n: 0 }, "n"],
    ["n fractional", { ...ok, n: 1.5 }, "n"],
    ["seed above int64", { ...ok, seed: 2 ** 64 }, "seed"],
    ["seed fractional", { ...ok, seed: 1.5 }, "seed"],
    ["truncate_prompt_tokens below -1", { ...ok, truncate_prompt_tokens: -2 }, "truncate_prompt_tokens"],
    ["tool_choice auto without tools", { ...ok, tool_choice: "auto" }, "tool_choice"],
    ["tool_choice required without tools", { ...ok, tool_choice: "required" }, "tool_choice"],
    ["reasoning_effort unknown", { ...ok, reasoning_effort: "extreme" }, "reasoning_effort"],
    [
      "continue_final_message with add_generation_prompt",
      { ...ok, continue_final_message: true, add_generation_prompt: true },
      "add_generation_prompt",
    ],
    ["stream_options without stream", { ...ok, stream_options: { include_usage: true } }, "stream_options"],
    [
      "typo inside stream_options",
      { ...ok, stream: true, stream_options: { include_usge: true } },
      "stream_options.include_usge",
    ],
    ["misspelt top-level field", { ...ok, max_completion_token: 5 }, "max_completion_token"],
    ["top_logprobs below -1", { ...ok, logprobs: true, top_logprobs: -2 }, "top_logprobs"],
    ["stop a list holding a number", { ...ok, stop: ["x", 1] }, "stop.1"],
    ["logit_bias value not a number", { ...ok, logit_bias: { "1": "a" } }, "logit_bias.1"],
    ["tool without a name", { ...ok, tools: [{ type: "function", function: {} }] }, "tools.0.function.name"],
    ["tool of another type", { ...ok, tools: [{ type: "retrieval", function: { name: "x" } }] }, "tools.0.type"],
    ["unknown response_format type", { ...ok, response_format: { type: "xml" } }, "response_format.type"],
    [
      "two structured_outputs constraints",
      { ...ok, structured_outputs: { regex: "a+", choice: ["b"] } },
      "structured_outputs",
    ],
    ["vllm_xargs value an object", { ...ok, vllm_xargs: { a: { b: 1 } } }, "vllm_xargs.a"],
    ["min_tokens negative", { ...ok, min_tokens: -1 }, "min_tokens"],
    ["prompt_logprobs below -1", { ...ok, prompt_logprobs: -2 }, "prompt_logprobs"],
    ["stop_token_ids not integers", { ...ok, stop_token_ids: ["a"] }, "stop_token_ids.0"],
    [
      "repetition_detection fractional",
      { ...ok, repetition_detection: { min_count: 1.5 } },
      "repetition_detection.min_count",
    ],
    ["stream not a boolean", { ...ok, stream: "yes" }, "stream"],
  ];

  it.each(cases)("%s → RequestValidationError at %s", async (_name, params, path) => {
    const sent = fake.svc.requests.length;
    const err = await caught(() => fake.client.chat.completions.create(params as never));
    expect(err).toBeInstanceOf(RequestValidationError);
    const issues = (err as RequestValidationError).issues;
    expect(issues.map((i) => i.path)).toContain(path);
    expect((err as Error).message).toContain(path);
    expect((err as Error).message).toContain("Nothing was sent");
    expect(fake.svc.requests.length).toBe(sent);
  });

  it("has at least 25 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  it("a misspelt field gets a suggestion", async () => {
    const err = (await caught(() =>
      fake.client.chat.completions.create({ ...ok, max_completion_token: 5 } as never),
    )) as RequestValidationError;
    expect(err.message).toContain('did you mean "max_completion_tokens"');
  });

  it("a streamed request is validated too, and .withResponse() rejects the same way", async () => {
    const err = await caught(() => fake.client.chat.completions.create({ ...ok, stream: true, n: 0 }));
    expect(err).toBeInstanceOf(RequestValidationError);
    const viaWithResponse = await caught(() => fake.client.chat.completions.create({ ...ok, n: 0 }).withResponse());
    expect(viaWithResponse).toBeInstanceOf(RequestValidationError);
    expect(fake.svc.requests).toHaveLength(0);
  });
});

describe("talking to vLLM as it is: names, extraBody and explicit defaults", () => {
  const sent = (i = 0) => fake.svc.requests[i]!.json as Record<string, unknown>;

  it("sends vllm_xargs and engine_xargs as written", async () => {
    await fake.client.chat.completions.create({ model: MODEL, messages: user("hi"), vllm_xargs: { ext: "on" } });
    await fake.client.chat.completions.create({ model: MODEL, messages: user("hi"), engine_xargs: { ext: "on" } });
    expect(sent(0).vllm_xargs).toEqual({ ext: "on" });
    expect(sent(0)).not.toHaveProperty("engine_xargs");
    expect(sent(1).engine_xargs).toEqual({ ext: "on" });
    expect(sent(1)).not.toHaveProperty("vllm_xargs");
  });

  it("merges extraBody after validation, unvalidated, overriding: per call over the client default", async () => {
    const withDefault = fake.client.withOptions({ extraBody: { session_id: "s-1", thinking_token_budget: 64 } });
    await withDefault.chat.completions.create(
      { model: MODEL, messages: user("hi"), temperature: 0.5 },
      { extraBody: { thinking_token_budget: 128, temperature: 0.2 } },
    );
    expect(sent()).toStrictEqual({
      model: MODEL,
      messages: user("hi"),
      temperature: 0.2,
      session_id: "s-1",
      thinking_token_budget: 128,
    });
  });

  it("an unknown field is refused with a did-you-mean and a pointer to extraBody, nothing sent", async () => {
    const err = await caught(() =>
      fake.client.chat.completions.create({ model: MODEL, messages: user("hi"), max_completion_token: 64 } as never),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as Error).message).toMatch(/did you mean "max_completion_tokens"\?\); .*extraBody/);
    expect(fake.svc.requests).toHaveLength(0);
  });

  it("an extraBody that is not a plain object is refused, nothing sent", async () => {
    const err = await caught(() =>
      fake.client.chat.completions.create({ model: MODEL, messages: user("hi") }, { extraBody: ["x"] as never }),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(fake.svc.requests).toHaveLength(0);
  });

  it("sends tools without tool_choice as written: vLLM (and the fake) then read it as auto", async () => {
    const tools = [{ type: "function" as const, function: { name: "get_weather" } }];
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user("Please call get_weather for Paris"),
      tools,
    });
    expect("tool_choice" in sent()).toBe(false);
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("runs a tool loop: a call, the tool's result, then a text answer", async () => {
    const tools = [
      {
        type: "function" as const,
        function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
      },
    ];
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "What is the weather in Paris?" }];
    const first = await fake.client.chat.completions.create({ model: MODEL, messages, tools, tool_choice: "auto" });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual({ city: "Paris" });
    messages.push(first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "18°C, sunny" });
    const second = await fake.client.chat.completions.create({ model: MODEL, messages, tools, tool_choice: "auto" });
    expect(second.choices[0]!.finish_reason).toBe("stop");
    expect(second.choices[0]!.message.content).toBe("The tool answered: 18°C, sunny");
  });

  it("accepts the forms vLLM accepts: stop string, nulls, custom roles, assistant null content, every effort", async () => {
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: null },
        { role: "ipython", content: "42" },
        { role: "user", content: "again" },
      ],
      stop: "\n\n",
      logit_bias: null,
      response_format: null,
      structured_outputs: null,
      reasoning_effort: "xhigh",
    });
    expect(completion.choices).toHaveLength(1);
    expect(sent().stop).toBe("\n\n");
    expect(sent().logit_bias).toBeNull();
  });
});

describe("chat.completions.parse", () => {
  const Pair = z.object({ a: z.number() });

  it("gives the reply parsed and typed by the zod schema", async () => {
    const completion = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user('echo {"a":1}'),
      response_format: zodResponseFormat(Pair, "pair"),
    });
    const parsed = completion.choices[0]!.message.parsed;
    expect(parsed).toEqual({ a: 1 });
    const a: number | undefined = parsed?.a;
    expect(a).toBe(1);
    // The schema went out as a json_schema response_format.
    const sent = fake.svc.requests[0]!.json as {
      response_format: { type: string; json_schema: { name: string; schema: unknown } };
    };
    expect(sent.response_format.type).toBe("json_schema");
    expect(sent.response_format.json_schema.name).toBe("pair");
    expect(sent.response_format.json_schema.schema).toMatchObject({ type: "object" });
  });

  it("rejects with ContentParseError when the reply does not match the schema", async () => {
    const err = await caught(() =>
      fake.client.chat.completions.parse({
        model: MODEL,
        messages: user('echo {"a":"one"}'),
        response_format: zodResponseFormat(Pair, "pair"),
      }),
    );
    expect(err).toBeInstanceOf(ContentParseError);
  });

  it("rejects with ContentParseError when the reply is not JSON", async () => {
    const err = await caught(() =>
      fake.client.chat.completions.parse({
        model: MODEL,
        messages: user("echo not json at all"),
        response_format: zodResponseFormat(Pair, "pair"),
      }),
    );
    expect(err).toBeInstanceOf(ContentParseError);
  });
});
