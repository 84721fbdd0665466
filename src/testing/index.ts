/**
 * `inferloop/testing`: a fake service that speaks the whole interface over real HTTP on
 * loopback, for integration tests, users' tests and the demo. It is an independent server
 * implementation and imports nothing from the client SDK.
 *
 * The msw handlers live in `./msw.ts` (entry `inferloop/testing/msw`), so importing this entry
 * never loads `msw`. The fake's stores are reached through a service (`svc.annotation`,
 * `svc.state.faults`, `svc.state.calls`, ...); only the two the guides use are exported, for
 * their reference. Its own record types are named `Fake*`, apart from the SDK's types.
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

export type {
  FakeAnnotationQueue,
  FakeAnnotationQueueItem,
  FakeAnnotationState,
} from "./annotation-queues/store.js";
export { AnnotationStore } from "./annotation-queues/store.js";
export { userIdFor } from "./auth.js";
export type { GenerateCallsOptions } from "./calls/seed.js";
export { generateCall, generateCalls, SEED_OTHER_PROJECT_ID, SEED_USER_IDS, seedCallRecords } from "./calls/seed.js";
export { referenceCalls, SEED_PROJECT_ID } from "./calls/seed-reference.js";
export { tokenize } from "./chat/tokens.js";
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
export type { FakeFeedbackRow } from "./feedback/store.js";
export { DEFAULT_MODELS } from "./models/routes.js";
export type { FakeServiceOptions } from "./options.js";
export type { FakeService } from "./server.js";
export { startFakeService } from "./server.js";
export { createFakeState, FakeState, SEED_ITEM_IDS, SEED_QUEUE_ID } from "./state.js";
export type { FakeTrainableModel, FakeTrainingEvent } from "./training/records.js";
export { DEFAULT_BASE_MODELS } from "./training/store.js";
export type { BodyPart, FakeCallRecord, FakeModelEntry, FakeTrainingJob, RecordedRequest } from "./types.js";
export type { FakeWandbRun } from "./wandb-runs/store.js";
