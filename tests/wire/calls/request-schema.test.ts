import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { q } from "../../../src/lib/query-builder.js";
import {
  type CallsQueryOptions,
  type CallsQueryParams,
  callsQueryOptionsSchema,
  callsQueryParamsSchema,
  type QueryExpression,
} from "../../../src/wire/calls/index.js";

const project_id = "acme/support-bot";

describe("callsQueryParamsSchema: valid bodies pass unchanged", () => {
  const valid: Array<[string, CallsQueryParams]> = [
    ["only project_id", { project_id }],
    ["Weave's names of the user and run filters", { project_id, filter: { wb_user_ids: ["u1"], wb_run_ids: ["r1"] } }],
    ["both name sets side by side", { project_id, filter: { wb_user_ids: ["u1"], svc_user_ids: ["u1"] } }],
    [
      "the body Weave's Python client sends (latest_only, null wb_*)",
      { project_id, filter: { wb_user_ids: null, wb_run_ids: null, op_names: null }, latest_only: false, limit: 10 },
    ],
    ["latest_only true", { project_id, latest_only: true }],
    [
      "$containsToken",
      {
        project_id,
        query: {
          $expr: {
            $containsToken: { input: { $getField: "inputs.q" }, substr: { $literal: "reset" }, case_insensitive: true },
          },
        },
      },
    ],
    [
      "$getField with an escaped dot",
      { project_id, query: { $expr: { $eq: [{ $getField: "attributes.a\\.b" }, { $literal: 1 }] } } },
    ],
    [
      "every member set",
      {
        project_id,
        columns: ["id", "op_name", "summary"],
        expand_columns: ["inputs.self.message"],
        filter: {
          call_ids: ["c1"],
          input_refs: ["weave:///acme/support-bot/object/doc:abc"],
          op_names: ["weave:///acme/support-bot/op/answer_ticket:abc"],
          output_refs: [],
          parent_ids: ["p1"],
          thread_ids: ["ticket-48213"],
          trace_ids: ["t1"],
          turn_ids: ["u1"],
          svc_run_ids: ["acme/support-bot/k3j2h1g0"],
          svc_user_ids: ["VXNlcjoxMjM0NTY="],
          trace_roots_only: true,
        },
        include_costs: true,
        include_feedback: false,
        include_storage_size: true,
        include_total_storage_size: false,
        include_usernames: true,
        limit: 0,
        offset: 25,
        query: { $expr: { $eq: [{ $getField: "inputs.user_tier" }, { $literal: "pro" }] } },
        return_expanded_column_values: false,
        sort_by: [
          { field: "started_at", direction: "desc" },
          { field: "id", direction: "asc" },
          { field: "summary.weave.latency_ms" },
        ],
      },
    ],
    [
      "every optional member null",
      {
        project_id,
        columns: null,
        expand_columns: null,
        filter: {
          call_ids: null,
          input_refs: null,
          op_names: null,
          output_refs: null,
          parent_ids: null,
          thread_ids: null,
          trace_ids: null,
          turn_ids: null,
          svc_run_ids: null,
          svc_user_ids: null,
          trace_roots_only: null,
        },
        include_costs: null,
        include_feedback: null,
        include_storage_size: null,
        include_total_storage_size: null,
        include_usernames: null,
        limit: null,
        offset: null,
        query: null,
        return_expanded_column_values: null,
        sort_by: null,
      },
    ],
    ["filter null", { project_id, filter: null }],
    [
      "query from the builder",
      { project_id, query: q.where(q.gt(q.field("summary.weave.latency_ms").as("double"), 1000)) },
    ],
  ];

  it.each(valid)("%s", (_name, input) => {
    const result = callsQueryParamsSchema.safeParse(input);
    expect(result.success).toBe(true);
    expect(result.data).toStrictEqual(input);
  });
});

describe("callsQueryParamsSchema: invalid bodies are refused at the right path", () => {
  const invalid: Array<[string, unknown, PropertyKey[]]> = [
    ["missing project_id", {}, ["project_id"]],
    ["empty project_id", { project_id: "" }, ["project_id"]],
    ["project_id without entity", { project_id: "support-bot" }, ["project_id"]],
    ["project_id with whitespace", { project_id: "acme/support bot" }, ["project_id"]],
    ["project_id not a string", { project_id: 7 }, ["project_id"]],
    ["unknown top-level key (typo)", { project_id, limt: 5 }, []],
    ["negative limit", { project_id, limit: -1 }, ["limit"]],
    ["non-integer limit", { project_id, limit: 1.5 }, ["limit"]],
    ["limit as string", { project_id, limit: "10" }, ["limit"]],
    ["negative offset", { project_id, offset: -3 }, ["offset"]],
    ["non-integer offset", { project_id, offset: 0.5 }, ["offset"]],
    ["columns not an array", { project_id, columns: "id" }, ["columns"]],
    ["expand_columns with a number", { project_id, expand_columns: [1] }, ["expand_columns", 0]],
    ["include_costs not boolean", { project_id, include_costs: "yes" }, ["include_costs"]],
    ["include_usernames not boolean", { project_id, include_usernames: 1 }, ["include_usernames"]],
    [
      "return_expanded_column_values not boolean",
      { project_id, return_expanded_column_values: "false" },
      ["return_expanded_column_values"],
    ],
    ["misspelt filter key", { project_id, filter: { op_name: ["x"] } }, ["filter", "op_name"]],
    ["wb_user_ids not a list", { project_id, filter: { wb_user_ids: "u" } }, ["filter", "wb_user_ids"]],
    ["latest_only not boolean", { project_id, latest_only: "yes" }, ["latest_only"]],
    [
      "bare array inside $literal",
      { project_id, query: { $expr: { $eq: [{ $getField: "inputs.t" }, { $literal: ["a"] }] } } },
      ["query", "$expr", "$eq", 1, "$literal"],
    ],
    ["filter ids not strings", { project_id, filter: { call_ids: [1] } }, ["filter", "call_ids", 0]],
    [
      "trace_roots_only not boolean",
      { project_id, filter: { trace_roots_only: "true" } },
      ["filter", "trace_roots_only"],
    ],
    ["sort_by not an array", { project_id, sort_by: { field: "id" } }, ["sort_by"]],
    ["sort item without field", { project_id, sort_by: [{ direction: "asc" }] }, ["sort_by", 0, "field"]],
    ["sort item with empty field", { project_id, sort_by: [{ field: "" }] }, ["sort_by", 0, "field"]],
    ["bad direction", { project_id, sort_by: [{ field: "id", direction: "up" }] }, ["sort_by", 0, "direction"]],
    [
      "upper-case direction",
      { project_id, sort_by: [{ field: "id", direction: "DESC" }] },
      ["sort_by", 0, "direction"],
    ],
    ["unknown sort key", { project_id, sort_by: [{ field: "id", order: "asc" }] }, ["sort_by", 0]],
    ["query without $expr", { project_id, query: { $and: [] } }, ["query"]],
    [
      "$not with two operands",
      { project_id, query: { $expr: { $not: [{ $literal: 1 }, { $literal: 2 }] } } },
      ["query", "$expr", "$not"],
    ],
    [
      "$eq with one operand",
      { project_id, query: { $expr: { $eq: [{ $getField: "id" }] } } },
      ["query", "$expr", "$eq"],
    ],
    [
      "unknown operator",
      { project_id, query: { $expr: { $ne: [{ $getField: "id" }, { $literal: 1 }] } } },
      ["query", "$expr"],
    ],
    [
      "deep malformed node",
      { project_id, query: { $expr: { $and: [{ $literal: true }, { $or: [{ $gt: [{ $getField: "a" }, 5] }] }] } } },
      ["query", "$expr", "$and", 1, "$or", 0, "$gt", 1],
    ],
  ];

  it.each(invalid)("%s", (_name, input, path) => {
    const result = callsQueryParamsSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toContainEqual(path);
  });

  it("says what to write instead of a list inside $literal (a membership test with $in)", () => {
    const result = callsQueryParamsSchema.safeParse({
      project_id,
      query: { $expr: { $in: [{ $getField: "inputs.t" }, [{ $literal: [{ $literal: "a" }, { $literal: 1 }] }]] } },
    });
    expect(result.error?.issues[0]?.path).toEqual(["query", "$expr", "$in", 1, 0, "$literal"]);
    expect(result.error?.issues[0]?.message).toContain("test a list with $in (q.in)");
  });

  it("says what to write instead of an object inside $literal (a comparison per member)", () => {
    const result = callsQueryParamsSchema.safeParse({
      project_id,
      query: { $expr: { $eq: [{ $getField: "inputs.o" }, { $literal: { tier: "pro" } }] } },
    });
    expect(result.error?.issues[0]?.path).toEqual(["query", "$expr", "$eq", 1, "$literal"]);
    expect(result.error?.issues[0]?.message).toContain("an object member by member");
  });

  it("names the unknown top-level key", () => {
    const result = callsQueryParamsSchema.safeParse({ project_id, limt: 5 });
    expect(result.error?.issues[0]).toMatchObject({ code: "unrecognized_keys", keys: ["limt"] });
  });
});

describe("callsQueryParamsSchema: project_id", () => {
  it('gives the same message as annotation progress for a bare project name: "<entity>/<project>"', () => {
    const result = callsQueryParamsSchema.safeParse({ project_id: "support-bot" });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['project_id must be "<entity>/<project>"']);
  });
});

describe("callsQueryParams types", () => {
  it("types query as the expression tree and keeps the spec's names", () => {
    expectTypeOf<CallsQueryParams["query"]>().toEqualTypeOf<QueryExpression | null | undefined>();
    expectTypeOf<NonNullable<CallsQueryParams["filter"]>>().toHaveProperty("svc_user_ids");
    expectTypeOf<NonNullable<CallsQueryParams["filter"]>>().toHaveProperty("svc_run_ids");
    expectTypeOf<CallsQueryParams>().toHaveProperty("project_id").toEqualTypeOf<string>();
  });
});

describe("callsQueryOptionsSchema", () => {
  it.each([
    [{}],
    [{ pageSize: 1 }],
    [{ pageSize: 1000, accept: "application/jsonl" }],
    [{ pageSize: 50, signal: new AbortController().signal, timeout: 5 }],
  ])("accepts %o unchanged", (input) => {
    const result = callsQueryOptionsSchema.safeParse(input);
    expect(result.success).toBe(true);
    expect(result.data).toStrictEqual(input);
  });

  it.each([
    ["pageSize 0", { pageSize: 0 }, ["pageSize"]],
    ["negative pageSize", { pageSize: -10 }, ["pageSize"]],
    ["fractional pageSize", { pageSize: 2.5 }, ["pageSize"]],
    ["pageSize Infinity", { pageSize: Infinity }, ["pageSize"]],
    ["pageSize as string", { pageSize: "100" }, ["pageSize"]],
    ["empty accept", { accept: "" }, ["accept"]],
  ])("refuses %s", (_name, input, path) => {
    const result = callsQueryOptionsSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it("matches the CallsQueryOptions interface", () => {
    expectTypeOf<CallsQueryOptions["pageSize"]>().toEqualTypeOf<z.input<typeof callsQueryOptionsSchema>["pageSize"]>();
    expectTypeOf<CallsQueryOptions["accept"]>().toEqualTypeOf<z.input<typeof callsQueryOptionsSchema>["accept"]>();
  });
});
