// Response types of annotation-queue item progress. Unknown members are kept.

/**
 * The state of an item as shown to readers: the latest progress of any annotator, `unstarted`
 * when none exists yet. Open: newer servers may add values.
 */
export type AnnotationState = "unstarted" | "in_progress" | "completed" | "skipped" | (string & {});

/**
 * One item of an annotation queue: a call put up for annotation.
 */
export interface AnnotationQueueItem {
  id: string;
  project_id: string;
  queue_id: string;
  call_id: string;
  /** ISO-8601 date-time. */
  call_started_at: string;
  call_op_name: string;
  call_trace_id: string;
  /** JSON paths of the call shown to annotators, e.g. `"inputs.question"`. */
  display_fields: string[];
  annotation_state: AnnotationState;
  /** ISO-8601 date-time. */
  created_at: string;
  created_by: string;
  /** ISO-8601 date-time. */
  updated_at: string;
  /** ISO-8601 date-time; null while the call runs. */
  call_ended_at?: string | null;
  added_by?: string | null;
  /** The annotator of the latest progress; newer servers only. */
  annotator_user_id?: string | null;
  /** ISO-8601 date-time. */
  deleted_at?: string | null;
  /** 1-based; only when the query asked for positions. */
  position_in_queue?: number | null;
  [key: string]: unknown;
}

/**
 * Response of annotation-queue item progress.
 */
export interface AnnotationQueueItemProgressResponse {
  item: AnnotationQueueItem;
  [key: string]: unknown;
}

/**
 * An annotation queue.
 */
export interface AnnotationQueue {
  id: string;
  project_id: string;
  name: string;
  description: string;
  scorer_refs: string[];
  /** ISO-8601 date-time. */
  created_at: string;
  created_by: string;
  /** ISO-8601 date-time. */
  updated_at: string;
  /** Set once the queue is deleted (soft delete). */
  deleted_at?: string | null;
  [key: string]: unknown;
}

/**
 * Response of `annotationQueues.create`.
 */
export interface AnnotationQueueCreateResponse {
  id: string;
  [key: string]: unknown;
}

/**
 * The counts of one queue: items, and items completed or skipped by at least one reviewer.
 */
export interface AnnotationQueueStats {
  queue_id: string;
  total_items: number;
  completed_items: number;
  [key: string]: unknown;
}

/**
 * Response of `annotationQueues.stats`.
 */
export interface AnnotationQueueStatsResponse {
  stats: AnnotationQueueStats[];
  [key: string]: unknown;
}

/**
 * Response of `annotationQueues.items.add`: calls added, and calls already in the queue.
 */
export interface AnnotationQueueItemAddResponse {
  added_count: number;
  duplicates: number;
  [key: string]: unknown;
}
