import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  ContentParseError,
  isAutoParseableResponseFormat,
  type ParsedChatCompletion,
  parseCompletionContent,
  zodResponseFormat,
} from "../../../src/lib/structured-output/zod-response-format.js";
import { chatCompletionCreateParamsSchema } from "../../../src/wire/chat/request-schema.js";
import type { ChatCompletion, ChatCompletionFinishReason } from "../../../src/wire/chat/types.js";

const Weather = z.object({
  city: z.string(),
  celsius: z.number(),
  days: z.int().min(1),
  conditions: z.array(z.enum(["sun", "rain"])),
  note: z.string().nullable(),
});

const completion = (contents: (string | null)[], finish: ChatCompletionFinishReason = "stop"): ChatCompletion => ({
  id: "c",
  object: "chat.completion",
  created: 0,
  model: "m",
  choices: contents.map((content, index) => ({
    index,
    message: { role: "assistant", content },
    finish_reason: finish,
  })),
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

const good = { city: "Paris", celsius: 18.5, days: 2, conditions: ["sun"], note: null };

describe("zodResponseFormat", () => {
  it("builds a strict json_schema format from zod's JSON Schema, without $schema", () => {
    const format = zodResponseFormat(Weather, "weather", { description: "Weather report" });
    expect(format).toStrictEqual({
      type: "json_schema",
      json_schema: {
        name: "weather",
        description: "Weather report",
        strict: true,
        schema: {
          type: "object",
          properties: {
            city: { type: "string" },
            celsius: { type: "number" },
            days: { type: "integer", minimum: 1 },
            conditions: { type: "array", items: { type: "string", enum: ["sun", "rain"] } },
            note: { type: ["string", "null"] },
          },
          required: ["city", "celsius", "days", "conditions", "note"],
          additionalProperties: false,
        },
      },
    });
  });

  it("closes nested objects too and drops zod's safe-integer bounds", () => {
    const format = zodResponseFormat(z.object({ inner: z.object({ n: z.int() }) }), "nested");
    expect(format.json_schema.schema).toStrictEqual({
      type: "object",
      properties: {
        inner: { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false },
      },
      required: ["inner"],
      additionalProperties: false,
    });
  });

  it("hides the zod schema from JSON, spreads and the request schema", () => {
    const format = zodResponseFormat(Weather, "weather");
    expect(JSON.parse(JSON.stringify(format))).toStrictEqual({ type: "json_schema", json_schema: format.json_schema });
    expect(Object.keys({ ...format })).toEqual(["type", "json_schema"]);
    expect(isAutoParseableResponseFormat(format)).toBe(true);
    expect(isAutoParseableResponseFormat({ type: "json_object" })).toBe(false);
    const r = chatCompletionCreateParamsSchema.safeParse({
      messages: [{ role: "user", content: "x" }],
      response_format: format,
    });
    expect(r.success).toBe(true);
  });

  it("omits description when not given and lets strict be turned off", () => {
    const format = zodResponseFormat(Weather, "weather", { strict: false });
    expect("description" in format.json_schema).toBe(false);
    expect(format.json_schema.strict).toBe(false);
  });
});

describe("parseCompletionContent", () => {
  const format = zodResponseFormat(Weather, "weather");

  it("parses every choice into a typed value, null content giving null", () => {
    const c = completion([JSON.stringify(good), null]);
    const parsed = parseCompletionContent(c, format);
    expectTypeOf(parsed).toEqualTypeOf<ParsedChatCompletion<z.output<typeof Weather>>>();
    expect(parsed.choices[0]!.message.parsed).toStrictEqual(good);
    expect(parsed.choices[0]!.message.parsed?.celsius).toBe(18.5);
    expect(parsed.choices[1]!.message.parsed).toBeNull();
    expect(parsed.choices[0]!.message.content).toBe(JSON.stringify(good));
    expect("parsed" in c.choices[0]!.message).toBe(false);
  });

  it("throws a ContentParseError naming the choice when content is not JSON", () => {
    const c = completion([JSON.stringify(good), "Sure! Here is the weather: {"]);
    const err = (() => {
      try {
        parseCompletionContent(c, format);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ContentParseError);
    const e = err as ContentParseError;
    expect(e.name).toBe("ContentParseError");
    expect(e.choiceIndex).toBe(1);
    expect(e.message).toMatch(/^choice 1: content is not valid JSON/);
    expect(e.issues[0]).toMatchObject({ path: [], code: "invalid_json" });
    expect(e.content).toBe("Sure! Here is the weather: {");
    expect(e.cause).toBeInstanceOf(SyntaxError);
  });

  it("says when a reply was cut off by the length limit", () => {
    expect(() => parseCompletionContent(completion(['{"city": "Par'], "length"), format)).toThrow(
      /finish_reason is "length"/,
    );
  });

  it("throws a ContentParseError with the zod issues on a schema mismatch", () => {
    const c = completion([JSON.stringify({ ...good, celsius: "warm", days: 0 })]);
    try {
      parseCompletionContent(c, format);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ContentParseError);
      const err = e as ContentParseError;
      expect(err.choiceIndex).toBe(0);
      expect(err.issues.map((i) => i.path)).toEqual([["celsius"], ["days"]]);
      expect(err.message).toMatch(
        /^choice 0: content does not match response format "weather": celsius: .*expected number.* \(and 1 more\)$/,
      );
    }
  });

  it("refuses a format that was not made by zodResponseFormat", () => {
    const plain = { type: "json_schema", json_schema: { name: "x", schema: {}, strict: true } };
    expect(() => parseCompletionContent(completion(["{}"]), plain as never)).toThrow(TypeError);
  });
});
