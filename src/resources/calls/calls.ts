import type { Log } from "../../core/log.js";
import type { RequestOptions } from "../../core/options.js";
import { APIResource } from "../../core/resource.js";
import { topLevelFieldHint } from "../../core/field-hint.js";
import { endpoint, endpointRequest } from "../../core/endpoint.js";
import type { APIResponse } from "../../core/http-client.js";
import type { RequestSpec } from "../../core/request-spec.js";
import { inputIssues, validateInput } from "../../core/validate.js";
import { warnFinding, warnOnce } from "../../core/warn-once.js";
import { CallQuery } from "./call-query.js";
import {
  DEFAULT_CALLS_ACCEPT,
  callsQueryOptionsSchema,
  callsQueryParamsSchema,
  type CallsQueryOptions,
  type CallsQueryParams,
} from "./request-schema.js";

// The schema is published typed by its interface; at run time it is the strict object it was built as.
const queryKeyHint = topLevelFieldHint(Object.keys((callsQueryParamsSchema as unknown as { shape: object }).shape));

// The records come as JSONL, streamed page by page: the CallQuery reads each page's body.
const callsQuery = endpoint<CallsQueryParams, CallsQueryParams, APIResponse>({
  operation: "calls.query",
  method: "POST",
  path: "/calls/stream_query",
  service: "trace",
  retry: "safe",
  body: callsQueryParamsSchema,
  issues: (issues) => inputIssues(issues, queryKeyHint),
  read: (res) => res,
});

// Clients (by their log) already told about bare op names: once is a hint, every query is noise.
const toldOfBareOpNames = new WeakSet<Log>();

/**
 * A trace server stores `op_name` as an op ref (`weave:///entity/project/op/name:digest`), so
 * a bare name in `filter.op_names` matches nothing, without an error. Said by the findings
 * rule (`warnFinding`: once per client in a log at `warn`, else once per process, code
 * `INFERLOOP_BARE_OP_NAME`), with the ref that matches every version of the op (`:*`).
 */
function hintAtBareOpNames(log: Log, params: CallsQueryParams): void {
  const bare = params.filter?.op_names?.find((name) => !name.startsWith("weave:///"));
  if (bare === undefined) return;
  const message = `calls.query: op_names entry "${bare}" is not an op ref (weave:///<entity>/<project>/op/<name>:<digest>) and matches no call; for every version write "weave:///${params.project_id}/op/${bare}:*"`;
  if (!log.enabled("warn")) return warnOnce("INFERLOOP_BARE_OP_NAME", message);
  if (toldOfBareOpNames.has(log)) return;
  toldOfBareOpNames.add(log);
  warnFinding(log, "INFERLOOP_BARE_OP_NAME", message);
}

/**
 * The call query of the tracing store (`POST /calls/stream_query`, Basic auth, `traceBaseURL`).
 */
export class Calls extends APIResource {
  /**
   * Query recorded calls: filters, a query expression, sorting and paging. Returns at once;
   * iterate the result (no `await` needed).
   *
   * @example
   * ```ts
   * import { q } from "inferloop";
   *
   * const slow = client.calls.query(
   *   {
   *     project_id: "acme/support-bot",
   *     query: q.where(q.gt(q.field("summary.weave.latency_ms").as("double"), 1000)),
   *     sort_by: [{ field: "started_at", direction: "desc" }],
   *   },
   *   { pageSize: 200 },
   * );
   * for await (const call of slow) console.log(call.id, call.summary?.weave?.latency_ms);
   * ```
   */
  query(params: CallsQueryParams, options: CallsQueryOptions & RequestOptions = {}): CallQuery {
    let invalid: Error | undefined;
    // What is sent is the validated copy, never `params` itself: see validateRequestBody.
    let spec: RequestSpec | undefined;
    try {
      spec = endpointRequest(callsQuery, { params, headers: { accept: options?.accept ?? DEFAULT_CALLS_ACCEPT } });
      validateInput(callsQueryOptionsSchema, options ?? {}, "call query options");
      const body = spec.body as CallsQueryParams;
      warnSpecFilterNames(this._http.config.log, body.filter);
      hintAtBareOpNames(this._http.config.log, body);
    } catch (err) {
      invalid = err as Error;
    }
    return new CallQuery({
      http: this._http,
      first: spec && { ...spec, body: withSortDirections(spec.body as CallsQueryParams) },
      invalid,
      options,
      rows: { lines: "JSONL record" },
      row: "call record",
    });
  }
}

/**
 * The trace server requires `direction` on every sort item, while the spec leaves it out: an
 * item without one is sent as ascending, instead of failing with a 422.
 */
function withSortDirections(params: CallsQueryParams): CallsQueryParams {
  const sort = params.sort_by;
  if (!Array.isArray(sort) || sort.every((s) => s.direction)) return params;
  return { ...params, sort_by: sort.map((s) => (s.direction ? s : { ...s, direction: "asc" as const })) };
}

// A real Weave server ignores the spec's svc_* filter names and answers unfiltered, with every
// user's calls and no error: say so at run time, once per process, since logging is off by default.
function warnSpecFilterNames(log: Log, filter: CallsQueryParams["filter"]): void {
  if (filter == null) return;
  for (const [spec, weave] of [
    ["svc_user_ids", "wb_user_ids"],
    ["svc_run_ids", "wb_run_ids"],
  ] as const) {
    if (filter[spec] != null)
      warnFinding(
        log,
        `INFERLOOP_${spec.toUpperCase()}`,
        `calls.query: filter.${spec} is ignored by Weave servers, which then return every user's calls; write filter.${weave} instead (svc_* only filters on services that implement the spec).`,
      );
  }
}
