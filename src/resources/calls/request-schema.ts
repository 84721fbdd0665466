import * as z from "zod/mini";
import { closestName } from "../../core/closest-name.js";
import { projectIdSchema } from "../project-id.js";
import type { Agrees, Check, SchemaOf } from "../schema-agreement.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import { queryExpressionSchema } from "./query-expression.js";
import type { CallsFilter, CallsQueryParams, CallsSortBy } from "./request-types.js";

export type * from "./request-types.js";

ensureZodDefaults();

const idList = z.nullish(z.array(z.string()));
const flag = z.nullish(z.boolean());
const count = z.nullish(z.int().check(z.nonnegative()));

const filterShape = {
  call_ids: idList,
  input_refs: idList,
  op_names: idList,
  output_refs: idList,
  parent_ids: idList,
  thread_ids: idList,
  trace_ids: idList,
  turn_ids: idList,
  /** The spec's name. A real Weave server ignores it: write `wb_run_ids` there. */
  svc_run_ids: idList,
  /** The spec's name. A real Weave server ignores it and returns every user's calls: write `wb_user_ids` there. */
  svc_user_ids: idList,
  /** Weave's name of the run filter. */
  wb_run_ids: idList,
  /** Weave's name of the user filter. */
  wb_user_ids: idList,
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
 * The `filter` member of a call query. Every member narrows the result to calls whose field is
 * in the list; `trace_roots_only` keeps calls without a parent. A key within two edits of a
 * known one (`op_name`) is refused before sending, naming the key meant: current Weave servers
 * drop unknown keys silently, so a typo would widen the result. Other unknown keys are sent as
 * written (for servers newer than the SDK). Both names of the user and run filters are accepted and sent as written:
 * `wb_user_ids`/`wb_run_ids` are the names a real Weave server reads
 * (`weave/trace_server/trace_server_interface.py`, `CallsFilter`); the spec's
 * `svc_user_ids`/`svc_run_ids` are **ignored by a real Weave server**, which then answers
 * unfiltered, with records of every user. Use `svc_*` only with a service that implements the spec.
 *
 * @example
 * ```ts
 * callsFilterSchema.parse({ op_names: ["weave:///acme/bot/op/answer:abc"], trace_roots_only: true });
 * ```
 */
export const callsFilterSchema: SchemaOf<CallsFilter> = filter;

const sortBy = z.strictObject({
  field: z.string().check(z.minLength(1)),
  // Optional here; `client.calls.query` sends a missing one as "asc", which the server requires.
  direction: z.optional(z.enum(["asc", "desc"])),
});
/**
 * One sort key of a call query: a call field or a dotted path into `attributes`, `inputs`,
 * `output` or `summary` (e.g. `summary.weave.latency_ms`). For stable paging, end with a unique
 * key such as `id`.
 *
 * @example
 * ```ts
 * callsSortBySchema.parse({ field: "started_at", direction: "desc" });
 * ```
 */
export const callsSortBySchema: SchemaOf<CallsSortBy> = sortBy;

const queryParams = z.strictObject({
  project_id: projectIdSchema,
  columns: z.nullish(z.array(z.string())),
  expand_columns: z.nullish(z.array(z.string())),
  filter: z.nullish(callsFilterSchema),
  include_costs: flag,
  include_feedback: flag,
  include_storage_size: flag,
  include_total_storage_size: flag,
  include_usernames: flag,
  limit: count,
  offset: count,
  /** Weave's `latest_only`: only the latest version of each call (its Python client always sends it). */
  latest_only: flag,
  query: z.nullish(queryExpressionSchema),
  return_expanded_column_values: flag,
  sort_by: z.nullish(z.array(callsSortBySchema)),
});
/**
 * Body of `POST /calls/stream_query`. Only `project_id` (`"entity/project"`) is required; every
 * other member is optional and nullable, and the server's defaults apply when it is left out.
 * Strict at the top level and in `sort_by`: a misspelt key is refused before sending; in
 * `filter`, a misspelt known key is refused and other unknown keys are sent.
 *
 * @example
 * ```ts
 * callsQueryParamsSchema.parse({
 *   project_id: "acme/support-bot",
 *   filter: { trace_roots_only: true },
 *   sort_by: [{ field: "started_at", direction: "desc" }, { field: "id" }],
 *   limit: 50,
 *   include_costs: true,
 * });
 * ```
 */
export const callsQueryParamsSchema: SchemaOf<CallsQueryParams> = queryParams;

/**
 * Records per request when the caller gives no `pageSize`, as the trace server's own SDK does.
 *
 * @example
 * ```ts
 * DEFAULT_CALLS_PAGE_SIZE; // 1000
 * ```
 */
export const DEFAULT_CALLS_PAGE_SIZE = 1000;

/**
 * The `accept` header sent when the caller gives none.
 *
 * @example
 * ```ts
 * DEFAULT_CALLS_ACCEPT; // "application/jsonl"
 * ```
 */
export const DEFAULT_CALLS_ACCEPT = "application/jsonl";

/**
 * Call-query options beside the body: `pageSize` (records per request, a positive integer,
 * default {@link DEFAULT_CALLS_PAGE_SIZE}) and `accept` (the header, default
 * {@link DEFAULT_CALLS_ACCEPT}). Loose, so the shared request options (`signal`, `timeout`, ...)
 * can travel in the same object untouched.
 *
 * @example
 * ```ts
 * callsQueryOptionsSchema.parse({ pageSize: 200 });
 * callsQueryOptionsSchema.safeParse({ pageSize: 0 }).success; // false
 * ```
 */
export const callsQueryOptionsSchema = z.looseObject({
  pageSize: z.optional(z.int().check(z.positive())),
  accept: z.optional(z.string().check(z.minLength(1))),
});

/**
 * Call-query options beside the body.
 *
 * @example
 * ```ts
 * const options: CallsQueryOptions = { pageSize: 200, accept: "application/jsonl" };
 * ```
 */
export interface CallsQueryOptions {
  /** Records per request; a positive integer. Default 1000. */
  pageSize?: number;
  /** The `accept` header. Default `application/jsonl`. */
  accept?: string;
}

// Compile-time: each schema accepts exactly what its named type describes.
type _Agreement = Check<
  [
    Agrees<z.input<typeof filter>, CallsFilter>,
    Agrees<z.input<typeof sortBy>, CallsSortBy>,
    Agrees<z.input<typeof queryParams>, CallsQueryParams, never, "query">,
  ]
>;
