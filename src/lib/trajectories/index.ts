// The RL loop built on the endpoints: trajectories, gathering rollouts into groups, and the
// checks of groups before they are sent.

export { type CheckedTrajectoryGroup, checkTrajectoryGroups } from "./check-trajectory-groups.js";
export {
  type GatheredTrajectoryGroup,
  type GatherOptions,
  type GatherProgress,
  gatherTrajectoryGroups,
  type Rollout,
  type RolloutException,
  RolloutsFailedError,
} from "./gather.js";
export { type ChatSampler, Trajectory, type TrajectoryInit, type TrajectorySampleParams } from "./trajectory.js";
