import type { RequestOptions } from "../../core/options.js";
import { Calls as CallsResource } from "../../resources/calls/calls.js";
import {
  type TrajectoryGroupsOptions,
  type TrajectoryGroupsParams,
  trajectoryGroupsFromCalls,
} from "../trajectories/from-calls.js";
import type { GatheredTrajectoryGroup } from "../trajectories/gather.js";

/**
 * The call query of the tracing store (`POST /calls/stream_query`, Basic auth, `traceBaseURL`),
 * and traced rollouts read back as trajectory groups.
 */
export class Calls extends CallsResource {
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
    return trajectoryGroupsFromCalls((p, o) => this.query(p, o), params, options, requestOptions);
  }
}
