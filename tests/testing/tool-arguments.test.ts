/**
 * The fake model's tool arguments: whatever the schema, the arguments it writes pass a JSON
 * Schema validator (the one runTools uses), greedy calls take what the message mentions, and
 * sampled calls differ from seed to seed yet repeat for the same seed.
 */
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { toolArguments } from "../../src/testing/chat/tool-arguments.js";
import { hash32, seededRandom } from "../../src/testing/util.js";

const SCHEMAS: Record<string, Record<string, unknown>> = {
  calculator: {
    type: "object",
    properties: { op: { enum: ["+", "-", "*", "/"] }, a: { type: "number" }, b: { type: "number" } },
    required: ["op", "a", "b"],
    additionalProperties: false,
  },
  "numbers in range": {
    type: "object",
    properties: {
      percent: { type: "integer", minimum: 0, maximum: 100 },
      ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      even: { type: "integer", multipleOf: 2, minimum: 1, maximum: 9 },
      negative: { type: "number", maximum: -5 },
    },
    required: ["percent", "ratio", "even", "negative"],
  },
  "nested objects and arrays": {
    type: "object",
    properties: {
      filter: {
        type: "object",
        properties: {
          tags: { type: "array", items: { enum: ["a", "b", "c"] }, minItems: 2, maxItems: 3, uniqueItems: true },
          range: { type: "object", properties: { from: { type: "string", format: "date" } }, required: ["from"] },
        },
        required: ["tags", "range"],
      },
      pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false, minItems: 2 },
      flags: { type: "array", items: { type: "boolean" }, maxItems: 0 },
    },
    required: ["filter", "pair"],
  },
  "strings with formats, lengths and patterns": {
    type: "object",
    properties: {
      email: { type: "string", format: "email" },
      when: { type: "string", format: "date-time" },
      id: { type: "string", format: "uuid" },
      site: { type: "string", format: "uri" },
      code: { type: "string", pattern: "^[A-Z]{3}$" },
      zip: { type: "string", pattern: "^\\d{5}$" },
      short: { type: "string", maxLength: 2 },
      long: { type: "string", minLength: 12 },
    },
    required: ["email", "code", "zip", "short", "long"],
  },
  "const, anyOf, oneOf, type lists": {
    type: "object",
    properties: {
      kind: { const: "search" },
      limit: { anyOf: [{ type: "integer", minimum: 1, maximum: 5 }, { type: "null" }] },
      target: {
        oneOf: [
          {
            type: "object",
            properties: { url: { type: "string", format: "uri" } },
            required: ["url"],
            additionalProperties: false,
          },
          {
            type: "object",
            properties: { path: { type: "string", minLength: 1 } },
            required: ["path"],
            additionalProperties: false,
          },
        ],
      },
      note: { type: ["string", "null"] },
    },
    required: ["kind", "limit", "target"],
  },
  "$ref, $defs and allOf": {
    type: "object",
    $defs: {
      point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] },
      tree: {
        type: "object",
        properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/tree" } } },
        required: ["name"],
      },
    },
    properties: {
      start: { $ref: "#/$defs/point" },
      tree: { $ref: "#/$defs/tree" },
      both: { allOf: [{ $ref: "#/$defs/point" }, { properties: { z: { type: "integer" } }, required: ["z"] }] },
    },
    required: ["start", "tree", "both"],
  },
  "a draft-04 schema (boolean exclusive bounds)": {
    $schema: "http://json-schema.org/draft-04/schema#",
    type: "object",
    properties: { n: { type: "number", minimum: 3, exclusiveMinimum: true, maximum: 4, exclusiveMaximum: true } },
    required: ["n"],
  },
  "a draft-07 schema": {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    definitions: { unit: { enum: ["c", "f"] } },
    properties: {
      unit: { $ref: "#/definitions/unit" },
      pair: { type: "array", items: [{ type: "string" }, { type: "number" }], additionalItems: false },
      delivery: { type: "string" },
      address: { type: "string" },
    },
    required: ["unit"],
  },
};

const text = "What is 12 * 7 for Paris in Celsius?";
const draw = (schema: Record<string, unknown>, seed: number | undefined, temperature = 1) =>
  toolArguments(schema, {
    text,
    toolName: "calc",
    random: seed === undefined ? undefined : seededRandom(hash32(`seed ${seed}`)),
    temperature,
  });

describe("the fake model's tool arguments", () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`satisfy the schema, greedy and sampled: ${name}`, () => {
      const uri = String(schema["$schema"] ?? "");
      const draft = uri.includes("draft-07") ? "7" : uri.includes("draft-04") ? "4" : "2020-12";
      const validator = new Validator(schema as never, draft, false);
      for (const seed of [undefined, ...Array.from({ length: 60 }, (_, i) => i)]) {
        for (const temperature of [0.2, 1, 2]) {
          const args = draw(schema, seed, temperature);
          const result = validator.validate(args);
          expect(result.errors, `${JSON.stringify(args)} (seed ${seed}, temperature ${temperature})`).toEqual([]);
        }
      }
    });
  }

  it("greedy: what the message mentions (an enum value, its numbers in order, its capitalized word), every property", () => {
    expect(draw(SCHEMAS["calculator"]!, undefined)).toEqual({ op: "*", a: 12, b: 7 });
    expect(
      draw(
        {
          type: "object",
          properties: { city: { type: "string" }, days: { type: "integer" }, hot: { type: "boolean" } },
        },
        undefined,
      ),
    ).toEqual({ city: "Paris", days: 12, hot: true });
    // Temperature 0 is greedy too, whatever the seed.
    expect(draw(SCHEMAS["calculator"]!, 5, 0)).toEqual({ op: "*", a: 12, b: 7 });
  });

  it("sampled: the same seed gives the same arguments, other seeds other ones, the likely ones most often", () => {
    const schema = SCHEMAS["calculator"]!;
    expect(draw(schema, 3)).toEqual(draw(schema, 3));
    const ops = Array.from({ length: 200 }, (_, seed) => draw(schema, seed)["op"]);
    const counts = Object.fromEntries(["+", "-", "*", "/"].map((op) => [op, ops.filter((o) => o === op).length]));
    expect(Math.min(...Object.values(counts))).toBeGreaterThan(0);
    expect(counts["*"]).toBeGreaterThan(Math.max(counts["+"]!, counts["-"]!, counts["/"]!));
    // A higher temperature strays from the likely value more often.
    const likely = (temperature: number) =>
      Array.from({ length: 200 }, (_, seed) => draw(schema, seed, temperature)["op"]).filter((o) => o === "*").length;
    expect(likely(0.25)).toBeGreaterThan(likely(2));
  });
});
