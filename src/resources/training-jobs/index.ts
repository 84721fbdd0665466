// Transport-free parts of `client.trainingJobs`: request schemas and response types, and the
// RL loop (trajectories, their checks, gathering rollouts).
export * from "./request-schema.js";
export type * from "./types.js";
export { Trajectory, type ChatSampler, type TrajectoryInit, type TrajectorySampleParams } from "./trajectory.js";
export { isTrajectoryChoice, type TrajectoryItem } from "./trajectory-item.js";
export {
  checkTrajectoryGroups,
  type CheckedTrajectoryGroup,
  type TrainingWarning,
  type TrainingWarningCode,
} from "./trajectory-checks.js";
export {
  gatherTrajectoryGroups,
  RolloutsFailedError,
  type GatherOptions,
  type GatherProgress,
  type GatheredTrajectoryGroup,
  type Rollout,
  type RolloutException,
} from "./gather.js";
