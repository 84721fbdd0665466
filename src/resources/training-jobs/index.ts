// Transport-free parts of `client.trainingJobs`: request schemas, response types, and the
// checks `create` runs on trajectory groups before sending.
export * from "./request-schema.js";
export type * from "./types.js";
export { isTrajectoryChoice, type TrajectoryItem } from "./trajectory-item.js";
export {
  checkTrajectoryGroups,
  type CheckedTrajectoryGroup,
  type TrainingWarning,
  type TrainingWarningCode,
} from "./trajectory-checks.js";
