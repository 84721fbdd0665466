// Transport-free parts of `client.trainableModels`: request schemas and response types.

export * from "./request-schema.js";
export type * from "./types.js";
