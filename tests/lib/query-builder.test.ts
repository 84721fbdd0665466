import { describe, expect, expectTypeOf, it } from "vitest";
import { q, queryBuilder } from "../../src/lib/query-builder.js";
import { type EqOperation, type QueryExpression, queryExpressionSchema } from "../../src/wire/calls/index.js";

const latency = { $getField: "summary.weave.latency_ms" };
const status = { $getField: "summary.weave.status" };

describe("query builder: exact JSON per operator", () => {
  const cases: Array<[string, unknown, unknown]> = [
    ["field", q.field("op_name"), { $getField: "op_name" }],
    ["field.as", q.field("summary.weave.latency_ms").as("double"), { $convert: { input: latency, to: "double" } }],
    ["literal", q.literal("x"), { $literal: "x" }],
    ["literal of null", q.literal(null), { $literal: null }],
    [
      "in with each value its own literal",
      q.in(q.field("inputs.tags"), ["a", 1]),
      { $in: [{ $getField: "inputs.tags" }, [{ $literal: "a" }, { $literal: 1 }]] },
    ],
    ["field with an escaped dot", q.field("attributes.a\\.b"), { $getField: "attributes.a\\.b" }],
    [
      "convert",
      q.convert(q.field("inputs.top_k"), "int"),
      { $convert: { input: { $getField: "inputs.top_k" }, to: "int" } },
    ],
    ["convert of a plain value", q.convert("12", "int"), { $convert: { input: { $literal: "12" }, to: "int" } }],
    [
      "exists",
      q.exists(q.field("output.answer")),
      { $eq: [{ $convert: { input: { $getField: "output.answer" }, to: "exists" } }, { $literal: true }] },
    ],
    ["eq", q.eq(q.field("inputs.user_tier"), "pro"), { $eq: [{ $getField: "inputs.user_tier" }, { $literal: "pro" }] }],
    ["ne", q.ne(status, "error"), { $not: [{ $eq: [status, { $literal: "error" }] }] }],
    ["gt", q.gt(latency, 1000), { $gt: [latency, { $literal: 1000 }] }],
    ["gte", q.gte(latency, 1000), { $gte: [latency, { $literal: 1000 }] }],
    ["lt", q.lt(latency, 1000), { $lt: [latency, { $literal: 1000 }] }],
    ["lte", q.lte(latency, 1000), { $lte: [latency, { $literal: 1000 }] }],
    [
      "literal on the left",
      q.eq("pro", q.field("inputs.user_tier")),
      { $eq: [{ $literal: "pro" }, { $getField: "inputs.user_tier" }] },
    ],
    [
      "and",
      q.and(q.eq(status, "success"), true),
      { $and: [{ $eq: [status, { $literal: "success" }] }, { $literal: true }] },
    ],
    ["and of nothing", q.and(), { $and: [] }],
    [
      "or",
      q.or(q.lt(latency, 5), q.gt(latency, 50)),
      { $or: [{ $lt: [latency, { $literal: 5 }] }, { $gt: [latency, { $literal: 50 }] }] },
    ],
    ["not", q.not(q.eq(status, "error")), { $not: [{ $eq: [status, { $literal: "error" }] }] }],
    ["in", q.in(status, ["error", "running"]), { $in: [status, [{ $literal: "error" }, { $literal: "running" }]] }],
    [
      "in mixing operands",
      q.in(status, [q.field("inputs.expected"), "x"]),
      { $in: [status, [{ $getField: "inputs.expected" }, { $literal: "x" }]] },
    ],
    [
      "contains",
      q.contains(q.field("inputs.question"), "pass"),
      { $contains: { input: { $getField: "inputs.question" }, substr: { $literal: "pass" } } },
    ],
    [
      "contains case-insensitive",
      q.contains(q.field("inputs.question"), "pass", { caseInsensitive: true }),
      { $contains: { input: { $getField: "inputs.question" }, substr: { $literal: "pass" }, case_insensitive: true } },
    ],
    [
      "contains case-sensitive explicitly",
      q.contains(q.field("inputs.question"), "pass", { caseInsensitive: false }),
      { $contains: { input: { $getField: "inputs.question" }, substr: { $literal: "pass" }, case_insensitive: false } },
    ],
    [
      "containsToken",
      q.containsToken(q.field("inputs.q"), "reset"),
      { $containsToken: { input: { $getField: "inputs.q" }, substr: { $literal: "reset" } } },
    ],
    [
      "containsToken case-insensitive",
      q.containsToken(q.field("inputs.q"), "Reset", { caseInsensitive: true }),
      {
        $containsToken: { input: { $getField: "inputs.q" }, substr: { $literal: "Reset" }, case_insensitive: true },
      },
    ],
    ["null literal", q.eq(q.field("parent_id"), null), { $eq: [{ $getField: "parent_id" }, { $literal: null }] }],
    [
      "where with one operation",
      q.where(q.eq(status, "success")),
      { $expr: { $eq: [status, { $literal: "success" }] } },
    ],
    [
      "where with several operations joins them with $and",
      q.where(q.eq(status, "success"), q.gt(latency, 1)),
      { $expr: { $and: [{ $eq: [status, { $literal: "success" }] }, { $gt: [latency, { $literal: 1 }] }] } },
    ],
  ];

  it.each(cases)("%s", (_name, built, expected) => {
    expect(built).toStrictEqual(expected);
    expect(JSON.parse(JSON.stringify(built))).toStrictEqual(expected);
  });
});

describe("query builder: the README example", () => {
  const query = q.where(
    q.and(
      q.eq(q.field("op_name"), "weave:///acme/bot/op/answer:abc"),
      q.gt(q.field("summary.weave.latency_ms").as("double"), 1000),
      q.contains(q.field("inputs.question"), "password", { caseInsensitive: true }),
      q.not(q.in(q.field("summary.weave.status"), ["error", "running"])),
    ),
  );
  const expected = {
    $expr: {
      $and: [
        { $eq: [{ $getField: "op_name" }, { $literal: "weave:///acme/bot/op/answer:abc" }] },
        { $gt: [{ $convert: { input: { $getField: "summary.weave.latency_ms" }, to: "double" } }, { $literal: 1000 }] },
        {
          $contains: {
            input: { $getField: "inputs.question" },
            substr: { $literal: "password" },
            case_insensitive: true,
          },
        },
        { $not: [{ $in: [{ $getField: "summary.weave.status" }, [{ $literal: "error" }, { $literal: "running" }]] }] },
      ],
    },
  };

  it("produces exactly the trace server's JSON", () => {
    expect(JSON.stringify(query)).toBe(JSON.stringify(expected));
    expect(query).toStrictEqual(expected);
  });

  it("passes the request schema unchanged", () => {
    const result = queryExpressionSchema.safeParse(query);
    expect(result.success).toBe(true);
    expect(result.data).toStrictEqual(expected);
  });

  it("is typed as a QueryExpression", () => {
    expectTypeOf(query).toEqualTypeOf<QueryExpression>();
  });
});

describe("query builder: ergonomics", () => {
  it("is exported under both names", () => {
    expect(q).toBe(queryBuilder);
  });

  it("keeps .as out of the JSON, clones and key lists", () => {
    const ref = q.field("id");
    expect(Object.keys(ref)).toEqual(["$getField"]);
    expect(structuredClone(ref)).toStrictEqual({ $getField: "id" });
    expect(typeof ref.as).toBe("function");
  });

  it("does not re-wrap operands built elsewhere or written raw", () => {
    const raw = { $getField: "inputs.x" };
    const built = q.eq(raw, q.literal(1));
    expect(built.$eq[0]).toBe(raw);
    expect(built).toStrictEqual({ $eq: [raw, { $literal: 1 }] });
  });

  it("returns precise node types", () => {
    expectTypeOf(q.exists(q.field("a"))).toEqualTypeOf<EqOperation>();
    // @ts-expect-error: a bare field is an operand, not an operation, so it cannot stand under $expr
    q.where(q.field("a"));
    // @ts-expect-error: undefined is not a JSON value
    q.eq(q.field("a"), undefined);
    // @ts-expect-error: not a $convert target
    q.field("a").as("float");
  });
});
