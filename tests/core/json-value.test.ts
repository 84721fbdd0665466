import { describe, expect, it } from "vitest";
import { jsonPieces, MAX_JSON_DEPTH, SerializedJSON, toJSONValue } from "../../src/core/json/json-value.js";
import { RequestValidationError } from "../../src/index.js";

function refusal(value: unknown): RequestValidationError {
  try {
    toJSONValue(value, "request");
  } catch (err) {
    expect(err).toBeInstanceOf(RequestValidationError);
    return err as RequestValidationError;
  }
  throw new Error("expected a refusal");
}

describe("toJSONValue: the body as it will be sent", () => {
  it("copies what JSON.stringify would send", () => {
    const value = {
      s: "x",
      n: -0,
      b: false,
      z: null,
      u: undefined,
      f: () => 1,
      arr: [1, undefined, () => 2, "x"],
      date: new Date(0),
      boxed: new Number(3),
      nested: { toJSON: () => ({ ok: true }) },
    };
    const copy = toJSONValue(value, "request");
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it("keeps a __proto__ key as data, as JSON.stringify sends it", () => {
    const input = JSON.parse('{"a":{"__proto__":{"x":1}}}');
    const copy = toJSONValue(input, "request") as { a: Record<string, unknown> };
    expect(Object.getPrototypeOf(copy.a)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"a":{"__proto__":{"x":1}}}');
  });

  it("allows the same object twice when it is not a cycle", () => {
    const shared = { k: 1 };
    expect(toJSONValue({ a: shared, b: [shared] }, "request")).toEqual({ a: { k: 1 }, b: [{ k: 1 }] });
  });

  it("refuses cycles, BigInts and non-finite numbers, naming the field", () => {
    const cycle: Record<string, unknown> = {};
    cycle.me = { back: cycle };
    expect(refusal({ a: cycle }).issues[0]!.path).toBe("a.me.back");
    expect(refusal({ a: [1, 2n] }).issues[0]).toMatchObject({ path: "a.1", message: expect.stringMatching(/BigInt/) });
    expect(refusal({ a: { b: Number.NaN } }).issues[0]).toMatchObject({
      path: "a.b",
      message: "must be a finite number, got NaN",
    });
    expect(refusal({ a: -Infinity }).issues[0]!.message).toBe("must be a finite number, got -Infinity");
  });

  it("refuses nesting deeper than the servers parse, with a short path", () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) deep = [deep];
    expect(() => toJSONValue({ ok: deep }, "request")).toThrow(RequestValidationError);
    let fits: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH - 2; i++) fits = [fits];
    expect(() => toJSONValue({ ok: fits }, "request")).not.toThrow();
    for (let i = 0; i < 20_000; i++) deep = { d: deep };
    const err = refusal({ x: deep });
    expect(err.issues[0]!.path).toBe("x.d.d.d.d.d.d.d.d.d.…");
    expect(err.issues[0]!.message).toBe(`is nested more than ${MAX_JSON_DEPTH} levels deep`);
  });

  it("refuses parameters that are not an object", () => {
    for (const v of [null, undefined, "s", 1, [], true])
      expect(refusal(v).issues[0]!.message).toMatch(/^must be an object, got /);
    expect(refusal({ toJSON: () => 5 }).issues[0]!.message).toMatch(/toJSON/);
  });

  it("reads every getter and toJSON once", () => {
    let reads = 0;
    const copy = toJSONValue(
      {
        get v() {
          return ++reads;
        },
      },
      "request",
    );
    expect(copy).toEqual({ v: 1 });
    expect(JSON.stringify(copy)).toBe('{"v":1}');
    expect(reads).toBe(1);
  });
});

describe("jsonPieces", () => {
  it("writes the text JSON.stringify writes, with sealed parts as they are", () => {
    const value = { a: [1, "é🙂", null, { b: true }], skipped: undefined, s: new SerializedJSON('{"c":[2,3]}'), z: {} };
    const plain = { a: [1, "é🙂", null, { b: true }], s: { c: [2, 3] }, z: {} };
    const text = [...jsonPieces(value)].map((p) => (typeof p === "string" ? p : new TextDecoder().decode(p))).join("");
    expect(text).toBe(JSON.stringify(plain));
  });

  it("hands each sealed part over as it is, uncopied, and starts again on each call (a retry sends the same text)", () => {
    const big = new SerializedJSON(JSON.stringify({ tokens: Array.from({ length: 1000 }, (_, i) => i) }));
    const value = { model_id: "m", trajectory_groups: [{ trajectories: [big, big] }] };
    const first = [...jsonPieces(value)];
    expect(first.filter((p) => p === big.piece)).toHaveLength(2);
    expect([...jsonPieces(value)]).toEqual(first);
  });
});
