// Transport-free parts of `client.trainingJobs`: request schemas, response types, and what the
// checks `create` runs on trajectory groups before sending report.
export * from "./request-schema.js";
export type { TrainingWarning, TrainingWarningCode } from "./trajectory-checks.js";
export { isTrajectoryChoice, type TrajectoryItem } from "./trajectory-item.js";
export type * from "./types.js";
