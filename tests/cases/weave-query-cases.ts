/**
 * How Weave's trace server orders a call query, fills `columns`, derives latency and storage
 * sizes, matches `$containsToken`, refuses what it cannot run, and words annotation progress
 * refusals, as cases shared by the fake's tests (`tests/testing/weave-query-cases.test.ts`, raw
 * HTTP) and the SDK's (`tests/integration/weave-query-cases.test.ts`, `client.calls.query` and
 * `annotationQueues.items.progress` against the fake). Each case names the Weave source it
 * follows (`wandb/weave`), so it can be checked again when Weave changes. Where Weave's two
 * servers differ, the cases follow ClickHouse, which W&B runs.
 */

import type { FakeCallRecord } from "../../src/testing/index.js";
import { referenceCalls, SEED_PROJECT_ID } from "../../src/testing/index.js";
import type { RequestCase } from "./request-case.js";

const SQLITE = "weave/trace_server/sqlite_trace_server.py (calls_query: order_by, select columns)";
const PROGRESS = "weave/trace_server (annotation queue progress update: transition checks)";
// W&B's production trace server is the ClickHouse one: its ORDER BY puts NULL last in both
// directions (ClickHouse's default NULLS LAST), where the sqlite server reads a running call's
// latency as 0.
const CLICKHOUSE =
  "weave/trace_server/clickhouse_trace_server_batched.py, calls_query_builder (ORDER BY on ClickHouse: NULLS LAST)";
// ClickHouse's calls_query_stream adds `id asc` after the caller's keys unless one names the id,
// after an empty list too (the sqlite server adds id desc, and nothing for an empty list).
const CLICKHOUSE_TIES =
  "weave/trace_server/clickhouse_trace_server_batched.py (calls_query_stream: cq.add_order('id', 'asc') after the sort keys)";
const LATENCY = "weave/trace_server/trace_server_common.py (make_derived_summary_fields: microseconds // 1000)";
const STORAGE =
  "weave/trace_server/calls_query_builder/calls_query_builder.py (calls_merged_stats: attributes + inputs + output + summary sizes); sqlite_trace_server.py (length(attributes) + length(inputs) + length(output) + length(summary))";
const TOKEN = "weave/trace_server/interface/query.py ($containsToken); ClickHouse hasToken / hasTokenCaseInsensitive";
const NESTED_LITERAL =
  "weave/trace_server/interface/query.py (LiteralOperation takes it); weave/trace_server/orm.py (python_value_to_ch_type raises ValueError: Unknown value type)";
const LIMITS =
  "weave/trace_server/trace_server_interface.py (CallsQueryReq.limit: int | None); calls_query_builder.py (CallsQuery.set_limit / set_offset raise ValueError)";

/** The project the records are stored under. */
export const ORDER_PROJECT = SEED_PROJECT_ID;

function call(
  id: string,
  started_at: string,
  ended_at: string | null,
  extra: Partial<FakeCallRecord> & { tier?: unknown; q?: string },
): FakeCallRecord {
  const base = referenceCalls()[0]!;
  const { tier, q, ...rest } = extra;
  return {
    ...base,
    id,
    trace_id: `t-${id}`,
    parent_id: null,
    project_id: ORDER_PROJECT,
    op_name: "weave:///acme/bot/op/answer:abc",
    display_name: null,
    started_at,
    ended_at,
    exception: null,
    summary: {},
    inputs: { ...(tier === undefined ? {} : { tier }), ...(q === undefined ? {} : { q }) },
    ...rest,
  } as FakeCallRecord;
}

/**
 * Five calls, stored in this order (not time order): two start in the same second, one is
 * still running, two took the same time, `inputs.tier` holds text, a number and nothing,
 * `inputs.q` a question (one call takes 2000.9 ms).
 */
export const ORDER_RECORDS: readonly FakeCallRecord[] = [
  call("c01", "2026-03-18T10:00:01Z", "2026-03-18T10:00:01.500000Z", {
    tier: "free",
    q: "How do I reset my password?",
    display_name: "zeta",
  }),
  call("c03", "2026-03-18T10:00:00Z", "2026-03-18T10:00:02.000900Z", { tier: "pro", q: "Password reset-link expired" }),
  call("c04", "2026-03-18T10:00:00Z", "2026-03-18T10:00:05Z", { q: "resetting the router" }),
  call("c02", "2026-03-18T10:00:03Z", "2026-03-18T10:00:03.500000Z", {
    tier: 7,
    q: "RESET please",
    exception: "boom",
    op_name: "weave:///acme/aaa/op/zulu:1",
  }),
  call("c05", "2026-03-18T10:00:01Z", null, { tier: "pro" }),
];

export interface OrderCase {
  name: string;
  sort_by: Array<{ field: string; direction: "asc" | "desc" }> | null;
  ids: string[];
  why: string;
  source: string;
}

const asc = (field: string) => ({ field, direction: "asc" as const });
const desc = (field: string) => ({ field, direction: "desc" as const });

export const ORDER_CASES: readonly OrderCase[] = [
  {
    name: "no sort_by",
    sort_by: null,
    ids: ["c03", "c04", "c01", "c05", "c02"],
    why: "default: started_at asc, then id asc",
    source: SQLITE,
  },
  {
    name: "sort_by []",
    sort_by: [],
    ids: ["c01", "c02", "c03", "c04", "c05"],
    why: "ClickHouse still adds its id key: an empty list orders by the id alone",
    source: CLICKHOUSE_TIES,
  },
  {
    name: "started_at desc",
    sort_by: [desc("started_at")],
    ids: ["c02", "c01", "c05", "c03", "c04"],
    why: "calls that start in the same second: id ascending after the sort key",
    source: CLICKHOUSE_TIES,
  },
  {
    name: "started_at asc",
    sort_by: [asc("started_at")],
    ids: ["c03", "c04", "c01", "c05", "c02"],
    why: "calls that start in the same second: id ascending after the sort key",
    source: CLICKHOUSE_TIES,
  },
  {
    name: "latency asc",
    sort_by: [asc("summary.weave.latency_ms")],
    ids: ["c01", "c02", "c03", "c04", "c05"],
    why: "a running call has no latency (NULL), last in ClickHouse's order; equal latencies: id asc",
    source: CLICKHOUSE,
  },
  {
    name: "latency desc",
    sort_by: [desc("summary.weave.latency_ms")],
    ids: ["c04", "c03", "c01", "c02", "c05"],
    why: "NULL last descending too (ClickHouse's NULLS LAST default); equal latencies: id asc",
    source: CLICKHOUSE,
  },
  {
    name: "latency asc, then id asc",
    sort_by: [asc("summary.weave.latency_ms"), asc("id")],
    ids: ["c01", "c02", "c03", "c04", "c05"],
    why: "an explicit id key: no tie-break added; the running call still last",
    source: CLICKHOUSE,
  },
  {
    name: "inputs.tier asc",
    sort_by: [asc("inputs.tier")],
    ids: ["c04", "c02", "c01", "c03", "c05"],
    why: "SQL order: null, then numbers, then text; ties by id asc",
    source: SQLITE,
  },
  {
    name: "inputs.tier desc",
    sort_by: [desc("inputs.tier")],
    ids: ["c03", "c05", "c01", "c02", "c04"],
    why: "text, then numbers, then null; ties by id asc (the id key keeps its own direction)",
    source: SQLITE,
  },
  {
    name: "status asc",
    sort_by: [asc("summary.weave.status")],
    ids: ["c02", "c05", "c01", "c03", "c04"],
    why: "error < running < success, computed as Weave computes it; ties by id asc",
    source: SQLITE,
  },
  {
    name: "trace_name asc",
    sort_by: [asc("summary.weave.trace_name")],
    ids: ["c02", "c03", "c04", "c05", "c01"],
    why: "the display name, else the op name as stored (a full weave:/// ref); ties by id asc",
    source: SQLITE,
  },
  {
    name: "id desc",
    sort_by: [desc("id")],
    ids: ["c05", "c04", "c03", "c02", "c01"],
    why: "the id alone",
    source: SQLITE,
  },
];

export interface ColumnsCase {
  name: string;
  id: string;
  columns: string[];
  /** Members expected to equal the full record's. */
  same: string[];
  /** Members expected null. */
  nulls: string[];
  /** The summary expected, when it is not the full record's. */
  summary?: Record<string, unknown>;
  source: string;
}

export const COLUMNS_CASES: readonly ColumnsCase[] = [
  {
    name: "summary brings ended_at, exception and display_name",
    id: "c02",
    columns: ["summary"],
    same: ["ended_at", "exception", "display_name", "summary", "op_name", "started_at"],
    nulls: ["output", "wb_run_id"],
    source: SQLITE,
  },
  {
    name: "a dotted summary column counts as summary",
    id: "c01",
    columns: ["summary.weave.latency_ms"],
    same: ["ended_at", "display_name", "summary"],
    nulls: ["output"],
    source: SQLITE,
  },
  {
    name: "without summary, a summary derived from the selected fields",
    id: "c02",
    columns: ["output"],
    same: ["output", "op_name"],
    nulls: ["ended_at", "exception", "display_name"],
    summary: { weave: { status: "running", trace_name: "zulu" } },
    source: SQLITE,
  },
  {
    name: "without summary but with ended_at: the latency is derived",
    id: "c01",
    columns: ["ended_at"],
    same: ["ended_at"],
    nulls: ["display_name", "exception"],
    summary: { weave: { status: "success", trace_name: "answer", latency_ms: 500 } },
    source: SQLITE,
  },
];

export interface DerivedCase {
  name: string;
  id: string;
  /** The `include_*` flags of the query. */
  flags: { include_storage_size?: boolean; include_total_storage_size?: boolean };
  /** Members of the record, and `latency_ms` of its `summary.weave`, as Weave returns them. */
  expect: { storage_size_bytes?: number | null; total_storage_size_bytes?: number | null; latency_ms?: number };
  why: string;
  source: string;
}

// The sizes are the lengths of Python's json.dumps of each member, as Weave stores them
// (attributes 109, inputs 52, output 83 and summary `{}` 2 for c01).
export const DERIVED_CASES: readonly DerivedCase[] = [
  {
    name: "storage size: the four stored JSON texts, not the whole record",
    id: "c01",
    flags: { include_storage_size: true },
    expect: { storage_size_bytes: 246 },
    why: "attributes 109 + inputs 52 + output 83 + summary 2",
    source: STORAGE,
  },
  {
    name: "storage size of a running call: output and summary not stored yet",
    id: "c05",
    flags: { include_storage_size: true },
    expect: { storage_size_bytes: 124 },
    why: "attributes 109 + inputs 15; output and summary are written when the call ends",
    source: STORAGE,
  },
  {
    name: "total storage size of a trace root alone in its trace",
    id: "c01",
    flags: { include_total_storage_size: true },
    expect: { total_storage_size_bytes: 246, storage_size_bytes: null },
    why: "the same four sizes, added up over the trace",
    source: STORAGE,
  },
  {
    name: "latency floored to whole milliseconds",
    id: "c03",
    flags: {},
    expect: { latency_ms: 2000 },
    why: "2000.9 ms: microseconds // 1000, not rounded (2001)",
    source: LATENCY,
  },
  {
    name: "latency of a call that ends on a whole millisecond",
    id: "c01",
    flags: {},
    expect: { latency_ms: 500 },
    why: "500 ms",
    source: LATENCY,
  },
];

export interface TokenCase {
  name: string;
  /** The query's `$expr`. */
  expr: Record<string, unknown>;
  /** The matching calls, in default order. */
  ids: string[];
  why: string;
  source: string;
}

const tokenOf = (substr: string, caseInsensitive?: boolean) => ({
  $containsToken: {
    input: { $getField: "inputs.q" },
    substr: { $literal: substr },
    ...(caseInsensitive === undefined ? {} : { case_insensitive: caseInsensitive }),
  },
});

export const TOKEN_CASES: readonly TokenCase[] = [
  {
    name: "a whole token, case-sensitive",
    expr: tokenOf("reset"),
    ids: ["c03", "c01"],
    why: "reset-link holds the token reset; resetting does not, RESET differs in case",
    source: TOKEN,
  },
  {
    name: "a whole token, case-insensitive",
    expr: tokenOf("reset", true),
    ids: ["c03", "c01", "c02"],
    why: "hasTokenCaseInsensitive: RESET matches",
    source: TOKEN,
  },
  {
    name: "a word inside a longer one is no token",
    expr: tokenOf("rout"),
    ids: [],
    why: "router is one token",
    source: TOKEN,
  },
  {
    name: "$contains beside it: a substring anywhere",
    expr: { $contains: { input: { $getField: "inputs.q" }, substr: { $literal: "reset" } } },
    ids: ["c03", "c04", "c01"],
    why: "position() > 0: resetting matches",
    source: "weave/trace_server/calls_query_builder/conditions.py (ContainsOperation: position)",
  },
];

export interface RefusalCase {
  name: string;
  /** The call query body, without `project_id`. */
  body: Record<string, unknown>;
  /** What W&B's trace server answers. */
  status: number;
  /** The start of its `reason`. */
  reason: string;
  why: string;
  source: string;
}

// Requests Weave's request model takes but its ClickHouse server cannot run: the SDK refuses
// them before sending; the fake answers as the server does.
export const REFUSAL_CASES: readonly RefusalCase[] = [
  {
    name: "$literal holding a list of $literal operands",
    body: { query: { $expr: { $eq: [{ $getField: "inputs.tier" }, { $literal: [{ $literal: "pro" }] }] } } },
    status: 400,
    reason: "Unknown value type: [LiteralOperation(literal_='pro')]",
    why: "no ClickHouse parameter type for a list (sqlite: a 500)",
    source: NESTED_LITERAL,
  },
  {
    name: "$literal holding an object of $literal operands",
    body: { query: { $expr: { $eq: [{ $getField: "inputs.o" }, { $literal: { tier: { $literal: "pro" } } }] } } },
    status: 400,
    reason: "Unknown value type: {'tier': LiteralOperation(literal_='pro')}",
    why: "no ClickHouse parameter type for a dict (sqlite: a 500)",
    source: NESTED_LITERAL,
  },
  {
    name: "limit -1",
    body: { limit: -1 },
    status: 400,
    reason: "Limit must be a positive integer",
    why: "any int passes the request model; the query builder refuses a negative limit",
    source: LIMITS,
  },
  {
    name: "offset -1",
    body: { offset: -1 },
    status: 400,
    reason: "Offset must be a positive integer",
    why: "the same for the offset",
    source: LIMITS,
  },
];

const CALL_ID = referenceCalls()[0]!.id;
const CALL_READ = "weave/trace_server/trace_server_interface.py (CallReadReq)";

/** `calls.retrieve` (`POST /call/read`): Weave's strict `CallReadReq`. */
export const CALL_READ_REQUEST_CASES: readonly RequestCase[] = [
  {
    name: "a call by id",
    operation: "calls.retrieve",
    params: { project_id: SEED_PROJECT_ID, id: CALL_ID },
    real: { accepted: true },
    sdk: "sends",
    source: CALL_READ,
  },
  {
    name: "an id the project does not have (answered with no call)",
    operation: "calls.retrieve",
    params: { project_id: SEED_PROJECT_ID, id: "0195a3c1-0000-7000-8000-000000000000", include_costs: true },
    real: { accepted: true },
    sdk: "sends",
    source: `${CALL_READ}; sqlite_trace_server.py call_read`,
  },
  {
    name: "without project_id",
    operation: "calls.retrieve",
    params: { id: CALL_ID },
    real: { status: 422 },
    sdk: { refuses: "project_id" },
    source: CALL_READ,
  },
  {
    name: "a misspelt include flag",
    operation: "calls.retrieve",
    params: { project_id: SEED_PROJECT_ID, id: CALL_ID, include_cost: true },
    real: { status: 422 },
    sdk: { refuses: "include_cost" },
    source: `${CALL_READ} (BaseModelStrict: extra keys forbidden)`,
  },
];
