// Public entry of `inferloop`. Everything a user imports comes from here.
export { Inferloop, Inferloop as default } from "./client.js";
export { APIPromise, type ResponseInfo, type WithResponse } from "./core/api-promise.js";
export { MissingCredentialsError } from "./core/auth.js";
export { CursorList, type CursorPage } from "./core/cursor-list.js";
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
} from "./core/errors.js";
export type { Logger, LogLevel } from "./core/log.js";
export { OffsetList } from "./core/offset-list.js";
export type { ClientOptions, RequestOptions } from "./core/options.js";
export type { PagedListOptions } from "./core/paging.js";
export type { TelemetryOptions } from "./core/telemetry.js";
export type { FetchLike } from "./core/transport/fetch.js";
export * from "./lib/capture/index.js";
export { Calls } from "./lib/namespaces/calls.js";
export { Chat, Completions } from "./lib/namespaces/chat.js";
export { TrainableModel, TrainableModels } from "./lib/namespaces/trainable-models.js";
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
export type {
  TrainLoopEvent,
  TrainLoopOptions,
  TrainLoopRolloutContext,
  TrainLoopStep,
} from "./lib/training-loop/types.js";
export {
  type TrajectoryGroupsOptions,
  type TrajectoryGroupsParams,
  trajectoryFromCalls,
} from "./lib/trajectories/from-calls.js";
export * from "./lib/trajectories/index.js";
export { AnnotationQueueItems, AnnotationQueues } from "./resources/annotation-queues/annotation-queues.js";
export * from "./resources/annotation-queues/index.js";
export { Artifacts } from "./resources/artifacts/artifacts.js";
export * from "./resources/artifacts/index.js";
export { CallQuery } from "./resources/calls/call-query.js";
export * from "./resources/calls/index.js";
export * from "./resources/chat/index.js";
export { ChatCompletionStream, type StreamResponseInfo } from "./resources/chat/stream.js";
export { Feedback } from "./resources/feedback/feedback.js";
export * from "./resources/feedback/index.js";
export { GraphQLError } from "./resources/graphql.js";
export * from "./resources/loras/index.js";
export { Loras } from "./resources/loras/loras.js";
export * from "./resources/models/index.js";
export { type ModelListOptions, Models } from "./resources/models/models.js";
export * from "./resources/sft-training-jobs/index.js";
export { SFTTrainingJobs } from "./resources/sft-training-jobs/sft-training-jobs.js";
export { Checkpoints } from "./resources/trainable-models/checkpoints.js";
export * from "./resources/trainable-models/index.js";
export type { ModelChat } from "./resources/trainable-models/trainable-model.js";
export { TrainingJobFailedError } from "./resources/training-jobs/errors.js";
export { TrainingJobEvents } from "./resources/training-jobs/events.js";
export type { TrainingJobFollowOptions } from "./resources/training-jobs/follow.js";
export * from "./resources/training-jobs/index.js";
export { TrainingJobs } from "./resources/training-jobs/training-jobs.js";
