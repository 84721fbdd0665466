/**
 * Annotation queues and items with per-annotator progress, as Weave keeps them; the
 * `POST /annotation_queues/{queue_id}/items/{item_id}/progress` route (`routes.ts`) applies
 * {@link AnnotationStore.progress}.
 *
 * Rules (Weave's `annotator_queue_items_progress_update`, `wandb/weave`
 * `weave/trace_server/clickhouse/annotation_queues.py`), per annotator: no record → in_progress, completed or
 * skipped; in_progress → completed or skipped; same → same is a no-op returning the item;
 * in_progress over an existing record and completed ↔ skipped are refused (400); `unstarted` or
 * any other value is refused (400); an unknown queue, item, or a project that does not own the
 * queue gives 400 (the real server raises ValueError, not 404). The item shows the state and
 * annotator of the most recent progress row across annotators, `unstarted` when none.
 */
import type { FakeCallRecord } from "../types.js";
import { deterministicUuid7, isoMicros } from "../util.js";

/**
 * States an annotator can set.
 */
export const SETTABLE_STATES = ["in_progress", "completed", "skipped"] as const;

/**
 * A settable annotation state.
 */
export type FakeAnnotationState = (typeof SETTABLE_STATES)[number];

/**
 * An annotation queue item as the API returns it (every member present).
 */
export interface FakeAnnotationQueueItem {
  id: string;
  project_id: string;
  queue_id: string;
  call_id: string;
  call_started_at: string;
  call_ended_at: string | null;
  call_op_name: string;
  call_trace_id: string;
  display_fields: string[];
  added_by: string | null;
  annotation_state: FakeAnnotationState | "unstarted";
  annotator_user_id: string | null;
  created_at: string;
  created_by: string;
  updated_at: string;
  deleted_at: string | null;
  position_in_queue: number | null;
}

/**
 * An annotation queue with its items.
 */
export interface FakeAnnotationQueue {
  id: string;
  project_id: string;
  name: string;
  description: string;
  scorer_refs: string[];
  created_at: string;
  created_by: string;
  updated_at: string;
  deleted_at: string | null;
  items: Map<string, StoredItem>;
}

interface ProgressRow {
  state: FakeAnnotationState;
  seq: number;
}

/**
 * An item as stored: the public fields minus state, plus progress rows per annotator.
 */
export interface StoredItem
  extends Omit<FakeAnnotationQueueItem, "annotation_state" | "annotator_user_id" | "position_in_queue"> {
  progress: Map<string, ProgressRow>;
}

/**
 * Decides a transition for one annotator: `"apply"`, `"noop"`, or a refusal message.
 *
 * @example
 * ```ts
 * checkTransition("completed", "skipped");
 * // { refused: "Invalid state transition from 'completed' to 'skipped'. Only transitions from 'in_progress' or 'unstarted' are allowed." }
 * ```
 */
export function checkTransition(
  current: FakeAnnotationState | undefined,
  next: FakeAnnotationState,
): "apply" | "noop" | { refused: string } {
  if (current === undefined) return "apply";
  if (current === next) return "noop";
  // Weave's wording (annotation_queues progress update in its trace servers): 'in_progress'
  // only on an item without a record, other states only from 'in_progress' or 'unstarted'.
  if (next === "in_progress")
    return {
      refused:
        "Cannot transition to 'in_progress' when a record already exists. 'in_progress' can only be set on new items.",
    };
  if (current === "in_progress") return "apply";
  return {
    refused: `Invalid state transition from '${current}' to '${next}'. Only transitions from 'in_progress' or 'unstarted' are allowed.`,
  };
}

/**
 * Queues and items of one fake service.
 *
 * @example
 * ```ts
 * const queue = svc.annotation.addQueue({ project_id: "acme/support-bot" });
 * svc.annotation.addItem(queue.id, { call: referenceCalls()[0]! });
 * ```
 */
export class AnnotationStore {
  readonly queues = new Map<string, FakeAnnotationQueue>();
  private seq = 0;
  private clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.clock = clock;
  }

  /**
   * Creates a queue (id generated unless given).
   *
   * @example
   * ```ts
   * svc.annotation.addQueue({ id: "q1", project_id: "acme/support-bot", name: "Triage" });
   * ```
   */
  addQueue(init: {
    project_id: string;
    id?: string;
    name?: string;
    description?: string;
    created_by?: string;
  }): FakeAnnotationQueue {
    const now = this.clock();
    const id = init.id ?? deterministicUuid7(now, `queue:${this.queues.size}:${init.project_id}`);
    const queue: FakeAnnotationQueue = {
      id,
      project_id: init.project_id,
      name: init.name ?? `Queue ${this.queues.size + 1}`,
      description: init.description ?? "",
      scorer_refs: [],
      created_at: isoMicros(now),
      created_by: init.created_by ?? "VXNlcjoxMjM0NTY=",
      updated_at: isoMicros(now),
      deleted_at: null,
      items: new Map(),
    };
    this.queues.set(id, queue);
    return queue;
  }

  /**
   * Adds a call to a queue as an item and returns it as the API would.
   *
   * @example
   * ```ts
   * const queue = svc.annotation.addQueue({ project_id: "acme/support-bot" });
   * svc.annotation.addItem(queue.id, { call: referenceCalls()[0]!, display_fields: ["inputs.question"] });
   * ```
   */
  addItem(
    queueId: string,
    init: { call: FakeCallRecord; id?: string; display_fields?: string[]; added_by?: string },
  ): FakeAnnotationQueueItem {
    const queue = this.queues.get(queueId);
    if (queue === undefined) throw new Error(`fake service: no annotation queue ${queueId}`);
    const now = this.clock();
    const id = init.id ?? deterministicUuid7(now, `item:${queueId}:${queue.items.size}:${init.call.id}`);
    const added = init.added_by ?? "VXNlcjoxMjM0NTY=";
    queue.items.set(id, {
      id,
      project_id: queue.project_id,
      queue_id: queue.id,
      call_id: init.call.id,
      call_started_at: init.call.started_at,
      call_ended_at: typeof init.call["ended_at"] === "string" ? init.call["ended_at"] : null,
      call_op_name: init.call.op_name,
      call_trace_id: init.call.trace_id,
      display_fields: init.display_fields ?? ["inputs", "output"],
      added_by: added,
      created_at: isoMicros(now),
      created_by: added,
      updated_at: isoMicros(now),
      deleted_at: null,
      progress: new Map(),
    });
    return this.view(queue.items.get(id)!);
  }

  /**
   * Records progress for an annotator without checking the rules (to prepare a scenario).
   *
   * @example
   * ```ts
   * svc.annotation.setProgress(SEED_QUEUE_ID, SEED_ITEM_IDS[0], "completed", "VXNlcjo3ODkw");
   * ```
   */
  setProgress(queueId: string, itemId: string, state: FakeAnnotationState, annotatorUserId: string): void {
    const item = this.queues.get(queueId)?.items.get(itemId);
    if (item === undefined) throw new Error(`fake service: no item ${itemId} in queue ${queueId}`);
    item.progress.set(annotatorUserId, { state, seq: ++this.seq });
    item.updated_at = isoMicros(this.clock());
  }

  /**
   * The public view of an item, or `undefined`.
   *
   * @example
   * ```ts
   * svc.annotation.getItem(SEED_QUEUE_ID, SEED_ITEM_IDS[0])?.annotation_state; // "unstarted"
   * ```
   */
  getItem(queueId: string, itemId: string): FakeAnnotationQueueItem | undefined {
    const item = this.queues.get(queueId)?.items.get(itemId);
    return item === undefined ? undefined : this.view(item);
  }

  private view(item: StoredItem): FakeAnnotationQueueItem {
    let latest: [string, ProgressRow] | undefined;
    for (const entry of item.progress) if (latest === undefined || entry[1].seq > latest[1].seq) latest = entry;
    const { progress: _progress, ...fields } = item;
    return {
      ...fields,
      display_fields: [...item.display_fields],
      annotation_state: latest?.[1].state ?? "unstarted",
      annotator_user_id: latest?.[0] ?? null,
      position_in_queue: null,
    };
  }

  /**
   * Applies the progress operation for an annotator, enforcing the transition rules.
   *
   * @example
   * ```ts
   * const result = svc.annotation.progress(SEED_QUEUE_ID, SEED_ITEM_IDS[0], SEED_PROJECT_ID, "completed", svc.userId);
   * ```
   */
  progress(
    queueId: string,
    itemId: string,
    projectId: string,
    state: string,
    annotatorUserId: string,
  ): { item: FakeAnnotationQueueItem } | { status: number; reason: string } {
    if (!(SETTABLE_STATES as readonly string[]).includes(state)) {
      return {
        status: 400,
        // Weave's words: the states sorted by name.
        reason: `Invalid annotation_state '${state}'. Must be one of: ${[...SETTABLE_STATES].sort().join(", ")}`,
      };
    }
    const queue = this.queues.get(queueId);
    const item =
      queue !== undefined && queue.project_id === projectId && queue.deleted_at === null
        ? queue.items.get(itemId)
        : undefined;
    if (item === undefined || item.deleted_at !== null) {
      return { status: 400, reason: `Queue item '${itemId}' not found in queue '${queueId}'` };
    }
    const decision = checkTransition(item.progress.get(annotatorUserId)?.state, state as FakeAnnotationState);
    if (typeof decision === "object") return { status: 400, reason: decision.refused };
    if (decision === "apply") this.setProgress(queueId, itemId, state as FakeAnnotationState, annotatorUserId);
    return { item: this.view(item) };
  }
}
