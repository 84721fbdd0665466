import { describe, expect, it } from "vitest";
import {
  operandSchema,
  operationSchema,
  type QueryExpression,
  queryExpressionSchema,
} from "../../../src/wire/calls/index.js";

const field = { $getField: "summary.weave.latency_ms" };
const one = { $literal: 1 };

describe("queryExpressionSchema: every operator in its documented shape", () => {
  const valid: Array<[string, QueryExpression]> = [
    ["$and with no operands", { $expr: { $and: [] } }],
    ["$and", { $expr: { $and: [{ $eq: [field, one] }, { $literal: true }] } }],
    ["$or", { $expr: { $or: [{ $gt: [field, one] }, { $lt: [field, one] }] } }],
    ["$not", { $expr: { $not: [{ $eq: [field, one] }] } }],
    ["$eq", { $expr: { $eq: [field, one] } }],
    ["$gt", { $expr: { $gt: [field, one] } }],
    ["$gte", { $expr: { $gte: [field, one] } }],
    ["$lt", { $expr: { $lt: [field, one] } }],
    ["$lte", { $expr: { $lte: [field, one] } }],
    ["$in", { $expr: { $in: [field, [one, { $literal: 2 }]] } }],
    ["$in with an empty list", { $expr: { $in: [field, []] } }],
    ["$contains", { $expr: { $contains: { input: field, substr: { $literal: "pass" } } } }],
    [
      "$contains with case_insensitive",
      { $expr: { $contains: { input: field, substr: { $literal: "pass" }, case_insensitive: true } } },
    ],
    [
      "$contains with case_insensitive null",
      { $expr: { $contains: { input: field, substr: { $literal: "pass" }, case_insensitive: null } } },
    ],
    [
      "$convert to each target",
      {
        $expr: {
          $and: (["double", "string", "int", "bool", "exists"] as const).map((to) => ({
            $convert: { input: field, to },
          })),
        },
      },
    ],
    [
      "$literal of every JSON kind",
      {
        $expr: {
          $in: [field, [{ $literal: "s" }, { $literal: 1.5 }, { $literal: false }, { $literal: null }]],
        },
      },
    ],
    ["operation as operand", { $expr: { $eq: [{ $gt: [field, one] }, { $literal: true }] } }],
  ];

  it.each(valid)("%s", (_name, input) => {
    const result = queryExpressionSchema.safeParse(input);
    expect(result.error?.issues).toBeUndefined();
    expect(result.data).toStrictEqual(input);
  });
});

describe("queryExpressionSchema: malformed trees fail inside the tree", () => {
  const invalid: Array<[string, unknown, PropertyKey[]]> = [
    ["not an object", "op_name = x", []],
    ["missing $expr", {}, ["$expr"]],
    ["extra key beside $expr", { $expr: { $and: [] }, $limit: 1 }, []],
    ["bare literal under $expr", { $expr: { $literal: true } }, ["$expr"]],
    ["bare field under $expr", { $expr: { $getField: "id" } }, ["$expr"]],
    ["empty node", { $expr: {} }, ["$expr"]],
    ["two operators in one node", { $expr: { $and: [], $or: [] } }, ["$expr"]],
    ["unknown operator", { $expr: { $regex: [field, { $literal: "a.*" }] } }, ["$expr"]],
    ["unknown operator deep", { $expr: { $and: [{ $size: field }] } }, ["$expr", "$and", 0]],
    ["$not with two operands", { $expr: { $not: [one, one] } }, ["$expr", "$not"]],
    ["$not with no operand", { $expr: { $not: [] } }, ["$expr", "$not"]],
    ["$not with a bare operand", { $expr: { $not: one } }, ["$expr", "$not"]],
    ["$eq with one operand", { $expr: { $eq: [field] } }, ["$expr", "$eq"]],
    ["$gt with three operands", { $expr: { $gt: [field, one, one] } }, ["$expr", "$gt"]],
    ["$lte with a raw number", { $expr: { $lte: [field, 5] } }, ["$expr", "$lte", 1]],
    ["$and not an array", { $expr: { $and: one } }, ["$expr", "$and"]],
    ["$in without a list", { $expr: { $in: [field, one] } }, ["$expr", "$in", 1]],
    ["$in with raw values", { $expr: { $in: [field, ["a"]] } }, ["$expr", "$in", 1, 0]],
    ["$contains without substr", { $expr: { $contains: { input: field } } }, ["$expr", "$contains", "substr"]],
    [
      "$contains with an unknown key",
      { $expr: { $contains: { input: field, substr: one, ignore_case: true } } },
      ["$expr", "$contains"],
    ],
    [
      "$contains case_insensitive not boolean",
      { $expr: { $contains: { input: field, substr: one, case_insensitive: "yes" } } },
      ["$expr", "$contains", "case_insensitive"],
    ],
    [
      "$convert to an unknown type",
      { $expr: { $eq: [{ $convert: { input: field, to: "float" } }, one] } },
      ["$expr", "$eq", 0, "$convert", "to"],
    ],
    [
      "$convert without input",
      { $expr: { $eq: [{ $convert: { to: "int" } }, one] } },
      ["$expr", "$eq", 0, "$convert", "input"],
    ],
    ["$getField not a string", { $expr: { $eq: [{ $getField: ["a"] }, one] } }, ["$expr", "$eq", 0, "$getField"]],
    ["$literal undefined", { $expr: { $eq: [field, { $literal: undefined }] } }, ["$expr", "$eq", 1, "$literal"]],
    ["$literal NaN", { $expr: { $eq: [field, { $literal: Number.NaN }] } }, ["$expr", "$eq", 1, "$literal"]],
    [
      "$literal holding a list of $literal operands (no Weave server runs it)",
      { $expr: { $eq: [field, { $literal: [{ $literal: "a" }] }] } },
      ["$expr", "$eq", 1, "$literal"],
    ],
    [
      "$literal holding an object of $literal operands",
      { $expr: { $eq: [field, { $literal: { k: { $literal: 1 } } }] } },
      ["$expr", "$eq", 1, "$literal"],
    ],
    [
      "$containsToken without substr",
      { $expr: { $containsToken: { input: field } } },
      ["$expr", "$containsToken", "substr"],
    ],
    ["operand with two keys", { $expr: { $eq: [{ $getField: "a", $literal: 1 }, one] } }, ["$expr", "$eq", 0]],
  ];

  it.each(invalid)("%s", (_name, input, path) => {
    const result = queryExpressionSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(path);
  });

  it("names the unknown operator and the allowed ones", () => {
    const result = queryExpressionSchema.safeParse({ $expr: { $regex: [] } });
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.message).toMatch(
      /Unknown query operator "\$regex"; expected one of \$and, .*\$contains/,
    );
  });

  it("says why a two-key node is refused", () => {
    const result = queryExpressionSchema.safeParse({ $expr: { $and: [], $or: [] } });
    expect(result.error?.issues[0]?.message).toMatch(/exactly one key/);
  });
});

describe("operandSchema and operationSchema", () => {
  it("accepts the three leaf operands only as operands", () => {
    for (const leaf of [one, field, { $convert: { input: field, to: "int" } }]) {
      expect(operandSchema.safeParse(leaf).success).toBe(true);
      expect(operationSchema.safeParse(leaf).success).toBe(false);
    }
  });

  it("validates a deep tree without stack trouble", () => {
    let node: unknown = { $eq: [field, one] };
    for (let depth = 0; depth < 200; depth++) node = { $not: [node] };
    expect(queryExpressionSchema.safeParse({ $expr: node }).success).toBe(true);
  });
});
