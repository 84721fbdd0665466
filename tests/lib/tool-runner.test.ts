/**
 * runTools against a scripted model (a `fetch` that answers each chat request with the next
 * scripted reply and keeps the request bodies): the loop, the tool messages the model gets for
 * each kind of call, parallel and sequential tools, the iteration limit, errors and aborts.
 */
import { type } from "arktype";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  APIUserAbortError,
  type ChatCompletion,
  Inferloop,
  RequestValidationError,
  ToolRun,
  ToolRunLimitError,
  tool,
} from "../../src/index.js";

type Call = { name: string; arguments: string; id?: string };
type Reply = { calls?: Call[]; text?: string; usage?: [number, number] };

function completion(reply: Reply, n: number): ChatCompletion {
  const calls = reply.calls?.map((c, i) => ({
    id: c.id ?? `call_${n}_${i}`,
    type: "function" as const,
    function: { name: c.name, arguments: c.arguments },
  }));
  const [prompt, completionTokens] = reply.usage ?? [10, 5];
  return {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [
      {
        index: 0,
        finish_reason: calls ? "tool_calls" : "stop",
        message: { role: "assistant", content: reply.text ?? null, ...(calls ? { tool_calls: calls } : {}) },
      },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens },
  } as ChatCompletion;
}

function scripted(replies: Reply[]) {
  const bodies: Array<{ messages: Array<Record<string, unknown>>; tools?: unknown[]; [k: string]: unknown }> = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)));
    const reply = replies[bodies.length - 1] ?? { text: "done" };
    return new Response(JSON.stringify(completion(reply, bodies.length)), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  const client = new Inferloop({ baseURL: "http://model.test", apiKey: "k", fetch, maxRetries: 0 });
  return { client, bodies };
}

const user = (content: string) => [{ role: "user" as const, content }];
const add = tool({
  name: "add",
  description: "Adds two numbers",
  parameters: z.object({ a: z.number(), b: z.number() }),
  run: ({ a, b }) => a + b,
});

describe("tool()", () => {
  it("sends the schema's JSON Schema as function.parameters, and nothing of the code", () => {
    expect(JSON.parse(JSON.stringify(add))).toEqual({
      type: "function",
      function: {
        name: "add",
        description: "Adds two numbers",
        parameters: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      },
    });
    expectTypeOf(add.run).parameter(0).toEqualTypeOf<{ a: number; b: number }>();
  });

  it("takes ArkType and plain JSON Schema too; refuses a schema that cannot describe itself", () => {
    const ark = tool({ name: "ark", parameters: type({ city: "string" }), run: ({ city }) => city });
    expect(ark.function.parameters).toMatchObject({ type: "object", properties: { city: { type: "string" } } });
    const json = tool<{ q: string }>({ name: "search", parameters: { type: "object" }, run: ({ q }) => q });
    expect(json.function.parameters).toEqual({ type: "object" });
    const noJsonSchema = { "~standard": { version: 1, vendor: "x", validate: (v: unknown) => ({ value: v }) } };
    expect(() => tool({ name: "x", parameters: noJsonSchema as never, run: () => 1 })).toThrow(/JSON Schema/);
  });
});

describe("runTools", () => {
  it("loops until a reply makes no tool call; done() has every message, reply, the summed usage and iterations", async () => {
    const { client, bodies } = scripted([
      { calls: [{ name: "add", arguments: '{"a":2,"b":3}' }], usage: [10, 4] },
      { calls: [{ name: "add", arguments: '{"a":5,"b":1}' }], usage: [20, 6] },
      { text: "6", usage: [30, 1] },
    ]);
    const run = client.chat.completions.runTools({ model: "m", messages: user("2+3+1?"), tools: [add] });
    expect(run).toBeInstanceOf(ToolRun);
    const seen: string[] = [];
    for await (const c of run) seen.push(c.id);
    expect(seen).toEqual(["chatcmpl-1", "chatcmpl-2", "chatcmpl-3"]);
    const { messages, completions, usage, iterations } = await run.done();
    expect(iterations).toBe(3);
    expect(completions.map((c) => c.id)).toEqual(seen);
    expect(usage).toEqual({ prompt_tokens: 60, completion_tokens: 11, total_tokens: 71 });
    expect(messages).toEqual([
      { role: "user", content: "2+3+1?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1_0", type: "function", function: { name: "add", arguments: '{"a":2,"b":3}' } }],
      },
      { role: "tool", tool_call_id: "call_1_0", content: "5" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_2_0", type: "function", function: { name: "add", arguments: '{"a":5,"b":1}' } }],
      },
      { role: "tool", tool_call_id: "call_2_0", content: "6" },
      { role: "assistant", content: "6" },
    ]);
    // Each call sent the conversation so far and the tools' definitions.
    expect(bodies.map((b) => b.messages.length)).toEqual([1, 3, 5]);
    expect(bodies[0]!.tools).toEqual([JSON.parse(JSON.stringify(add))]);
  });

  it("answers invalid JSON, arguments the schema refuses and unknown tools as tool messages the model can act on", async () => {
    const { client } = scripted([
      {
        calls: [
          { name: "add", arguments: "{a: 2" },
          { name: "add", arguments: '{"a":"two","b":3}' },
          { name: "subtract", arguments: "{}" },
        ],
      },
      { text: "sorry" },
    ]);
    const { messages } = await client.chat.completions
      .runTools({ model: "m", messages: user("2+3?"), tools: [add] })
      .done();
    const answers = messages.filter((m) => m.role === "tool").map((m) => m.content as string);
    expect(answers[0]).toMatch(/^Error: the arguments of add are not valid JSON/);
    expect(answers[1]).toMatch(/^Error: invalid arguments for add: a: /);
    expect(answers[2]).toBe('Error: there is no tool named "subtract"; the tools are add');
  });

  it("checks a plain JSON Schema's arguments: each violation named with its argument, a valid call run", async () => {
    const ran: unknown[] = [];
    const calc = tool<{ op: string; a: number; b: number; tags?: string[] }>({
      name: "calc",
      parameters: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          op: { enum: ["+", "-", "*", "/"] },
          a: { type: "integer", exclusiveMinimum: 0 },
          b: { type: "number" },
          tags: { type: "array", items: { type: "string", minLength: 2 }, maxItems: 2 },
          unit: { anyOf: [{ type: "string" }, { type: "null" }] },
          point: { $ref: "#/$defs/point" },
        },
        required: ["op", "a", "b"],
        additionalProperties: false,
        $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
      },
      run: (args) => {
        ran.push(args);
        return "ok";
      },
    });
    // What goes out is the schema as written, less `$schema`.
    expect(calc.function.parameters).not.toHaveProperty("$schema");
    const { client } = scripted([
      {
        calls: [
          { name: "calc", arguments: '{"op":"Use","a":0,"b":2}' },
          { name: "calc", arguments: '{"op":"+","a":1,"b":2,"tags":["x","yy","zz"],"unit":3,"point":{},"more":1}' },
          { name: "calc", arguments: '{"op":"+"}' },
          { name: "calc", arguments: "[1]" },
          { name: "calc", arguments: '{"op":"*","a":6,"b":7,"unit":null,"point":{"x":1}}' },
        ],
      },
      { text: "done" },
    ]);
    const { messages } = await client.chat.completions
      .runTools({ model: "m", messages: user("6 times 7?"), tools: [calc] })
      .done();
    const answers = messages.filter((m) => m.role === "tool").map((m) => m.content as string);
    expect(answers[0]).toBe(
      'Error: invalid arguments for calc: op: Instance does not match any of ["+","-","*","/"]; a: 0 is less than or equal to 0',
    );
    expect(answers[1]!.split("; ")).toEqual([
      "Error: invalid arguments for calc: tags: Array has too many items (3 > 2)",
      "tags.0: String is too short (1 < 2)",
      "unit: Instance does not match any subschemas",
      'point: Instance does not have required property "x"',
      'Property "more" does not match additional properties schema',
    ]);
    expect(answers[2]).toBe(
      'Error: invalid arguments for calc: Instance does not have required property "a"; Instance does not have required property "b"',
    );
    expect(answers[3]).toBe("Error: invalid arguments for calc: the arguments must be a JSON object");
    expect(answers[4]).toBe("ok");
    expect(ran).toEqual([{ op: "*", a: 6, b: 7, unit: null, point: { x: 1 } }]);
  });

  it("reads the draft from a JSON Schema's $schema, and a schema that cannot check rejects the run naming the tool", async () => {
    const old = tool({
      name: "old",
      parameters: {
        $schema: "http://json-schema.org/draft-04/schema#",
        type: "object",
        properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } },
      },
      run: () => "ran",
    });
    const broken = tool({
      name: "broken",
      parameters: { type: "object", properties: { p: { $ref: "#/$defs/missing" } } },
      run: () => "ran",
    });
    const { client } = scripted([{ calls: [{ name: "old", arguments: '{"n":0}' }] }, { text: "done" }]);
    const { messages } = await client.chat.completions
      .runTools({ model: "m", messages: user("x"), tools: [old] })
      .done();
    expect(messages[2]).toMatchObject({
      role: "tool",
      content: "Error: invalid arguments for old: n: 0 is less than or equal to 0",
    });
    const second = scripted([{ calls: [{ name: "broken", arguments: '{"p":1}' }] }]);
    await expect(
      second.client.chat.completions.runTools({ model: "m", messages: user("x"), tools: [broken] }).done(),
    ).rejects.toThrow(/tool "broken": its parameters JSON Schema cannot check arguments/);
  });

  it("JSON-encodes results that are not strings, and a throwing tool becomes `Error: ...` by default", async () => {
    const lookup = tool({
      name: "lookup",
      parameters: z.object({ id: z.number() }),
      run: ({ id }) => {
        if (id === 0) throw new Error("no such record");
        return { id, found: true };
      },
    });
    const { client } = scripted([
      {
        calls: [
          { name: "lookup", arguments: '{"id":1}' },
          { name: "lookup", arguments: '{"id":0}' },
        ],
      },
    ]);
    const { messages } = await client.chat.completions
      .runTools({ model: "m", messages: user("x"), tools: [lookup] })
      .done();
    expect(messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual([
      '{"id":1,"found":true}',
      "Error: no such record",
    ]);
  });

  it('onToolError: "throw" rejects the run with the tool\'s error', async () => {
    const failing = tool({
      name: "boom",
      parameters: { type: "object" },
      run: () => {
        throw new RangeError("out of range");
      },
    });
    const { client, bodies } = scripted([{ calls: [{ name: "boom", arguments: "{}" }] }]);
    const run = client.chat.completions.runTools(
      { model: "m", messages: user("x"), tools: [failing] },
      { onToolError: "throw" },
    );
    await expect(run.done()).rejects.toThrow(RangeError);
    expect(bodies).toHaveLength(1);
  });

  it("runs a reply's tool calls at once, or one after the other with parallel_tool_calls: false (still sent)", async () => {
    const order: string[] = [];
    const slow = tool({
      name: "wait",
      parameters: z.object({ ms: z.number(), tag: z.string() }),
      run: async ({ ms, tag }) => {
        order.push(`start ${tag}`);
        await new Promise((r) => setTimeout(r, ms));
        order.push(`end ${tag}`);
        return tag;
      },
    });
    const calls = [
      { name: "wait", arguments: '{"ms":30,"tag":"a"}' },
      { name: "wait", arguments: '{"ms":1,"tag":"b"}' },
    ];
    const parallel = scripted([{ calls }]);
    const done = await parallel.client.chat.completions
      .runTools({ model: "m", messages: user("x"), tools: [slow] })
      .done();
    expect(order).toEqual(["start a", "start b", "end b", "end a"]);
    // Answers follow the calls' order, whichever ended first.
    expect(done.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(["a", "b"]);

    order.length = 0;
    const sequential = scripted([{ calls }]);
    await sequential.client.chat.completions
      .runTools({ model: "m", messages: user("x"), tools: [slow], parallel_tool_calls: false })
      .done();
    expect(order).toEqual(["start a", "end a", "start b", "end b"]);
    expect(sequential.bodies[0]!["parallel_tool_calls"]).toBe(false);
  });

  it("more model calls than maxIterations rejects with ToolRunLimitError holding the conversation so far", async () => {
    const again = { calls: [{ name: "add", arguments: '{"a":1,"b":1}' }] };
    const { client, bodies } = scripted([again, again, again, again]);
    const err = await client.chat.completions
      .runTools({ model: "m", messages: user("loop"), tools: [add] }, { maxIterations: 2 })
      .done()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolRunLimitError);
    const limit = err as ToolRunLimitError;
    expect(limit.maxIterations).toBe(2);
    expect(limit.completions).toHaveLength(2);
    expect(limit.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
    expect(bodies).toHaveLength(2);
  });

  it("the iterator throws the run's error after the replies it got", async () => {
    const again = { calls: [{ name: "add", arguments: '{"a":1,"b":1}' }] };
    const { client } = scripted([again, again]);
    const run = client.chat.completions.runTools(
      { model: "m", messages: user("x"), tools: [add] },
      { maxIterations: 1 },
    );
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of run) seen.push(c.id);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["chatcmpl-1"]);
    expect(err).toBeInstanceOf(ToolRunLimitError);
  });

  it("refuses n > 1, plain tools entries and no tools before sending", async () => {
    const { client, bodies } = scripted([]);
    const plain = { type: "function" as const, function: { name: "x", parameters: {} } };
    for (const params of [
      { model: "m", messages: user("x"), tools: [add], n: 2 },
      { model: "m", messages: user("x"), tools: [plain as never] },
      { model: "m", messages: user("x"), tools: [] },
    ]) {
      const err = await client.chat.completions
        .runTools(params)
        .done()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestValidationError);
    }
    expect(bodies).toHaveLength(0);
  });

  it('refuses an onToolError other than "message" or "throw" before sending', async () => {
    const { client, bodies } = scripted([]);
    for (const onToolError of ["throws", "Throw"]) {
      const err = await client.chat.completions
        .runTools({ model: "m", messages: user("x"), tools: [add] }, { onToolError: onToolError as never })
        .done()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).issues.map((i) => i.path)).toEqual(["onToolError"]);
    }
    expect(bodies).toHaveLength(0);
  });

  it("an abort rejects with APIUserAbortError and aborts the running tool's signal", async () => {
    let toolSignal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const hang = tool({
      name: "hang",
      parameters: { type: "object" },
      run: (_args, { signal }) => {
        toolSignal = signal;
        started();
        return new Promise(() => {});
      },
    });
    const { client } = scripted([{ calls: [{ name: "hang", arguments: "{}" }] }]);
    const controller = new AbortController();
    const run = client.chat.completions.runTools(
      { model: "m", messages: user("x"), tools: [hang] },
      { signal: controller.signal },
    );
    await running;
    controller.abort();
    await expect(run.done()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(toolSignal!.aborted).toBe(true);
  });
});
