// Public entry of `inferloop`. Everything a user imports comes from here.
export { Inferloop, Inferloop as default } from "./client.js";
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorInit,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InferloopError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseParseError,
  ResponseTooLargeError,
  UnprocessableEntityError,
  type ValidationDetail,
  type ValidationIssue,
} from "./core/errors/errors.js";
export type { Logger, LogLevel } from "./core/errors/log.js";
export { CursorList, type CursorPage } from "./core/lists/cursor-list.js";
export { OffsetList } from "./core/lists/offset-list.js";
export type { PagedListOptions } from "./core/lists/paging.js";
export { APIPromise, type ResponseInfo, type WithResponse } from "./core/pipeline/api-promise.js";
export { MissingCredentialsError } from "./core/pipeline/auth.js";
export type { ClientOptions, RequestOptions } from "./core/pipeline/options.js";
export type { TelemetryOptions } from "./core/telemetry/telemetry.js";
export type { FetchLike } from "./core/transport/fetch.js";
export type { ArtifactDownload } from "./lib/artifacts/download.js";
export * from "./lib/capture/index.js";
export * from "./lib/query-builder.js";
export {
  type JudgeClient,
  type JudgedTrajectory,
  JudgeError,
  type RulerOptions,
  type RulerScore,
  type RulerScoreGroupOptions,
  ruler,
  rulerScoreGroup,
} from "./lib/rewards/ruler.js";
export * from "./lib/structured-output/index.js";
export {
  type RunnableTool,
  type ToolContext,
  type ToolDefinition,
  tool,
} from "./lib/tool-runner/tool.js";
export {
  ToolRun,
  ToolRunLimitError,
  type ToolRunOptions,
  type ToolRunParams,
  type ToolRunResult,
} from "./lib/tool-runner/tool-run.js";
export type { TrainingJobFollowOptions } from "./lib/training/follow-events.js";
export type { LoopJobState, LoopState, LoopStateStore, SFTJobState } from "./lib/training/loop-state.js";
export type {
  CheckpointKeepReason,
  PruneCheckpointsOptions,
  PruneCheckpointsResult,
} from "./lib/training/prune-checkpoints.js";
export type { SFTMessage, SFTRow, TrainSFTOptions, TrainSFTResult } from "./lib/training/train-sft.js";
export type {
  TrainLoopEvent,
  TrainLoopOptions,
  TrainLoopRolloutContext,
  TrainLoopStep,
  TrainOptions,
} from "./lib/training/types.js";
export {
  type SkippedTrace,
  type TracedRollout,
  type TrajectoryGroupsOptions,
  type TrajectoryGroupsParams,
  trajectoryFromCalls,
} from "./lib/trajectories/from-calls.js";
export * from "./lib/trajectories/index.js";
export type { LoopLogTarget } from "./lib/wandb-runs/loop-log.js";
export { AnnotationQueueItems, AnnotationQueues } from "./namespaces/annotation-queues.js";
export { Artifacts } from "./namespaces/artifacts.js";
export { Calls } from "./namespaces/calls.js";
export { Chat, Completions } from "./namespaces/chat.js";
export { Checkpoints } from "./namespaces/checkpoints.js";
export { Feedback } from "./namespaces/feedback.js";
export { Loras } from "./namespaces/loras.js";
export { type ModelListOptions, Models } from "./namespaces/models.js";
export { SFTTrainingJobs } from "./namespaces/sft-training-jobs.js";
export type { ModelChat } from "./namespaces/trainable-model.js";
export { TrainableModel } from "./namespaces/trainable-model.js";
export { TrainableModels } from "./namespaces/trainable-models.js";
export { TrainingJobEvents } from "./namespaces/training-job-events.js";
export { TrainingJobs } from "./namespaces/training-jobs.js";
export * from "./wire/annotation-queues/index.js";
export * from "./wire/artifacts/index.js";
export { StorageRequestError } from "./wire/artifacts/storage.js";
export { CallQuery } from "./wire/calls/call-query.js";
export * from "./wire/calls/index.js";
export * from "./wire/chat/index.js";
export { ChatCompletionStream, type StreamResponseInfo } from "./wire/chat/stream/stream.js";
export * from "./wire/feedback/index.js";
export { GraphQLError } from "./wire/graphql.js";
export * from "./wire/loras/index.js";
export * from "./wire/models/index.js";
export * from "./wire/sft-training-jobs/index.js";
export * from "./wire/trainable-models/index.js";
export { TrainingJobFailedError } from "./wire/training-jobs/errors.js";
export * from "./wire/training-jobs/index.js";
