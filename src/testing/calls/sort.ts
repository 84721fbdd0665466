/**
 * The order of an explicit `sort_by` (an empty one included), as Weave's trace servers build it:
 *
 * - the id is added, ascending, as the last key when no key names it, after an empty list too,
 *   as W&B's production trace server does (ClickHouse:
 *   `weave/trace_server/clickhouse_trace_server_batched.py`, `calls_query_stream`; the sqlite
 *   server differs: id descending, or in a last `started_at` key's direction, and no ORDER BY
 *   at all for an empty list);
 * - `summary.weave.status`, `summary.weave.latency_ms` and `summary.weave.trace_name` are
 *   computed as Weave computes them for sorting (the trace name is the display name, else the
 *   op name as stored). A running call (no `ended_at`) has no latency: it comes last in both
 *   directions, as on W&B's production trace server, whose ClickHouse orders NULL last by
 *   default (`weave/trace_server/calls_query_builder`; the sqlite server reads it as 0);
 *   other `summary.weave.*` paths read nothing (they are not stored);
 * - dotted paths into `inputs`, `output`, `attributes` and `summary` read JSON values, compared
 *   as SQL compares them: null before numbers (booleans are 1 and 0) before text (objects and
 *   lists are their JSON text), each in the key's direction (so nulls come first ascending and
 *   last descending).
 *
 * The values themselves are ordered as Weave's sqlite server orders them (below); ClickHouse
 * orders a JSON path by presence, then as a number, then as text.
 */
import type { FakeCallRecord } from "../types.js";
import { compareTimes, getPath, isRecord } from "../util.js";

/** One key of `sort_by`. */
export interface SortKey {
  field: string;
  direction: "asc" | "desc";
}

/**
 * The keys Weave orders by for an explicit `sort_by`: the caller's, then the id ascending
 * unless a key names it (an empty list orders by the id alone).
 *
 * @example
 * ```ts
 * weaveOrder([{ field: "inputs.tier", direction: "asc" }]); // [..., { field: "id", direction: "asc" }]
 * ```
 */
export function weaveOrder(sortBy: readonly SortKey[]): SortKey[] {
  const keys = [...sortBy];
  if (!keys.some((k) => k.field === "id")) keys.push({ field: "id", direction: "asc" });
  return keys;
}

const WEAVE_TRACE_INTERNAL = "weave-trace-internal:///";
const LATENCY = "summary.weave.latency_ms";

function sortValue(record: FakeCallRecord, field: string): unknown {
  switch (field) {
    case "summary.weave.status":
      return isRecord(record["summary"]) && isRecord(record["summary"]["weave"])
        ? record["summary"]["weave"]["status"]
        : undefined;
    case "summary.weave.latency_ms": {
      const ended = record["ended_at"];
      if (typeof ended !== "string") return null;
      return Date.parse(ended) - Date.parse(record.started_at);
    }
    case "summary.weave.trace_name": {
      const display = record["display_name"];
      if (typeof display === "string" && display !== "") return display;
      const op = record.op_name;
      if (!op.startsWith(WEAVE_TRACE_INTERNAL)) return op;
      const tail = op.slice(op.lastIndexOf("/") + 1);
      return tail.split(":")[0];
    }
  }
  // Derived members are not stored: Weave's json_extract finds nothing there.
  if (field.startsWith("summary.weave.") || field === "summary.weave") return undefined;
  return getPath(record, field);
}

// SQLite's storage classes in sort order: NULL, then numbers, then text.
function rank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === "number" || typeof v === "boolean") return 1;
  return 2;
}

function text(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

function compareSql(x: unknown, y: unknown, field: string): number {
  const rx = rank(x);
  const ry = rank(y);
  if (rx !== ry) return rx - ry;
  if (rx === 0) return 0;
  if (rx === 1) {
    const a = Number(x);
    const b = Number(y);
    return a === b ? 0 : a < b ? -1 : 1;
  }
  // The stored timestamps order as their times (Weave writes them uniformly).
  if ((field === "started_at" || field === "ended_at") && typeof x === "string" && typeof y === "string")
    return compareTimes(x, y);
  const a = text(x);
  const b = text(y);
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * A comparator of derived records for `keys` (from {@link weaveOrder}).
 */
export function compareForWeave(keys: readonly SortKey[]): (a: FakeCallRecord, b: FakeCallRecord) => number {
  return (a, b) => {
    for (const { field, direction } of keys) {
      const x = sortValue(a, field);
      const y = sortValue(b, field);
      // ClickHouse's NULLS LAST, whatever the direction (see the module note).
      if (field === LATENCY && (x === null) !== (y === null)) return x === null ? 1 : -1;
      const c = compareSql(x, y, field);
      if (c !== 0) return direction === "desc" ? -c : c;
    }
    return 0;
  };
}
