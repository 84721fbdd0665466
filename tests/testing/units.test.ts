import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate, matchesQuery } from "../../src/testing/calls/query-eval.js";
import { FaultQueue } from "../../src/testing/faults/queue.js";
import { generateCall, tokenize } from "../../src/testing/index.js";
import type { FakeRequest } from "../../src/testing/types.js";

describe("tokenize", () => {
  it("splits any text into pieces whose concatenation is the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(tokenize(text).join("")).toBe(text);
      }),
    );
  });
});

describe("query evaluation", () => {
  const record = generateCall(0);
  const literal = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null));

  it("$not inverts any comparison", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("$eq", "$gt", "$gte", "$lt", "$lte"),
        literal,
        fc.constantFrom("id", "summary.usage", "inputs.question", "missing.path"),
        (op, value, field) => {
          const expr = { [op]: [{ $getField: field }, { $literal: value }] };
          expect(matchesQuery({ $expr: { $not: [expr] } }, record)).toBe(!matchesQuery({ $expr: expr }, record));
        },
      ),
    );
  });

  it("$convert covers every target", () => {
    expect(evaluate({ $convert: { input: { $literal: "3.7" }, to: "double" } }, record)).toBe(3.7);
    expect(evaluate({ $convert: { input: { $literal: "3.7" }, to: "int" } }, record)).toBe(3);
    expect(evaluate({ $convert: { input: { $literal: 5 }, to: "string" } }, record)).toBe("5");
    expect(evaluate({ $convert: { input: { $literal: "true" }, to: "bool" } }, record)).toBe(true);
    expect(evaluate({ $convert: { input: { $getField: "nope" }, to: "exists" } }, record)).toBe(false);
  });
});

describe("fault queue", () => {
  const req = (method: string, path: string): FakeRequest => ({
    method,
    path,
    query: "",
    headers: {},
    body: "",
    json: undefined,
    signal: new AbortController().signal,
  });
  it("uses each fault `times` times, first match first", () => {
    const queue = new FaultQueue();
    queue.inject({ kind: "status", status: 500, path: "/a", times: 2 });
    queue.inject({ kind: "status", status: 503 });
    expect(queue.take(req("GET", "/b"))).toMatchObject({ status: 503 });
    expect(queue.take(req("GET", "/a"))).toMatchObject({ status: 500 });
    expect(queue.take(req("OPTIONS", "/a"))).toBeUndefined();
    expect(queue.take(req("POST", "/a"))).toMatchObject({ status: 500 });
    expect(queue.take(req("GET", "/a"))).toBeUndefined();
  });
});
