// The RL loop built on the endpoints: trajectories, gathering rollouts into groups, and the
// checks of groups before they are sent.
export { Trajectory, type ChatSampler, type TrajectoryInit, type TrajectorySampleParams } from "./trajectory.js";
export { checkTrajectoryGroups, type CheckedTrajectoryGroup } from "./check-trajectory-groups.js";
export {
  gatherTrajectoryGroups,
  RolloutsFailedError,
  type GatherOptions,
  type GatherProgress,
  type GatheredTrajectoryGroup,
  type Rollout,
  type RolloutException,
} from "./gather.js";
