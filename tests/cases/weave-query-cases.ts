/**
 * How Weave's trace server orders a call query, fills `columns`, and words annotation progress
 * refusals, as cases shared by the fake's tests (`tests/testing/weave-query-cases.test.ts`, raw
 * HTTP) and the SDK's (`tests/integration/weave-query-cases.test.ts`, `client.calls.query` and
 * `annotationQueues.items.progress` against the fake). Each case names the Weave source it
 * follows (`wandb/weave`), so it can be checked again when Weave changes.
 */

import type { FakeCallRecord } from "../../src/testing/index.js";
import { referenceCalls, SEED_PROJECT_ID } from "../../src/testing/index.js";

const SQLITE = "weave/trace_server/sqlite_trace_server.py (calls_query: order_by, select columns)";
const PROGRESS = "weave/trace_server (annotation queue progress update: transition checks)";
// W&B's production trace server is the ClickHouse one: its ORDER BY puts NULL last in both
// directions (ClickHouse's default NULLS LAST), where the sqlite server reads a running call's
// latency as 0.
const CLICKHOUSE =
  "weave/trace_server/clickhouse_trace_server_batched.py, calls_query_builder (ORDER BY on ClickHouse: NULLS LAST)";

/** The project the records are stored under. */
export const ORDER_PROJECT = SEED_PROJECT_ID;

function call(
  id: string,
  started_at: string,
  ended_at: string | null,
  extra: Partial<FakeCallRecord> & { tier?: unknown },
): FakeCallRecord {
  const base = referenceCalls()[0]!;
  const { tier, ...rest } = extra;
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
    inputs: tier === undefined ? {} : { tier },
    ...rest,
  } as FakeCallRecord;
}

/**
 * Five calls, stored in this order (not time order): two start in the same second, one is
 * still running, two took the same time, `inputs.tier` holds text, a number and nothing.
 */
export const ORDER_RECORDS: readonly FakeCallRecord[] = [
  call("c01", "2026-03-18T10:00:01Z", "2026-03-18T10:00:01.500000Z", {
    tier: "free",
    display_name: "zeta",
  }),
  call("c03", "2026-03-18T10:00:00Z", "2026-03-18T10:00:02Z", { tier: "pro" }),
  call("c04", "2026-03-18T10:00:00Z", "2026-03-18T10:00:05Z", {}),
  call("c02", "2026-03-18T10:00:03Z", "2026-03-18T10:00:03.500000Z", {
    tier: 7,
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
    ids: ["c01", "c03", "c04", "c02", "c05"],
    why: "an empty list has no ORDER BY: insertion order",
    source: SQLITE,
  },
  {
    name: "started_at desc",
    sort_by: [desc("started_at")],
    ids: ["c02", "c05", "c01", "c04", "c03"],
    why: "after a last started_at key, the id goes the same direction",
    source: SQLITE,
  },
  {
    name: "started_at asc",
    sort_by: [asc("started_at")],
    ids: ["c03", "c04", "c01", "c05", "c02"],
    why: "after a last started_at key, the id goes the same direction",
    source: SQLITE,
  },
  {
    name: "latency asc",
    sort_by: [asc("summary.weave.latency_ms")],
    ids: ["c02", "c01", "c03", "c04", "c05"],
    why: "a running call has no latency (NULL), last in ClickHouse's order; equal latencies: id desc",
    source: CLICKHOUSE,
  },
  {
    name: "latency desc",
    sort_by: [desc("summary.weave.latency_ms")],
    ids: ["c04", "c03", "c02", "c01", "c05"],
    why: "NULL last descending too (ClickHouse's NULLS LAST default); equal latencies: id desc",
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
    ids: ["c04", "c02", "c01", "c05", "c03"],
    why: "SQL order: null, then numbers, then text; ties by id desc",
    source: SQLITE,
  },
  {
    name: "inputs.tier desc",
    sort_by: [desc("inputs.tier")],
    ids: ["c05", "c03", "c01", "c02", "c04"],
    why: "text, then numbers, then null; ties by id desc",
    source: SQLITE,
  },
  {
    name: "status asc",
    sort_by: [asc("summary.weave.status")],
    ids: ["c02", "c05", "c04", "c03", "c01"],
    why: "error < running < success, computed as Weave computes it; ties by id desc",
    source: SQLITE,
  },
  {
    name: "trace_name asc",
    sort_by: [asc("summary.weave.trace_name")],
    ids: ["c02", "c05", "c04", "c03", "c01"],
    why: "the display name, else the op name as stored (a full weave:/// ref)",
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

export interface TransitionCase {
  name: string;
  steps: Array<"in_progress" | "completed" | "skipped">;
  /** The refusal of the last step (400), or null when every step is accepted. */
  refusal: string | null;
  source: string;
}

export const TRANSITION_CASES: readonly TransitionCase[] = [
  { name: "a new item to completed", steps: ["completed"], refusal: null, source: PROGRESS },
  { name: "in_progress then skipped", steps: ["in_progress", "skipped"], refusal: null, source: PROGRESS },
  { name: "the same state again", steps: ["completed", "completed"], refusal: null, source: PROGRESS },
  {
    name: "completed then skipped",
    steps: ["completed", "skipped"],
    refusal:
      "Invalid state transition from 'completed' to 'skipped'. Only transitions from 'in_progress' or 'unstarted' are allowed.",
    source: PROGRESS,
  },
  {
    name: "skipped back to in_progress",
    steps: ["skipped", "in_progress"],
    refusal:
      "Cannot transition to 'in_progress' when a record already exists. 'in_progress' can only be set on new items.",
    source: PROGRESS,
  },
];
