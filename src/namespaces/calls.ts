import { lazyOffsetList } from "../core/lists/offset-list.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { TrajectoryGroupsOptions, TrajectoryGroupsParams } from "../lib/trajectories/from-calls.js";
import type { GatheredTrajectoryGroup } from "../lib/trajectories/gather.js";
import type { CallQuery } from "../wire/calls/call-query.js";
import type { CallsQueryOptions, CallsQueryParams } from "../wire/calls/request-schema.js";

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
   * Traced rollouts as trajectory groups, ready for `trainingJobs.create` or `model.train`.
   * `params` selects the traces by their ROOT calls (a filter or a query expression; the roots
   * are read with their feedback, at `summary.weave.feedback`). Each trace's chat-completion
   * calls become one trajectory, recorded as `captureTrajectory` records a live run; its reward
   * is `reward(root)`, and it joins the group named `groupBy(root)`. A trace whose reward is
   * `undefined` is left out (counted in one warning); a trace with no chat call rejects with
   * an error naming it. Two queries per page of roots, whatever the number of traces.
   *
   * @example
   * ```ts
   * const groups = await client.calls.trajectoryGroups(
   *   { project_id: "acme/rollouts", filter: { op_names: ["weave:///acme/rollouts/op/rollout:*"] } },
   *   {
   *     groupBy: (root) => String(root.inputs["prompt_id"]),
   *     reward: (root) => {
   *       const review = root.summary?.weave?.feedback?.find((f) => f.feedback_type === "wandb.annotation.quality");
   *       return review ? Number(review.payload?.["value"]) : undefined;
   *     },
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
      t.trajectoryGroupsFromCalls((p, o) => this.query(p, o), params, options, requestOptions),
    );
  }
}
