// Public entry of `inferloop`. Everything a user imports comes from here.
export { Inferloop } from "./client.js";
export { Inferloop as default } from "./client.js";
export type { ClientOptions, RequestOptions } from "./core/options.js";
export type { Logger, LogLevel } from "./core/log.js";
export type { TelemetryOptions } from "./core/telemetry.js";
export type { FetchLike } from "./core/transport/fetch.js";
export { APIPromise, type ResponseInfo, type WithResponse } from "./core/api-promise.js";
export {
  InferloopError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  RequestValidationError,
  ResponseParseError,
  ResponseTooLargeError,
  type APIErrorInit,
  type ValidationDetail,
  type ValidationIssue,
} from "./core/errors.js";
export { MissingCredentialsError } from "./core/auth.js";

export { Chat, Completions } from "./lib/namespaces/chat.js";
export {
  tool,
  type RunnableTool,
  type ToolContext,
  type ToolDefinition,
} from "./lib/tool-runner/tool.js";
export {
  JudgeError,
  ruler,
  rulerScoreGroup,
  type JudgeClient,
  type JudgedTrajectory,
  type RulerOptions,
  type RulerScore,
  type RulerScoreGroupOptions,
} from "./lib/rewards/ruler.js";
export {
  ToolRun,
  ToolRunLimitError,
  type ToolRunOptions,
  type ToolRunParams,
  type ToolRunResult,
} from "./lib/tool-runner/tool-run.js";
export { ChatCompletionStream, type StreamResponseInfo } from "./resources/chat/stream.js";
export * from "./resources/chat/index.js";
export * from "./lib/structured-output/index.js";

export { Models, type ModelListOptions } from "./resources/models/models.js";
export * from "./resources/models/index.js";

export { Calls } from "./lib/namespaces/calls.js";
export {
  trajectoryFromCalls,
  type TrajectoryGroupsOptions,
  type TrajectoryGroupsParams,
} from "./lib/trajectories/from-calls.js";
export { CallQuery } from "./resources/calls/call-query.js";
export * from "./resources/calls/index.js";
export * from "./lib/query-builder.js";

export { AnnotationQueues, AnnotationQueueItems } from "./resources/annotation-queues/annotation-queues.js";
export * from "./resources/annotation-queues/index.js";
export { OffsetList } from "./core/offset-list.js";
export type { PagedListOptions } from "./core/paging.js";

export { Feedback } from "./resources/feedback/feedback.js";
export * from "./resources/feedback/index.js";

export { TrainingJobs } from "./resources/training-jobs/training-jobs.js";
export { TrainingJobFailedError } from "./resources/training-jobs/errors.js";
export { TrainingJobEvents } from "./resources/training-jobs/events.js";
export type { TrainingJobFollowOptions } from "./resources/training-jobs/follow.js";
export * from "./resources/training-jobs/index.js";
export * from "./lib/trajectories/index.js";

export { CursorList, type CursorPage } from "./core/cursor-list.js";
export { TrainableModels } from "./resources/trainable-models/trainable-models.js";
export { Checkpoints } from "./resources/trainable-models/checkpoints.js";
export { TrainableModel } from "./resources/trainable-models/trainable-model.js";
export * from "./resources/trainable-models/index.js";

export * from "./lib/capture/index.js";
