import type { APIPromise } from "../../core/api-promise.js";
import { callEndpoint, endpoint } from "../../core/endpoint.js";
import { readJSON } from "../../core/http-client.js";
import { expectMemberObject, expectObject } from "../../core/response-shape.js";
import type { RequestOptions } from "../../core/options.js";
import { APIResource } from "../../core/resource.js";
import { annotationQueueItemProgressParamsSchema, type AnnotationQueueItemProgressParams } from "./request-schema.js";
import type { AnnotationQueueItemProgressResponse } from "./types.js";

// Setting the same state twice is a no-op on the server: retried like a GET.
const itemsProgress = endpoint<
  AnnotationQueueItemProgressParams,
  AnnotationQueueItemProgressParams,
  AnnotationQueueItemProgressResponse
>({
  operation: "annotation_queues.items.progress",
  method: "POST",
  path: "/annotation_queues/{queueId}/items/{itemId}/progress",
  service: "trace",
  retry: "safe",
  pathArguments: "encoded",
  body: annotationQueueItemProgressParamsSchema,
  what: "annotation progress request",
  read: async (res) => {
    const body = expectObject(await readJSON<unknown>(res), "annotation progress response");
    expectMemberObject(body, "item", "annotation progress response", "item", false);
    return body as unknown as AnnotationQueueItemProgressResponse;
  },
});

/**
 * Items of annotation queues (Basic auth, sent to `traceBaseURL`).
 *
 * @example
 * ```ts
 * await client.annotationQueues.items.progress(queueId, itemId, { annotation_state: "in_progress", project_id: "acme/bot" });
 * ```
 */
export class AnnotationQueueItems extends APIResource {
  /**
   * Set the annotation state of one item: `in_progress`, `completed` or `skipped`. The server
   * records the annotator from the credentials. Retried on failure: setting the same state
   * twice is a no-op on the server.
   *
   * @example
   * ```ts
   * const { item } = await client.annotationQueues.items.progress(queueId, itemId, {
   *   annotation_state: "completed",
   *   project_id: "acme/support-bot",
   * });
   * console.log(item.annotation_state, item.updated_at);
   * ```
   */
  progress(
    queueId: string,
    itemId: string,
    params: AnnotationQueueItemProgressParams,
    options?: RequestOptions,
  ): APIPromise<AnnotationQueueItemProgressResponse> {
    return callEndpoint(this._http, itemsProgress, { pathArguments: { queueId, itemId }, params }, options);
  }
}

/**
 * Annotation queues of the tracing store: `client.annotationQueues.items`.
 *
 * @example
 * ```ts
 * const { item } = await client.annotationQueues.items.progress(queueId, itemId, { annotation_state: "completed", project_id: "acme/bot" });
 * ```
 */
export class AnnotationQueues extends APIResource {
  /** Queue items. */
  readonly items: AnnotationQueueItems = new AnnotationQueueItems(this._http);
}
