/**
 * Named types of the call query request (`POST /calls/stream_query`), one doc line per field.
 *
 * @module
 */
import type { QueryExpression } from "./query-expression.js";

/**
 * The `filter` member of {@link CallsQueryParams}. Each list keeps the calls whose field is one
 * of its values; lists are ANDed together. A real Weave server caps each list at 1000 values.
 *
 * @example
 * ```ts
 * const filter: CallsFilter = { op_names: ["weave:///acme/bot/op/answer:abc"], trace_roots_only: true };
 * ```
 */
export interface CallsFilter {
  /** Calls with these ids. */
  call_ids?: string[] | null;
  /** Calls that took one of these object refs (`weave:///...`) as an input. */
  input_refs?: string[] | null;
  /** Calls of these ops, by op ref (`weave:///<entity>/<project>/op/<name>:<digest>`; `:*` for any version). */
  op_names?: string[] | null;
  /** Calls whose output is one of these object refs. */
  output_refs?: string[] | null;
  /** Calls whose parent call is one of these ids. */
  parent_ids?: string[] | null;
  /** Calls in these threads. */
  thread_ids?: string[] | null;
  /** Calls in these traces. */
  trace_ids?: string[] | null;
  /** Calls in these turns of a thread. */
  turn_ids?: string[] | null;
  /**
   * Calls of these runs, under the spec's name. A real Weave server does not know this name
   * and ignores it (the query then runs unfiltered): against Weave, write `wb_run_ids`.
   */
  svc_run_ids?: string[] | null;
  /**
   * Calls of these users, under the spec's name. A real Weave server does not know this name
   * and ignores it (the query then runs unfiltered): against Weave, write `wb_user_ids`.
   */
  svc_user_ids?: string[] | null;
  /** Calls of these W&B runs (Weave's name). */
  wb_run_ids?: string[] | null;
  /** Calls of these W&B users (Weave's name). */
  wb_user_ids?: string[] | null;
  /** Only calls without a parent: the roots of their traces. Default false. */
  trace_roots_only?: boolean | null;
}

/**
 * One sort key of a call query.
 *
 * @example
 * ```ts
 * const sort: CallsSortBy = { field: "summary.weave.latency_ms", direction: "desc" };
 * ```
 */
export interface CallsSortBy {
  /**
   * A call field (`started_at`, `id`, ...) or a dotted path into `attributes`, `inputs`,
   * `output` or `summary`, such as `summary.weave.latency_ms`. Not empty.
   */
  field: string;
  /** `"asc"` or `"desc"`. Default `"asc"` (the SDK sends it; the server requires it). */
  direction?: "asc" | "desc";
}

/**
 * Body of a call query. Only `project_id` is required; every other member may be left out or
 * null, and the server's default applies.
 *
 * @example
 * ```ts
 * const params: CallsQueryParams = {
 *   project_id: "acme/support-bot",
 *   filter: { trace_roots_only: true },
 *   sort_by: [{ field: "started_at", direction: "desc" }, { field: "id" }],
 *   limit: 50,
 * };
 * ```
 */
export interface CallsQueryParams {
  /** The project, `"<entity>/<project>"`. */
  project_id: string;
  /** Return only these columns of each call (plus the ones always sent). Default: all. */
  columns?: string[] | null;
  /** Dotted paths of refs to expand into the objects they point to, such as `inputs.self.message`. */
  expand_columns?: string[] | null;
  /** Keep only calls matching every list given. */
  filter?: CallsFilter | null;
  /** Add the model costs of each call. Beta, may change. Default false. */
  include_costs?: boolean | null;
  /** Add the feedback of each call. Beta, may change. Default false. */
  include_feedback?: boolean | null;
  /** Add the storage size of each call. Beta, may change. Default false. */
  include_storage_size?: boolean | null;
  /** Add the total storage size of each call's trace. Beta, may change. Default false. */
  include_total_storage_size?: boolean | null;
  /** Resolve each call's user id to a user name (`wb_username`) during the query. Default false. */
  include_usernames?: boolean | null;
  /** Most calls to return in total; 0 or more. Default: all (the SDK pages through them). */
  limit?: number | null;
  /** Calls to skip before the first returned; 0 or more. Default 0. */
  offset?: number | null;
  /** Keep only calls for which this expression is true. Build it with `q`, or write it raw. */
  query?: QueryExpression | null;
  /** When false, `expand_columns` only filters and sorts; the expanded values are left out. Default true. */
  return_expanded_column_values?: boolean | null;
  /** Sort keys, most significant first. End with a unique key such as `id` for stable paging. */
  sort_by?: CallsSortBy[] | null;
  /** Only the latest version of each call, collapsing its physical versions (newer Weave servers). Default false. */
  latest_only?: boolean | null;
}
