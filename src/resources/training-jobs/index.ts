// Transport-free parts of `client.trainingJobs`: request schemas and response types.
export * from "./request-schema.js";
export type * from "./types.js";
