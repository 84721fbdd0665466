// Transport-free parts of `client.trainingJobs`: request schemas and response types, and the
// RL loop (trajectories, their checks, gathering rollouts).
export * from "./request-schema.js";
export type * from "./types.js";
export {
  Trajectory,
  type ChatSampler,
  type TrajectoryInit,
  type TrajectoryItem,
  type TrajectorySampleParams,
} from "./trajectory.js";
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
