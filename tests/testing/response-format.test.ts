/**
 * The fake model under a `response_format`, over HTTP: a `json_schema` reply passes a JSON
 * Schema validator (the one runTools uses) and takes what the message mentions, streamed or
 * not; a sampled one varies with the seed and repeats for the same seed; `json_object` is a
 * JSON object; `text` and no format leave the words as they were; `echo ` still scripts a reply.
 */
import { type Schema, Validator } from "@cfworker/json-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";
import { startFakeService } from "../../src/testing/index.js";
import { chat, readStream } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService();
});
afterAll(() => svc.close());

const MODEL = "Qwen/Qwen3-8B";
const WEATHER: Schema = {
  type: "object",
  properties: {
    city: { type: "string" },
    celsius: { type: "integer", minimum: -60, maximum: 60 },
    conditions: { enum: ["sunny", "cloudy", "rain", "snow"] },
    days: {
      type: "array",
      items: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
    },
  },
  required: ["city", "celsius", "conditions", "days"],
  additionalProperties: false,
};
const asks = (content: string, extra: Record<string, unknown> = {}) => ({
  model: MODEL,
  messages: [{ role: "user", content }],
  ...extra,
});
const jsonSchema = (schema: Record<string, unknown>) => ({
  response_format: { type: "json_schema", json_schema: { name: "weather", schema, strict: true } },
});

async function content(body: Record<string, unknown>): Promise<string> {
  const res = await chat(svc, body);
  expect(res.status).toBe(200);
  return ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content;
}

describe("the fake under response_format", () => {
  it("json_schema: JSON the schema accepts, with what the message mentions", async () => {
    const text = await content(asks("Weather in Paris today: 21 degrees and cloudy, as JSON", jsonSchema(WEATHER)));
    const value = JSON.parse(text);
    expect(new Validator(WEATHER, "2020-12").validate(value).valid).toBe(true);
    expect(value).toMatchObject({ city: "Paris", celsius: 21, conditions: "cloudy" });
  });

  it("json_schema, streamed: the chunks join into the same JSON", async () => {
    const body = asks("Weather in Oslo: 3 degrees and snow", jsonSchema(WEATHER));
    const whole = await content(body);
    const { chunks } = await readStream(await chat(svc, { ...body, stream: true }));
    const streamed = chunks.map((c) => c.choices?.[0]?.delta?.content ?? "").join("");
    expect(streamed).toBe(whole);
    expect(JSON.parse(streamed)).toMatchObject({ city: "Oslo", celsius: 3, conditions: "snow" });
  });

  it("json_schema with a seed: valid for every seed, varied across seeds, the same for one seed", async () => {
    const validator = new Validator(WEATHER, "2020-12");
    const replies = new Set<string>();
    for (let seed = 0; seed < 8; seed++) {
      const body = asks("Weather, any city", { ...jsonSchema(WEATHER), seed, temperature: 1 });
      const text = await content(body);
      expect(validator.validate(JSON.parse(text)).valid).toBe(true);
      expect(await content(body)).toBe(text);
      replies.add(text);
    }
    expect(replies.size).toBeGreaterThan(1);
  });

  it("json_schema whose root is no object, and n > 1: every choice valid", async () => {
    const schema = { type: "array", items: { type: "integer" }, minItems: 2, maxItems: 2 };
    const res = await chat(svc, asks("Two numbers: 4 and 9", { ...jsonSchema(schema), n: 2 }));
    const { choices } = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    for (const c of choices) expect(JSON.parse(c.message.content)).toEqual([4, 9]);
  });

  it("json_object: a JSON object", async () => {
    const value = JSON.parse(await content(asks("Anything as JSON", { response_format: { type: "json_object" } })));
    expect(typeof value).toBe("object");
    expect(Array.isArray(value)).toBe(false);
  });

  it("text or no format: the usual words; echo: the scripted reply, format or not", async () => {
    const plain = await content(asks("Say something"));
    expect(await content(asks("Say something", { response_format: { type: "text" } }))).toBe(plain);
    expect(() => JSON.parse(plain)).toThrow();
    expect(await content(asks('echo {"city":"Lima"}', jsonSchema(WEATHER)))).toBe('{"city":"Lima"}');
  });
});
