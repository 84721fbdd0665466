/**
 * The in-memory state of one fake service (shared by the node server and the msw handlers):
 * credentials, models, calls, annotation queues, training jobs, faults, recorded requests.
 */
import { AnnotationStore } from "./annotation-queues/store.js";
import { ArtifactStore } from "./artifacts/store.js";
import type { Credentials } from "./auth.js";
import { userIdFor } from "./auth.js";
import { seedCallRecords } from "./calls/seed.js";
import { referenceCalls, SEED_PROJECT_ID } from "./calls/seed-reference.js";
import { CallStore } from "./calls/store.js";
import type { Fault } from "./faults/kinds.js";
import { FaultQueue } from "./faults/queue.js";
import { FeedbackStore } from "./feedback/store.js";
import { DEFAULT_MODELS, toModelEntries } from "./models/routes.js";
import type { FakeServiceOptions } from "./options.js";
import { TrainingJobStore } from "./training/jobs.js";
import { DEFAULT_BASE_MODELS, TrainableStore } from "./training/store.js";
import type { FakeCallRecord, FakeModelEntry, FakeTrainingJob, RecordedRequest } from "./types.js";
import { WandbRunStore } from "./wandb-runs/store.js";

/**
 * Id of the seeded annotation queue (project `acme/support-bot`).
 *
 * @example
 * ```ts
 * const url = `${svc.url}/annotation_queues/${SEED_QUEUE_ID}/items/${SEED_ITEM_IDS[0]}/progress`;
 * ```
 */
export const SEED_QUEUE_ID = "0195a3cf-1a2b-7c3d-8e4f-5a6b7c8d9e0f";

/**
 * Ids of the seeded queue's items, one per reference call. Items 0–2 start `unstarted`; item 3
 * was completed by another annotator (`VXNlcjo3ODkw`), so it shows `completed` while the
 * session user has no progress row on it yet.
 *
 * @example
 * ```ts
 * svc.annotation.getItem(SEED_QUEUE_ID, SEED_ITEM_IDS[3])!.annotation_state; // "completed"
 * ```
 */
export const SEED_ITEM_IDS = [
  "0195a3d0-44c1-7a10-9e2f-5b6c7d8e9f01",
  "0195a3d0-44c1-7a10-9e2f-5b6c7d8e9f02",
  "0195a3d0-44c1-7a10-9e2f-5b6c7d8e9f03",
  "0195a3d0-44c1-7a10-9e2f-5b6c7d8e9f04",
] as const;

/**
 * Creates the state of a fake service without starting anything; pass it to
 * `createHandlers(state)` to inspect it from msw-based tests.
 *
 * @example
 * ```ts
 * const state = createFakeState({ seedCalls: false });
 * state.calls.insert(referenceCalls());
 * ```
 */
export function createFakeState(options: FakeServiceOptions = {}): FakeState {
  return new FakeState(options);
}

/**
 * State of one fake service. Mutate it freely from tests.
 *
 * @example
 * ```ts
 * const state = createFakeState();
 * state.faults.inject({ kind: "status", status: 503 });
 * ```
 */
export class FakeState {
  readonly credentials: Credentials;
  /** User id of the Basic-auth session (becomes `annotator_user_id`). */
  readonly userId: string;
  models: FakeModelEntry[];
  latencyMs: number;
  /** Answers as a vLLM started with `--enable-auto-tool-choice` (option `autoToolChoice`). */
  readonly autoToolChoice: boolean;
  /** Compress JSON and JSONL answers when the client accepts it (option `compression`). */
  readonly compression: boolean;
  readonly calls = new CallStore();
  readonly annotation = new AnnotationStore();
  /** Feedback created through `/feedback/create`; call queries with `include_feedback` return it. */
  readonly feedback = new FeedbackStore();
  readonly training = new TrainingJobStore();
  /** W&B artifacts (GraphQL) and the objects of their signed storage. */
  readonly artifacts = new ArtifactStore();
  /** Trainable models, base models, checkpoints and the events of jobs. */
  readonly trainable: TrainableStore;
  /** W&B runs (GraphQL `upsertBucket`) and the history their file_stream wrote. */
  readonly wandbRuns = new WandbRunStore();
  readonly faults = new FaultQueue();
  readonly requests: RecordedRequest[] = [];
  private readonly options: FakeServiceOptions;

  constructor(options: FakeServiceOptions = {}) {
    this.options = options;
    const apiKey = options.apiKey ?? "fake-api-key";
    const username = options.username ?? "api";
    this.credentials = { apiKey, username, password: options.password ?? apiKey };
    this.userId = userIdFor(username);
    this.models = toModelEntries(options.models ?? DEFAULT_MODELS);
    this.latencyMs = options.latencyMs ?? 0;
    this.compression = options.compression === true;
    this.autoToolChoice = options.autoToolChoice !== false;
    this.trainable = new TrainableStore({
      stepMs: options.trainingStepMs ?? 5,
      jobMs: options.trainingJobMs,
      entity: options.entity ?? "acme",
      baseModels: options.baseModels ?? DEFAULT_BASE_MODELS,
    });
    this.calls.feedbackOf = (record) => this.feedback.forCall(record);
    this.seed();
  }

  /**
   * Training jobs created so far (count them to prove there was no duplicate).
   *
   * @example
   * ```ts
   * expect(svc.state.trainingJobs).toHaveLength(1);
   * ```
   */
  get trainingJobs(): FakeTrainingJob[] {
    return this.training.list;
  }

  private seed(): void {
    const o = this.options;
    if (o.seedCalls !== false) this.calls.insert(seedCallRecords(o.seedCallCount ?? 300));
    if (o.calls !== undefined) this.calls.insert(o.calls);
    if (o.syntheticCalls !== undefined && o.syntheticCalls > 0) {
      this.calls.synthetic = { count: o.syntheticCalls, projectId: o.syntheticProjectId ?? "acme/synthetic" };
    }
    const queue = this.annotation.addQueue({
      id: SEED_QUEUE_ID,
      project_id: SEED_PROJECT_ID,
      name: "Support triage",
      description: "Tickets to review",
    });
    referenceCalls().forEach((call: FakeCallRecord, i) => {
      this.annotation.addItem(queue.id, {
        call,
        id: SEED_ITEM_IDS[i]!,
        display_fields: ["inputs.question", "output.answer"],
      });
    });
    this.annotation.setProgress(SEED_QUEUE_ID, SEED_ITEM_IDS[3], "completed", "VXNlcjo3ODkw");
    for (const fault of o.faults ?? []) this.faults.inject(fault);
  }

  /**
   * Back to the initial state: seeds, option faults and models restored; jobs, extra queues,
   * inserted calls and recorded requests forgotten.
   *
   * @example
   * ```ts
   * import { afterEach } from "vitest";
   *
   * afterEach(() => svc.state.reset());
   * ```
   */
  reset(): void {
    this.calls.clear();
    this.calls.synthetic = undefined;
    this.annotation.queues.clear();
    this.feedback.clear();
    this.training.clear();
    this.artifacts.clear();
    this.wandbRuns.clear();
    this.trainable.clear();
    this.trainable.stepMs = this.options.trainingStepMs ?? 5;
    this.trainable.jobMs = this.options.trainingJobMs;
    this.faults.clear();
    this.requests.length = 0;
    this.models = toModelEntries(this.options.models ?? DEFAULT_MODELS);
    this.latencyMs = this.options.latencyMs ?? 0;
    this.seed();
  }

  /**
   * Queues a fault.
   *
   * @example
   * ```ts
   * svc.state.inject(faults.cutStream(2));
   * ```
   */
  inject(fault: Fault): void {
    this.faults.inject(fault);
  }
}
