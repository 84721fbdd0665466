import { lazyOffsetList } from "../core/lists/offset-list.js";
import type { APIPromise } from "../core/pipeline/api-promise.js";
import { callLazyEndpoint } from "../core/pipeline/lazy-endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { TrajectoryGroupsOptions, TrajectoryGroupsParams } from "../lib/trajectories/from-calls.js";
import type { GatheredTrajectoryGroup } from "../lib/trajectories/gather.js";
import type { CallQuery } from "../wire/calls/call-query.js";
import type { CallReadParams, CallsQueryOptions, CallsQueryParams } from "../wire/calls/request-schema.js";
import type { CallRecord } from "../wire/calls/types.js";

// Loaded at the first call: a page that never reads traces does not carry the query's schemas,
// nor the rebuilding of traced calls into trajectories.
const wire = () => import("../wire/calls/endpoints.js");
const trajectories = () => import("../lib/trajectories/from-calls.js");

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
    // Without one, the endpoint's own (JSONL).
    const accept = options?.accept;
    const headers = accept === undefined ? undefined : { accept };
    return lazyOffsetList(this._http, () => wire().then((w) => w.callsQuery), { params, headers }, options);
  }

  /**
   * One call by id (`POST /call/read`), or `null` when the project has no call of that id (Weave
   * answers 200 with no call). Retried like a GET.
   *
   * @example
   * ```ts
   * const call = await client.calls.retrieve("0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01", { project_id: "acme/rollouts" });
   * console.log(call?.op_name, call?.summary?.weave?.latency_ms);
   * ```
   */
  retrieve(id: string, params: Omit<CallReadParams, "id">, options?: RequestOptions): APIPromise<CallRecord | null> {
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.callsRetrieve),
      { params: { ...params, id } },
      options,
    );
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
    return trajectories().then((t) =>
      t.trajectoryGroupsFromCalls(
        (p, o) => this.query(p, o),
        params,
        options,
        requestOptions ?? {},
        this._http.config.log,
      ),
    );
  }
}
