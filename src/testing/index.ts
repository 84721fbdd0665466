/**
 * `inferloop/testing`: a fake service that speaks the whole interface over real HTTP on
 * loopback, for integration tests, users' tests and the demo. It is an independent server
 * implementation and imports nothing from the client SDK.
 *
 * The msw handlers live in `./msw.ts` (entry `inferloop/testing/msw`), so importing this entry
 * never loads `msw`.
 *
 * @example
 * ```ts
 * import { startFakeService, faults } from "inferloop/testing";
 * const svc = await startFakeService();
 * svc.inject(faults.rateLimited({ retryAfter: 1 }));
 * // ... point the client at svc.url with svc.apiKey / svc.username / svc.password ...
 * await svc.close();
 * ```
 */

export type { AnnotationQueue, AnnotationQueueItem, AnnotationState } from "./annotation.js";
export { AnnotationStore, checkTransition } from "./annotation.js";
export { userIdFor } from "./auth.js";
export { tokenize } from "./chat-generate.js";
export type { FakeWeaveObject } from "./evaluations.js";
export { WeaveObjectStore } from "./evaluations.js";
export type {
  BodyFault,
  CutStreamFault,
  Fault,
  FaultTarget,
  InsertFault,
  LatencyFault,
  ResetFault,
  StallFault,
  StatusFault,
  TrainingFailedFault,
} from "./faults/kinds.js";
export { faults } from "./faults/presets.js";
export { FaultQueue } from "./faults/queue.js";
export type { FeedbackRow as FakeFeedbackRow } from "./feedback.js";
export { FeedbackStore } from "./feedback.js";
export { DEFAULT_MODELS } from "./models.js";
export type { FakeServiceOptions } from "./options.js";
export type { GenerateCallsOptions } from "./seed.js";
export { generateCall, generateCalls, SEED_OTHER_PROJECT_ID, SEED_USER_IDS, seedCallRecords } from "./seed.js";
export { referenceCalls, SEED_PROJECT_ID } from "./seed-reference.js";
export type { FakeService } from "./server.js";
export { startFakeService } from "./server.js";
export { createFakeState, FakeState, SEED_ITEM_IDS, SEED_QUEUE_ID } from "./state.js";
export type { FakeTrainableModel, FakeTrainingEvent } from "./trainable.js";
export { DEFAULT_BASE_MODELS, TrainableStore } from "./trainable.js";
export type {
  BodyPart,
  CallRecord,
  FakeRequest,
  ModelEntry,
  RecordedRequest,
  ResponsePlan,
  TrainingJob,
} from "./types.js";
export { ConnectionReset } from "./types.js";
