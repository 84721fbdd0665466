import type { TrajectoryGroup, TrajectoryParams } from "../../wire/training-jobs/request-schema.js";
import { type TrainingWarning, TrajectoryChecks } from "../../wire/training-jobs/trajectory-checks.js";
import type { Trajectory } from "./trajectory.js";

/**
 * A trajectory group as the checks read it: wire trajectories or {@link Trajectory} objects.
 */
export interface CheckedTrajectoryGroup {
  trajectories: ReadonlyArray<TrajectoryParams | Trajectory>;
}

/**
 * Finds what would waste a training job before it is sent: no groups or empty groups, groups
 * whose rewards are all equal, trajectories without a reward, choices whose `token_ids` and `logprobs.content`
 * lengths disagree, and choices without logprobs next to others with them. Reports, never
 * throws; `client.trainingJobs.create` runs it and logs each finding at `warn`. Cost: one pass
 * over the groups and their messages, not over the tokens.
 *
 * @example
 * ```ts
 * for (const w of checkTrajectoryGroups(groups)) console.warn(`${w.path}: ${w.message}`);
 * ```
 */
export function checkTrajectoryGroups(
  groups: readonly (CheckedTrajectoryGroup | TrajectoryGroup)[],
): TrainingWarning[] {
  const checks = new TrajectoryChecks();
  checks.groupSizes(groups.map((group) => group.trajectories.length));
  groups.forEach((group, g) => {
    group.trajectories.forEach((t, i) => checks.add(g, i, t));
  });
  return checks.warnings();
}
