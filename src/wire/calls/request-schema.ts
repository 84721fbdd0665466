import * as z from "zod/mini";
import { closestName } from "../../core/checks/closest-name.js";
import { projectIdSchema } from "../project-id.js";
import { type Fields, type SchemaOf, strictObject } from "../request-shapes.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { type QueryExpression, queryExpressionSchema } from "./query-expression.js";

ensureZodDefaults();

const idList = z.nullish(z.array(z.string()));
const flag = z.nullish(z.boolean());
const count = z.nullish(z.int().check(z.nonnegative()));

const filterShape = {
  /** Calls with these ids. */
  call_ids: idList,
  /** Calls that took one of these object refs (`weave:///...`) as an input. */
  input_refs: idList,
  /** Calls of these ops, by op ref (`weave:///<entity>/<project>/op/<name>:<digest>`; `:*` for any version). */
  op_names: idList,
  /** Calls whose output is one of these object refs. */
  output_refs: idList,
  /** Calls whose parent call is one of these ids. */
  parent_ids: idList,
  /** Calls in these threads. */
  thread_ids: idList,
  /** Calls in these traces. */
  trace_ids: idList,
  /** Calls in these turns of a thread. */
  turn_ids: idList,
  /**
   * Calls of these runs, under the spec's name. A real Weave server does not know this name
   * and ignores it (the query then runs unfiltered): against Weave, write `wb_run_ids`.
   */
  svc_run_ids: idList,
  /**
   * Calls of these users, under the spec's name. A real Weave server does not know this name
   * and ignores it (the query then runs unfiltered): against Weave, write `wb_user_ids`.
   */
  svc_user_ids: idList,
  /** Calls of these W&B runs (Weave's name). */
  wb_run_ids: idList,
  /** Calls of these W&B users (Weave's name). */
  wb_user_ids: idList,
  /** Only calls without a parent: the roots of their traces. Default false. */
  trace_roots_only: flag,
};
const FILTER_KEYS = Object.keys(filterShape);
// Current Weave servers ignore unknown filter keys (older ones refused them), so a key the SDK
// does not know is sent as written, for servers newer than the SDK. A misspelt known key
// (`op_name`, or `user_ids` without its prefix) would silently widen the result instead: those
// are refused, with the key meant.
const filter = z.looseObject(filterShape).check(
  z.superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      if (key in filterShape) continue;
      // `user_ids` is the user filter without its prefix (closer to that than to any other
      // key); the real server's name is offered first.
      const near = ["wb_", "svc_"].map((p) => p + key).find((k) => k in filterShape) ?? closestName(key, FILTER_KEYS);
      if (near === undefined) continue;
      ctx.addIssue({
        code: "custom",
        path: [key],
        input: value,
        message: `unknown field "${key}" (did you mean "${near}"?); trace servers ignore unknown filter keys`,
      });
    }
  }),
);
/**
 * The `filter` member of {@link CallsQueryParams}. Each list keeps the calls whose field is one
 * of its values; lists are ANDed together. A real Weave server caps each list at 1000 values.
 */
export interface CallsFilter extends Fields<typeof filterShape> {}

/**
 * The `filter` member of a call query. Every member narrows the result to calls whose field is
 * in the list; `trace_roots_only` keeps calls without a parent. A key within two edits of a
 * known one (`op_name`) is refused before sending, naming the key meant: current Weave servers
 * drop unknown keys silently, so a typo would widen the result. Other unknown keys are sent as
 * written (for servers newer than the SDK). Both names of the user and run filters are accepted and sent as written:
 * `wb_user_ids`/`wb_run_ids` are the names a real Weave server reads
 * (`weave/trace_server/trace_server_interface.py`, `CallsFilter`); the spec's
 * `svc_user_ids`/`svc_run_ids` are **ignored by a real Weave server**, which then answers
 * unfiltered, with records of every user. Use `svc_*` only with a service that implements the spec.
 */
export const callsFilterSchema: SchemaOf<CallsFilter> = filter;
const sortBy = strictObject({
  /**
   * A call field (`started_at`, `id`, ...) or a dotted path into `attributes`, `inputs`,
   * `output` or `summary`, such as `summary.weave.latency_ms` (running calls have none: W&B's
   * trace server puts them last in both directions). Not empty.
   */
  field: z.string().check(z.minLength(1)),
  // Optional here; `client.calls.query` sends a missing one as "asc", which the server requires.
  /** `"asc"` or `"desc"`. Default `"asc"` (the SDK sends it; the server requires it). */
  direction: z.optional(z.enum(["asc", "desc"])),
});
/**
 * One sort key of a call query.
 */
export interface CallsSortBy extends Fields<typeof sortBy.shape> {}

/**
 * One sort key of a call query: a call field or a dotted path into `attributes`, `inputs`,
 * `output` or `summary` (e.g. `summary.weave.latency_ms`). For stable paging, end with a unique
 * key such as `id`.
 */
export const callsSortBySchema: SchemaOf<CallsSortBy> = sortBy;
const queryParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** Return only these columns of each call (plus the ones always sent). Default: all. */
  columns: z.nullish(z.array(z.string())),
  /** Dotted paths of refs to expand into the objects they point to, such as `inputs.self.message`. */
  expand_columns: z.nullish(z.array(z.string())),
  /** Keep only calls matching every list given. */
  filter: z.nullish(callsFilterSchema),
  /** Add the model costs of each call. Beta, may change. Default false. */
  include_costs: flag,
  /** Add the feedback of each call. Beta, may change. Default false. */
  include_feedback: flag,
  /** Add the storage size of each call. Beta, may change. Default false. */
  include_storage_size: flag,
  /** Add the total storage size of each call's trace. Beta, may change. Default false. */
  include_total_storage_size: flag,
  /** Resolve each call's user id to a user name (`wb_username`) during the query. Default false. */
  include_usernames: flag,
  /** Most calls to return in total; 0 or more. Default: all (the SDK pages through them). */
  limit: count,
  /** Calls to skip before the first returned; 0 or more. Default 0. */
  offset: count,
  /** Only the latest version of each call, collapsing its physical versions (newer Weave servers). Default false. */
  latest_only: flag,
  /** Keep only calls for which this expression is true. Build it with `q`, or write it raw. */
  // Typed by the expression's named (recursive) type, so `query` reads `QueryExpression`.
  query: z.nullish(queryExpressionSchema as SchemaOf<QueryExpression>),
  /** When false, `expand_columns` only filters and sorts; the expanded values are left out. Default true. */
  return_expanded_column_values: flag,
  /** Sort keys, most significant first. End with a unique key such as `id` for stable paging. */
  sort_by: z.nullish(z.array(callsSortBySchema)),
});
/**
 * Body of a call query. Only `project_id` is required; every other member may be left out or
 * null, and the server's default applies.
 */
export interface CallsQueryParams extends Fields<typeof queryParams.shape> {}

/**
 * Body of `POST /calls/stream_query`. Only `project_id` (`"entity/project"`) is required; every
 * other member is optional and nullable, and the server's defaults apply when it is left out.
 * Strict at the top level and in `sort_by`: a misspelt key is refused before sending; in
 * `filter`, a misspelt known key is refused and other unknown keys are sent.
 */
export const callsQueryParamsSchema: SchemaOf<CallsQueryParams> = queryParams;

const readParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** The call's id. */
  id: z.string(),
  /** Add the call's model costs. Default false. */
  include_costs: flag,
  /** Add the call's storage size. Default false. */
  include_storage_size: flag,
  /** Add the storage size of the call's whole trace. Default false. */
  include_total_storage_size: flag,
});
/** Body of `POST /call/read` (Weave's `CallReadReq`): the project and the call's id are required. */
export interface CallReadParams extends Fields<typeof readParams.shape> {}
/** Body of `POST /call/read`; strict, as Weave's model is: a misspelt key is refused before sending. */
export const callReadParamsSchema: SchemaOf<CallReadParams> = readParams;

/**
 * The `accept` header sent when the caller gives none.
 */
export const DEFAULT_CALLS_ACCEPT = "application/jsonl";

/**
 * Call-query options beside the body.
 */
export interface CallsQueryOptions extends Fields<typeof callsQueryOptionsSchema.shape> {}

/**
 * Call-query options beside the body: `pageSize` (records per request, a positive integer,
 * default 1000, as the trace server's own SDK pages) and `accept` (the header, default
 * {@link DEFAULT_CALLS_ACCEPT}). Loose, so the shared request options (`signal`, `timeout`, ...)
 * can travel in the same object untouched.
 */
export const callsQueryOptionsSchema = z.looseObject({
  /** Records per request; a positive integer. Default 1000. */
  pageSize: z.optional(z.int().check(z.positive())),
  /** The `accept` header. Default `application/jsonl`. */
  accept: z.optional(z.string().check(z.minLength(1))),
});
