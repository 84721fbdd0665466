/**
 * `responseFormat()` with every kind of schema a user brings, over real HTTP to the fake
 * service (which echoes the requested JSON): zod 4, ArkType and valibot through Standard JSON
 * Schema, and a plain JSON Schema object. What goes out is the library's own JSON Schema;
 * what comes back is validated by the library's own `validate`.
 */
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { ContentParseError, RequestValidationError, responseFormat } from "../../src/index.js";
import { caught, MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

const user = (content: string) => [{ role: "user" as const, content }];
const sentFormat = () =>
  (fake.svc.requests.at(-1)!.json as { response_format: { type: string; json_schema: Record<string, unknown> } })
    .response_format;

interface Weather {
  city: string;
  celsius: number;
}

const libraries = {
  "zod 4": responseFormat(z.object({ city: z.string(), celsius: z.number().int() }), "weather"),
  ArkType: responseFormat(type({ city: "string", celsius: "number.integer" }), "weather"),
  valibot: responseFormat(
    toStandardJsonSchema(v.object({ city: v.string(), celsius: v.pipe(v.number(), v.integer()) })),
    "weather",
  ),
};

describe.each(Object.entries(libraries))("responseFormat with %s", (_library, format) => {
  it("sends the library's JSON Schema and types message.parsed from the schema", async () => {
    const completion = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user('echo {"city":"Paris","celsius":21}'),
      response_format: format,
    });
    const parsed = completion.choices[0]!.message.parsed;
    expectTypeOf(parsed).toEqualTypeOf<Weather | null>();
    expect(parsed).toEqual({ city: "Paris", celsius: 21 });

    const sent = sentFormat();
    expect(sent.type).toBe("json_schema");
    expect(sent.json_schema).toMatchObject({ name: "weather", strict: true });
    const schema = sent.json_schema["schema"] as Record<string, unknown>;
    expect(schema).not.toHaveProperty("$schema");
    expect(schema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" }, celsius: { type: "integer" } },
      required: expect.arrayContaining(["city", "celsius"]),
    });
    // zod's safe-integer bounds constrain nothing a model writes; they are dropped.
    expect(schema["properties"]).not.toHaveProperty("celsius.minimum");
  });

  it("rejects a reply the schema refuses with ContentParseError naming the field", async () => {
    const err = await caught(() =>
      fake.client.chat.completions.parse({
        model: MODEL,
        messages: user('echo {"city":"Paris","celsius":21.5}'),
        response_format: format,
      }),
    );
    expect(err).toBeInstanceOf(ContentParseError);
    const error = err as ContentParseError;
    expect(error.choiceIndex).toBe(0);
    expect(error.issues[0]!.path).toEqual(["celsius"]);
    expect(error.content).toBe('{"city":"Paris","celsius":21.5}');
    expect(error.message).toMatch(/^choice 0: content does not match response format "weather": celsius: /);
  });

  it("rejects a reply that is not JSON", async () => {
    const err = await caught(() =>
      fake.client.chat.completions.parse({ model: MODEL, messages: user("echo sunny"), response_format: format }),
    );
    expect(err).toBeInstanceOf(ContentParseError);
    expect((err as ContentParseError).issues[0]!.code).toBe("invalid_json");
  });
});

describe("responseFormat with a plain JSON Schema", () => {
  const schema = {
    type: "object",
    properties: { city: { type: "string" }, celsius: { type: "integer" } },
    required: ["city", "celsius"],
    additionalProperties: false,
  };

  it("sends the schema as written and parses replies as JSON, typed as the caller says", async () => {
    const format = responseFormat<Weather>(schema, "weather", { description: "Today's weather", strict: false });
    const completion = await fake.client.chat.completions.parse({
      model: MODEL,
      messages: user('echo {"city":"Oslo","celsius":-3}'),
      response_format: format,
    });
    expectTypeOf(completion.choices[0]!.message.parsed).toEqualTypeOf<Weather | null>();
    expect(completion.choices[0]!.message.parsed).toEqual({ city: "Oslo", celsius: -3 });
    expect(sentFormat()).toEqual({
      type: "json_schema",
      json_schema: { name: "weather", description: "Today's weather", strict: false, schema },
    });
  });

  it("leaves the caller's schema object unchanged", () => {
    const mine = { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema };
    const format = responseFormat(mine, "weather");
    expect(mine.$schema).toBeDefined();
    expect(format.json_schema.schema).not.toHaveProperty("$schema");
  });
});

it("parse() refuses a response_format that cannot parse replies, sending nothing", async () => {
  const err = await caught(() =>
    fake.client.chat.completions.parse({
      model: MODEL,
      messages: user("echo {}"),
      // A plain format object: a user who forgot responseFormat().
      response_format: { type: "json_schema", json_schema: { name: "x", schema: {} } } as never,
    }),
  );
  expect(err).toBeInstanceOf(RequestValidationError);
  expect((err as Error).message).toContain("responseFormat()");
  expect(fake.svc.requests).toHaveLength(0);
});
