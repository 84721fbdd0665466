// Transport-free parts of `client.annotationQueues`: request schemas and response types.
export * from "./request-schema.js";
export type * from "./types.js";
