import { topLevelFieldHint } from "../core/checks/field-hint.js";
import { inputIssues } from "../core/checks/input-checks.js";
import type { Finding } from "../core/errors/findings.js";
import { offsetList } from "../core/lists/offset-list.js";
import { offsetPages } from "../core/lists/paging.js";
import { endpoint } from "../core/pipeline/endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import {
  type TrajectoryGroupsOptions,
  type TrajectoryGroupsParams,
  trajectoryGroupsFromCalls,
} from "../lib/trajectories/from-calls.js";
import type { GatheredTrajectoryGroup } from "../lib/trajectories/gather.js";
import type { CallQuery } from "../wire/calls/call-query.js";
import {
  type CallsQueryOptions,
  type CallsQueryParams,
  callsQueryOptionsSchema,
  callsQueryParamsSchema,
  DEFAULT_CALLS_ACCEPT,
} from "../wire/calls/request-schema.js";
import type { CallRecord } from "../wire/calls/types.js";

// The schema is published typed by its interface; at run time it is the strict object it was built as.
const queryKeyHint = topLevelFieldHint(Object.keys((callsQueryParamsSchema as unknown as { shape: object }).shape));

/**
 * A trace server stores `op_name` as an op ref (`weave:///entity/project/op/name:digest`), so
 * a bare name in `filter.op_names` matches nothing, without an error. Said once per client
 * (every query would repeat it), with the ref that matches every version of the op (`:*`).
 */
function bareOpName(params: CallsQueryParams): Finding | undefined {
  const bare = params.filter?.op_names?.find((name) => !name.startsWith("weave:///"));
  if (bare === undefined) return undefined;
  return {
    code: "bare_op_name",
    message: `op_names entry "${bare}" is not an op ref (weave:///<entity>/<project>/op/<name>:<digest>) and matches no call; for every version write "weave:///${params.project_id}/op/${bare}:*"`,
    oncePerLog: true,
  };
}

// A real Weave server ignores the spec's svc_* filter names and answers unfiltered, with every
// user's calls and no error: said at run time, since logging is off by default.
function specFilterNames(filter: CallsQueryParams["filter"]): Finding[] {
  const found: Finding[] = [];
  if (filter == null) return found;
  for (const [spec, weave] of [
    ["svc_user_ids", "wb_user_ids"],
    ["svc_run_ids", "wb_run_ids"],
  ] as const)
    if (filter[spec] != null)
      found.push({
        code: spec,
        message: `filter.${spec} is ignored by Weave servers, which then return every user's calls; write filter.${weave} instead (svc_* only filters on services that implement the spec).`,
      });
  return found;
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

// The records come as JSONL, streamed page by page: each record is handed over as its line is parsed.
const callsQuery = endpoint({
  operation: "calls.query",
  method: "POST",
  path: "/calls/stream_query",
  service: "trace",
  retry: "safe",
  body: { schema: callsQueryParamsSchema, prepare: withSortDirections },
  issues: (issues) => inputIssues(issues, queryKeyHint),
  findings: (params: CallsQueryParams) => {
    const bare = bareOpName(params);
    const names = specFilterNames(params.filter);
    return bare === undefined ? names : [...names, bare];
  },
  page: offsetPages<CallRecord>("call record", { lines: "JSONL record" }, callsQueryOptionsSchema),
});

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
    const headers = { accept: options?.accept ?? DEFAULT_CALLS_ACCEPT };
    return offsetList(this._http, callsQuery, { params, headers }, options);
  }

  /**
   * Traced rollouts as trajectory groups, ready for `trainingJobs.create` or `model.train`.
   * `params` selects the traces by their ROOT calls (a filter or a query expression; the roots
   * are read with their feedback, at `summary.weave.feedback`). Each trace's chat-completion
   * calls become one trajectory, recorded as `captureTrajectory` records a live run; its reward
   * is `reward(root, trace)` (`trace.feedback`: the feedback on every call of the trace, child
   * calls too), and it joins the group named `groupBy(root)`. A trace whose reward is
   * `undefined` is left out (counted in one warning); a rewarded trace that cannot become a
   * trajectory (no chat call, a reply that never finished) is left out and reported once, to
   * `onSkip` or else as a warning. Two queries per page of roots, whatever the number of
   * traces. Bad options are refused before any query.
   *
   * @example
   * ```ts
   * const groups = await client.calls.trajectoryGroups(
   *   { project_id: "acme/rollouts", filter: { op_names: ["weave:///acme/rollouts/op/rollout:*"] } },
   *   {
   *     groupBy: (root) => String(root.inputs["prompt_id"]),
   *     reward: (root, trace) => {
   *       const review = trace.feedback.find((f) => f.feedback_type === "wandb.annotation.quality");
   *       return review ? Number(review.payload?.["value"]) : undefined;
   *     },
   *     onSkip: (skipped) => console.warn(`${skipped.length} traces left out`, skipped.map((s) => s.reason)),
   *   },
   * );
   * ```
   */
  trajectoryGroups(
    params: TrajectoryGroupsParams,
    options: TrajectoryGroupsOptions,
    requestOptions?: RequestOptions,
  ): Promise<GatheredTrajectoryGroup[]> {
    return trajectoryGroupsFromCalls(
      (p, o) => this.query(p, o),
      params,
      options,
      requestOptions ?? {},
      this._http.config.log,
    );
  }
}
