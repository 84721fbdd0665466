// Transport-free parts of `client.trainableModels`: request schemas and response types.

export type { PruneCheckpointsOptions, PruneCheckpointsResult } from "./prune-checkpoints.js";
export * from "./request-schema.js";
export type { SFTRow, TrainSFTOptions, TrainSFTResult } from "./train-sft.js";
export type { TrainOptions } from "./trainable-model.js";
export type * from "./types.js";
