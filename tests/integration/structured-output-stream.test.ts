/**
 * Streamed structured output over real HTTP to the fake service (which streams the requested
 * JSON token by token): `parse({ ..., stream: true })` and `create` with a parseable response
 * format give a final completion whose `message.parsed` is parsed and schema-checked, and
 * `partialParsed()` shows the object as its JSON grows.
 */
import { type } from "arktype";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  ChatCompletionStream,
  ContentParseError,
  type DeepPartial,
  ParsedChatCompletionStream,
  responseFormat,
  zodResponseFormat,
} from "../../src/index.js";
import { caught, MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

const user = (content: string) => [{ role: "user" as const, content }];
const Weather = z.object({ city: z.string(), days: z.array(z.object({ celsius: z.number().int() })) });
type Weather = z.infer<typeof Weather>;
const REPLY = '{"city":"Paris","days":[{"celsius":21},{"celsius":19}]}';

describe("parse({ stream: true })", () => {
  it("resolves to a stream whose final completion carries the parsed, typed value", async () => {
    const stream = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user(`echo ${REPLY}`),
      response_format: zodResponseFormat(Weather, "weather"),
      stream: true,
    });
    expectTypeOf(stream).toEqualTypeOf<ParsedChatCompletionStream<Weather>>();
    expect(stream).toBeInstanceOf(ChatCompletionStream);
    const completion = await stream.finalCompletion();
    expectTypeOf(completion.choices[0]!.message.parsed).toEqualTypeOf<Weather | null>();
    expect(completion.choices[0]!.message.parsed).toEqual(JSON.parse(REPLY));
    expect(completion.choices[0]!.message.content).toBe(REPLY);
    // The request went out as a stream with the schema, as create() sends it.
    const sent = fake.svc.requests.at(-1)!.json as {
      stream: boolean;
      response_format: { json_schema: { name: string } };
    };
    expect(sent.stream).toBe(true);
    expect(sent.response_format.json_schema.name).toBe("weather");
    // finalCompletion() is one result, however often it is asked for.
    expect(await stream.finalCompletion()).toBe(completion);
  });

  it("validates the final reply against the schema, as the non-streamed parse() does", async () => {
    const stream = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user('echo {"city":"Paris","days":[{"celsius":21.5}]}'),
      response_format: zodResponseFormat(Weather, "weather"),
      stream: true,
    });
    const err = await caught(() => stream.finalCompletion());
    expect(err).toBeInstanceOf(ContentParseError);
    expect((err as ContentParseError).issues[0]!.path).toEqual(["days", 0, "celsius"]);
    expect((err as Error).message).toMatch(
      /^choice 0: content does not match response format "weather": days\.0\.celsius: /,
    );
  });

  it("names a reply cut off by the token limit", async () => {
    const stream = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user(`echo ${REPLY}`),
      response_format: zodResponseFormat(Weather, "weather"),
      max_completion_tokens: 5,
      stream: true,
    });
    const err = await caught(() => stream.finalCompletion());
    expect(err).toBeInstanceOf(ContentParseError);
    expect((err as Error).message).toContain('finish_reason is "length": the reply was cut off');
  });

  it("works with a Standard Schema library's format too (validated by the library)", async () => {
    const format = responseFormat(type({ city: "string", celsius: "number.integer" }), "weather");
    const ok = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user('echo {"city":"Oslo","celsius":-3}'),
      response_format: format,
      stream: true,
    });
    expect((await ok.finalCompletion()).choices[0]!.message.parsed).toEqual({ city: "Oslo", celsius: -3 });
    const bad = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user('echo {"city":"Oslo","celsius":"cold"}'),
      response_format: format,
      stream: true,
    });
    const err = await caught(() => bad.finalCompletion());
    expect(err).toBeInstanceOf(ContentParseError);
    expect((err as ContentParseError).issues[0]!.path).toEqual(["celsius"]);
  });

  it("partialParsed() shows the object growing, then finalCompletion() the validated one", async () => {
    const stream = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user(`echo ${REPLY}`),
      response_format: zodResponseFormat(Weather, "weather"),
      stream: true,
    });
    const seen: DeepPartial<Weather>[] = [];
    for await (const partial of stream.partialParsed()) {
      expectTypeOf(partial).toEqualTypeOf<DeepPartial<Weather>>();
      seen.push(partial);
    }
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.at(-1)).toEqual(JSON.parse(REPLY));
    // Each value holds only what had arrived: never a half number, and a prefix of the next.
    expect(seen).toContainEqual({ city: "Paris", days: [{ celsius: 21 }] });
    for (const value of seen)
      for (const day of value.days ?? []) if (day.celsius !== undefined) expect([21, 19]).toContain(day.celsius);
    expect((await stream.finalCompletion()).choices[0]!.message.parsed).toEqual(JSON.parse(REPLY));
  });
});

describe("parse() when the model calls a tool", () => {
  const tools = [
    {
      type: "function" as const,
      function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
    },
  ];
  // vLLM's first delta is {"role":"assistant","content":""}: a tool-call reply accumulates to
  // content "", which is no reply to parse (issue 32: it was parsed and rejected).
  it("streamed: parsed is null, as the non-streamed call gives", async () => {
    const params = {
      model: MODEL,
      messages: user("What is the weather in Paris? use get_weather"),
      response_format: zodResponseFormat(Weather, "weather"),
      tools,
    };
    const plain = await fake.client.chat.completions.parse(params);
    expect(plain.choices[0]!.message.tool_calls).toHaveLength(1);
    expect(plain.choices[0]!.message.parsed).toBeNull();
    const stream = await fake.client.chat.completions.parse({ ...params, stream: true });
    const completion = await stream.finalCompletion();
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    expect(completion.choices[0]!.message.tool_calls?.[0]?.function.name).toBe("get_weather");
    expect(completion.choices[0]!.message.parsed).toBeNull();
  });

  it("streamed with a Standard Schema library's format: parsed is null too", async () => {
    const stream = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user("What is the weather in Paris? use get_weather"),
      response_format: responseFormat(type({ city: "string" }), "weather"),
      tools,
      stream: true,
    });
    expect((await stream.finalCompletion()).choices[0]!.message.parsed).toBeNull();
  });
});

describe("create({ stream: true }) with a parseable response format", () => {
  it("gives a parsed final completion as well", async () => {
    const stream = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user(`echo ${REPLY}`),
      response_format: zodResponseFormat(Weather, "weather"),
      stream: true,
    });
    expectTypeOf(stream).toEqualTypeOf<ParsedChatCompletionStream<Weather>>();
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect((await stream.finalCompletion()).choices[0]!.message.parsed).toEqual(JSON.parse(REPLY));
  });

  it("a plain response_format object gives a plain stream", async () => {
    const stream = await fake.client.chat.completions.create({
      model: MODEL,
      messages: user('echo {"a":1}'),
      response_format: { type: "json_schema", json_schema: { name: "a", schema: { type: "object" } } },
      stream: true,
    });
    expectTypeOf(stream).toEqualTypeOf<ChatCompletionStream>();
    expect(stream).not.toBeInstanceOf(ParsedChatCompletionStream);
    expect((await stream.finalCompletion()).choices[0]!.message).not.toHaveProperty("parsed");
  });
});
