/**
 * `POST /calls/stream_query`: validates the query like the trace server (`checks.ts`), filters,
 * evaluates `query`, sorts, pages, projects `columns`, and streams JSONL one line per record
 * without building the whole body.
 *
 * With `columns`, a record keeps every field, as Weave answers: the requested top-level members
 * (a dotted column keeps its top-level member) and the required `id`, `project_id`, `op_name`,
 * `trace_id` and `started_at` filled, the others null (`attributes` and `inputs` as `{}`).
 * Order: by time value (not text) and then id; explicit sorts (`sort_by: []` included) as
 * `sort.ts` says: the id tie-break of W&B's ClickHouse server, derived fields, nulls.
 * With `columns` holding `summary`, `ended_at`, `exception` and `display_name` come back too,
 * as Weave adds them; without it, the summary is the derived one of the selected fields.
 * `filter.svc_user_ids`/`svc_run_ids` are ignored, as a real Weave server ignores them.
 */

import { detailError, jsonResponse, requireJsonBody } from "../responses.js";
import type { Route } from "../route.js";
import { route } from "../route.js";
import type { FakeCallRecord, FakeRequest, ResponsePlan } from "../types.js";
import { isRecord } from "../util.js";
import { bool, nullable, obj, str, validateBody } from "../validate.js";
import { type CallsQuery, checkCallsQuery } from "./checks.js";
import { latencyMs } from "./derived.js";
import { handleOtelTraces, type OtlpState } from "./otlp.js";
import { matchesQuery } from "./query-eval.js";
import { compareForWeave, weaveOrder } from "./sort.js";
import type { CallStore, DeriveFlags, StoredCall } from "./store.js";
import { deriveCall, shortOpName } from "./store.js";

function collectRefs(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === "string") {
    if (value.startsWith("weave:///")) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, out);
  } else if (isRecord(value)) {
    for (const v of Object.values(value)) collectRefs(v, out);
  }
  return out;
}

function opNameMatches(opName: string, patterns: string[]): boolean {
  return patterns.some((p) => (p.endsWith(":*") ? opName.startsWith(p.slice(0, -1)) : opName === p));
}

function filterMatches(filter: NonNullable<CallsQuery["filter"]>, record: FakeCallRecord): boolean {
  const inList = (list: string[] | null | undefined, value: unknown): boolean =>
    list === null || list === undefined || (typeof value === "string" && list.includes(value));
  if (!inList(filter.call_ids, record.id)) return false;
  if (!inList(filter.trace_ids, record.trace_id)) return false;
  if (!inList(filter.parent_ids, record["parent_id"])) return false;
  if (!inList(filter.thread_ids, record["thread_id"])) return false;
  if (!inList(filter.turn_ids, record["turn_id"])) return false;
  // Only Weave's wb_* names filter: a real Weave server ignores the spec's svc_*, and so does
  // the fake, so tests written against it see what production returns.
  if (!inList(filter.wb_user_ids, record["wb_user_id"])) return false;
  if (!inList(filter.wb_run_ids, record["wb_run_id"])) return false;
  if (filter.op_names != null && !opNameMatches(record.op_name, filter.op_names)) return false;
  if (filter.input_refs != null) {
    const refs = collectRefs(record.inputs, new Set());
    if (!filter.input_refs.some((r) => refs.has(r))) return false;
  }
  if (filter.output_refs != null) {
    const refs = collectRefs(record["output"], new Set());
    if (!filter.output_refs.some((r) => refs.has(r))) return false;
  }
  if (filter.trace_roots_only === true && record["parent_id"] !== null && record["parent_id"] !== undefined)
    return false;
  return true;
}

const REQUIRED_COLUMNS = ["id", "project_id", "op_name", "trace_id", "started_at"];

// Weave answers a query with `columns` with every field of the record: the requested and
// required ones filled, the others null (`attributes` and `inputs` as {}). Asking for `summary`
// (or costs) selects ended_at, exception and display_name too, which its derived members need;
// without it the summary is derived from what was selected (sqlite_trace_server.calls_query).
function project(record: FakeCallRecord, columns: string[], costs: boolean): FakeCallRecord {
  const keep = new Set([...REQUIRED_COLUMNS, ...columns.map((c) => c.split(".")[0]!)]);
  if (keep.has("summary") || costs) for (const k of ["ended_at", "exception", "display_name"]) keep.add(k);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    out[key] = keep.has(key) ? record[key] : key === "attributes" || key === "inputs" ? {} : null;
  }
  if (!keep.has("summary")) out["summary"] = { weave: derivedFrom(out as FakeCallRecord, record) };
  return out as FakeCallRecord;
}

// The derived summary Weave makes from an empty stored summary and the selected fields.
function derivedFrom(selected: FakeCallRecord, full: FakeCallRecord): Record<string, unknown> {
  const fullWeave = isRecord(full["summary"]) && isRecord(full["summary"]["weave"]) ? full["summary"]["weave"] : {};
  const ended = selected["ended_at"];
  const weave: Record<string, unknown> = {
    status: selected["exception"] != null ? "error" : typeof ended === "string" ? "success" : "running",
  };
  const display = selected["display_name"];
  if (typeof display === "string" && display !== "") weave["display_name"] = display;
  else weave["trace_name"] = shortOpName(selected.op_name);
  const latency = typeof ended === "string" ? latencyMs(selected.started_at, ended) : undefined;
  if (latency !== undefined) weave["latency_ms"] = latency;
  if (fullWeave["feedback"] !== undefined) weave["feedback"] = fullWeave["feedback"];
  return weave;
}

// Weave's default order (started_at, then id), which streams without sorting.
function isDefaultOrder(sortBy: CallsQuery["sort_by"]): boolean {
  if (sortBy == null) return true;
  const [first] = sortBy;
  return sortBy.length === 1 && first!.field === "started_at" && first!.direction === "asc";
}

/**
 * Runs a validated query, yielding the matching derived records in order.
 */
export function* runCallsQuery(store: CallStore, q: CallsQuery): Generator<FakeCallRecord> {
  const flags: DeriveFlags = {
    costs: q.include_costs === true,
    feedback: q.include_feedback === true,
    storageSize: q.include_storage_size === true,
    totalStorageSize: q.include_total_storage_size === true,
    usernames: q.include_usernames === true,
  };
  const derive = (s: StoredCall): FakeCallRecord =>
    deriveCall(s, flags, (traceId) => store.traceSize(traceId), store.feedbackOf);
  const accept = (record: FakeCallRecord): boolean =>
    (q.filter == null || filterMatches(q.filter, record)) && (q.query == null || matchesQuery(q.query, record));
  const columns = q.columns;
  const out = (record: FakeCallRecord): FakeCallRecord =>
    columns == null || columns.length === 0 ? record : project(record, columns, q.include_costs === true);
  const offset = q.offset ?? 0;
  const limit = q.limit ?? Infinity;
  if (limit <= 0) return;

  if (isDefaultOrder(q.sort_by)) {
    let skipped = 0;
    let emitted = 0;
    for (const stored of store.scan(q.project_id)) {
      const record = derive(stored);
      if (!accept(record)) continue;
      if (skipped < offset) {
        skipped += 1;
        continue;
      }
      yield out(record);
      emitted += 1;
      if (emitted >= limit) return;
    }
    return;
  }
  // An explicit order needs every match at hand; memory then grows with the match count.
  const matches: FakeCallRecord[] = [];
  for (const stored of store.scan(q.project_id)) {
    const record = derive(stored);
    if (accept(record)) matches.push(record);
  }
  matches.sort(compareForWeave(weaveOrder(q.sort_by!)));
  const end = Math.min(matches.length, offset + limit);
  for (let i = offset; i < end; i++) yield out(matches[i]!);
}

async function* jsonlLines(records: Iterable<FakeCallRecord>, signal: AbortSignal): AsyncGenerator<string> {
  for (const record of records) {
    if (signal.aborted) return;
    yield `${JSON.stringify(record)}\n`;
  }
}

function contentTypeFor(accept: string | undefined): string {
  const value = accept?.split(",")[0]?.trim();
  return value === undefined || value === "" || value.includes("*") ? "application/jsonl" : value;
}

/**
 * Handles `POST /calls/stream_query` (auth already checked).
 */
export function handleCallsQuery(req: FakeRequest, store: CallStore): ResponsePlan {
  const parsed = requireJsonBody(req.body, req.json);
  if (!parsed.ok) return parsed.error;
  const checked = checkCallsQuery(parsed.value);
  if (!checked.ok) return checked.error;
  return {
    kind: "respond",
    status: 200,
    headers: { "content-type": contentTypeFor(req.headers["accept"]) },
    body: jsonlLines(runCallsQuery(store, checked.query), req.signal),
  };
}

const readCheck = obj(
  {
    project_id: { check: str(), required: true },
    id: { check: str(), required: true },
    include_costs: { check: nullable(bool()) },
    include_storage_size: { check: nullable(bool()) },
    include_total_storage_size: { check: nullable(bool()) },
  },
  "forbid",
);

/**
 * Handles `POST /call/read`: Weave's `CallReadReq` (strict), answered as its servers do, with the
 * call query's first match for the id, or `{ "call": null }` (`weave/trace_server/sqlite_trace_server.py`).
 */
function handleCallRead(req: FakeRequest, store: CallStore): ResponsePlan {
  const parsed = requireJsonBody(req.body, req.json);
  if (!parsed.ok) return parsed.error;
  const issues = validateBody(readCheck, parsed.value);
  if (issues.length > 0) return detailError(issues);
  const { id, ...include } = parsed.value as { project_id: string; id: string };
  const checked = checkCallsQuery({ ...include, filter: { call_ids: [id] }, limit: 1 });
  if (!checked.ok) return checked.error;
  const [call] = runCallsQuery(store, checked.query);
  return jsonResponse(200, { call: call ?? null });
}

/**
 * The calls' routes: the call query, one call by id, and OTLP ingestion (`otlp.ts`), which also takes the key
 * alone, in `wandb-api-key`, as OpenTelemetry exporters send it.
 */
export const CALL_ROUTES: ReadonlyArray<Route<OtlpState>> = [
  route({
    method: "POST",
    path: "/calls/stream_query",
    auth: "basic",
    handle: ({ req, state }) => handleCallsQuery(req, state.calls),
  }),
  route({
    method: "POST",
    path: "/call/read",
    auth: "basic",
    handle: ({ req, state }) => handleCallRead(req, state.calls),
  }),
  route({
    method: "POST",
    path: "/otel/v1/traces",
    auth: "basic",
    apiKeyHeader: "wandb-api-key",
    handle: ({ req, state }) => handleOtelTraces(req, state),
  }),
];
