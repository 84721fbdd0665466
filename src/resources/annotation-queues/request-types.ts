/**
 * Named type of the annotation-progress request body.
 *
 * @module
 */

/**
 * Body of `POST /annotation_queues/{queue_id}/items/{item_id}/progress`. The annotator is not
 * in the body: the server takes it from the authenticated session.
 *
 * @example
 * ```ts
 * const params: AnnotationQueueItemProgressParams = { annotation_state: "in_progress", project_id: "acme/support-bot" };
 * ```
 */
export interface AnnotationQueueItemProgressParams {
  /** The state to set for the caller: `"in_progress"`, `"completed"` or `"skipped"`. */
  annotation_state: "in_progress" | "completed" | "skipped";
  /** The project, `"<entity>/<project>"`: two non-empty parts, no whitespace. */
  project_id: string;
}

/**
 * One sort key of a queue or item list. Weave requires both members and ignores a field it
 * cannot sort by (queues: `id`, `name`, `created_at`, `updated_at`; items: `call_started_at`,
 * `call_op_name`, `created_at`, `updated_at`).
 *
 * @example
 * ```ts
 * const sort: AnnotationQueueSortBy = { field: "created_at", direction: "desc" };
 * ```
 */
export interface AnnotationQueueSortBy {
  field: string;
  direction: "asc" | "desc";
}

/**
 * Body of `POST /annotation_queues`.
 *
 * @example
 * ```ts
 * const params: AnnotationQueueCreateParams = { project_id: "acme/bot", name: "Rollout review", scorer_refs: [] };
 * ```
 */
export interface AnnotationQueueCreateParams {
  /** The project, `"<entity>/<project>"`. */
  project_id: string;
  name: string;
  /** Default `""`. */
  description?: string | undefined;
  /** Refs of the scorers (annotation specs) reviewers fill in: `weave:///...` refs; may be empty. */
  scorer_refs: string[];
}

/**
 * Body of `POST /annotation_queues/query` (the paging members come from the list).
 *
 * @example
 * ```ts
 * const params: AnnotationQueueListParams = { project_id: "acme/bot", name: "review" };
 * ```
 */
export interface AnnotationQueueListParams {
  project_id: string;
  /** Case-insensitive substring of the queue name. */
  name?: string | null | undefined;
  /** Default: `created_at` descending, then `id`. */
  sort_by?: AnnotationQueueSortBy[] | null | undefined;
  /** Caps the total number of queues read. */
  limit?: number | null | undefined;
  /** Where the first page starts. */
  offset?: number | null | undefined;
}

/**
 * Query of `GET` and `DELETE /annotation_queues/{queue_id}`.
 *
 * @example
 * ```ts
 * const params: AnnotationQueueRetrieveParams = { project_id: "acme/bot" };
 * ```
 */
export interface AnnotationQueueRetrieveParams {
  project_id: string;
}

/**
 * Body of `PUT /annotation_queues/{queue_id}`: only the members given change.
 *
 * @example
 * ```ts
 * const params: AnnotationQueueUpdateParams = { project_id: "acme/bot", description: "Rollouts of step 3" };
 * ```
 */
export interface AnnotationQueueUpdateParams {
  project_id: string;
  name?: string | null | undefined;
  description?: string | null | undefined;
  scorer_refs?: string[] | null | undefined;
}

/**
 * Body of `POST /annotation_queues/stats`.
 *
 * @example
 * ```ts
 * const params: AnnotationQueueStatsParams = { project_id: "acme/bot", queue_ids: [queueId] };
 * ```
 */
export interface AnnotationQueueStatsParams {
  project_id: string;
  queue_ids: string[];
}

/**
 * Body of `POST /annotation_queues/{queue_id}/items`.
 *
 * @example
 * ```ts
 * const params: AnnotationQueueItemAddParams = { project_id: "acme/bot", call_ids: [callId] };
 * ```
 */
export interface AnnotationQueueItemAddParams {
  project_id: string;
  /** The calls to review: at least one. Calls already in the queue and unknown ids are skipped. */
  call_ids: string[];
  /** JSON paths of the call shown to reviewers (`"inputs.messages"`); sent as `[]` when left out. */
  display_fields?: string[] | undefined;
}

/**
 * Exact-match filter of an item list.
 *
 * @example
 * ```ts
 * const filter: AnnotationQueueItemFilter = { annotation_states: ["completed", "skipped"] };
 * ```
 */
export interface AnnotationQueueItemFilter {
  id?: string | null | undefined;
  call_id?: string | null | undefined;
  call_op_name?: string | null | undefined;
  call_trace_id?: string | null | undefined;
  added_by?: string | null | undefined;
  annotation_states?: Array<"unstarted" | "in_progress" | "completed" | "skipped"> | null | undefined;
}

/**
 * Body of `POST /annotation_queues/{queue_id}/items/query` (the paging members come from the list).
 *
 * @example
 * ```ts
 * const params: AnnotationQueueItemListParams = { project_id: "acme/bot", filter: { annotation_states: ["completed"] } };
 * ```
 */
export interface AnnotationQueueItemListParams {
  project_id: string;
  filter?: AnnotationQueueItemFilter | null | undefined;
  /** Default: `created_at` ascending, then `id`. */
  sort_by?: AnnotationQueueSortBy[] | null | undefined;
  /** Adds each item's 1-based `position_in_queue`. */
  include_position?: boolean | undefined;
  /** Caps the total number of items read. */
  limit?: number | null | undefined;
  /** Where the first page starts. */
  offset?: number | null | undefined;
}

/**
 * Options of a paged list: how many rows one request asks for.
 *
 * @example
 * ```ts
 * const options: PagedListOptions = { pageSize: 100 };
 * ```
 */
export interface PagedListOptions {
  /** Rows per request, default 1000. */
  pageSize?: number | undefined;
}
