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
