/**
 * The trace server's checks of a call query (`POST /calls/stream_query`): its request model
 * (422 `detail`, unknown keys ignored), the query expression (`query-eval.ts`) and the length
 * of each filter list (a 400 `reason`: `assert_parameter_length_less_than_max`, `wandb/weave`
 * `weave/trace_server/trace_server_common.py`).
 */
import { detailError, reasonError } from "../responses.js";
import type { ResponsePlan } from "../types.js";
import { isRecord } from "../util.js";
import type { ValidationIssue } from "../validate.js";
import { bool, int, list, literal, nullable, obj, str, validateBody } from "../validate.js";
import { unrunnableLiteral, validateQuery } from "./query-eval.js";

const FILTER_LISTS = [
  "call_ids",
  "input_refs",
  "op_names",
  "output_refs",
  "parent_ids",
  "thread_ids",
  "trace_ids",
  "turn_ids",
  "svc_run_ids",
  "svc_user_ids",
  "wb_run_ids",
  "wb_user_ids",
] as const;

const MAX_FILTER_LENGTH = 1000;

// Current Weave request models ignore unknown keys (with a log line) rather than refusing them,
// so a misspelt filter key, or the spec's svc_* on a real server, widens the result silently.
// The fake does the same: svc_* are checked for their type (the spec's) and then ignored.
const filterCheck = obj(
  {
    ...Object.fromEntries(FILTER_LISTS.map((name) => [name, { check: nullable(list(str())) }])),
    trace_roots_only: { check: nullable(bool()) },
  },
  "allow",
);

const queryRequestCheck = obj(
  {
    project_id: { check: str(), required: true },
    filter: { check: nullable(filterCheck) },
    // Any int passes the request model; W&B's ClickHouse query builder refuses a negative one
    // (CallsQuery.set_limit / set_offset: a ValueError, answered 400) once the query is built.
    limit: { check: nullable(int()) },
    offset: { check: nullable(int()) },
    sort_by: {
      check: nullable(
        list(
          obj(
            { field: { check: str(), required: true }, direction: { check: literal(["asc", "desc"]), required: true } },
            "forbid",
          ),
        ),
      ),
    },
    query: { check: () => {} },
    // Weave's own Python client always sends it; the fake keeps one version of each call, so
    // every call is the latest and the flag changes nothing.
    latest_only: { check: nullable(bool()) },
    include_costs: { check: nullable(bool()) },
    include_feedback: { check: nullable(bool()) },
    include_storage_size: { check: nullable(bool()) },
    include_total_storage_size: { check: nullable(bool()) },
    include_usernames: { check: nullable(bool()) },
    columns: { check: nullable(list(str())) },
    expand_columns: { check: nullable(list(str())) },
    return_expanded_column_values: { check: nullable(bool()) },
  },
  "allow",
);

/** The validated body of a call query. */
export interface CallsQuery {
  project_id: string;
  filter?:
    | (Partial<Record<(typeof FILTER_LISTS)[number], string[] | null>> & { trace_roots_only?: boolean | null })
    | null;
  limit?: number | null;
  offset?: number | null;
  sort_by?: Array<{ field: string; direction: "asc" | "desc" }> | null;
  query?: { $expr: unknown } | null;
  include_costs?: boolean | null;
  include_feedback?: boolean | null;
  include_storage_size?: boolean | null;
  include_total_storage_size?: boolean | null;
  include_usernames?: boolean | null;
  columns?: string[] | null;
}

/**
 * Validates a call-query body; returns the typed query or a 422/400 plan.
 */
export function checkCallsQuery(body: unknown): { ok: true; query: CallsQuery } | { ok: false; error: ResponsePlan } {
  const issues: ValidationIssue[] = validateBody(queryRequestCheck, body);
  if (isRecord(body) && body["query"] !== undefined && body["query"] !== null) {
    issues.push(...validateQuery(body["query"], ["body", "query"]));
  }
  if (issues.length > 0) return { ok: false, error: detailError(issues) };
  const query = body as CallsQuery;
  if (query.limit != null && query.limit < 0)
    return { ok: false, error: reasonError(400, "Limit must be a positive integer") };
  if (query.offset != null && query.offset < 0)
    return { ok: false, error: reasonError(400, "Offset must be a positive integer") };
  for (const name of FILTER_LISTS) {
    const values = query.filter?.[name];
    if (values != null && values.length > MAX_FILTER_LENGTH) {
      return {
        ok: false,
        error: reasonError(
          400,
          `Parameter: '${name}' request length is greater than max length (${MAX_FILTER_LENGTH}). Actual length: ${values.length}`,
        ),
      };
    }
  }
  const literal = query.query == null ? undefined : unrunnableLiteral(query.query);
  if (literal !== undefined) return { ok: false, error: reasonError(400, literal) };
  return { ok: true, query };
}
