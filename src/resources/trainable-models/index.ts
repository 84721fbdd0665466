// Transport-free parts of `client.trainableModels`: request schemas and response types.
export * from "./request-schema.js";
export type * from "./types.js";
export type { TrainOptions } from "./trainable-model.js";
export type { PruneCheckpointsOptions, PruneCheckpointsResult } from "./prune-checkpoints.js";
export type { SFTRow, TrainSFTOptions, TrainSFTResult } from "./train-sft.js";
