import { lazyOffsetList, type OffsetList } from "../core/lists/offset-list.js";
import type { PagedListOptions } from "../core/lists/paging.js";
import type { APIPromise } from "../core/pipeline/api-promise.js";
import { callLazyEndpoint } from "../core/pipeline/lazy-endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type {
  AnnotationQueueCreateParams,
  AnnotationQueueItemAddParams,
  AnnotationQueueItemListParams,
  AnnotationQueueItemProgressParams,
  AnnotationQueueListParams,
  AnnotationQueueRetrieveParams,
  AnnotationQueueStatsParams,
  AnnotationQueueUpdateParams,
} from "../wire/annotation-queues/request-schema.js";
import type {
  AnnotationQueue,
  AnnotationQueueCreateResponse,
  AnnotationQueueItem,
  AnnotationQueueItemAddResponse,
  AnnotationQueueItemProgressResponse,
  AnnotationQueueStatsResponse,
} from "../wire/annotation-queues/types.js";

// Loaded at the first call: a page that never reviews calls does not carry the queues' schemas.
const wire = () => import("../wire/annotation-queues/endpoints.js");

/**
 * Items of annotation queues (Basic auth, sent to `traceBaseURL`).
 */
export class AnnotationQueueItems extends APIResource {
  /**
   * Put calls up for review. Calls already in the queue are counted in `duplicates` and not
   * added again; ids of calls the project does not hold are skipped without an error (they are
   * in neither count). `display_fields` is sent as `[]` when left out.
   *
   * @example
   * ```ts
   * const { added_count, duplicates } = await client.annotationQueues.items.add(queueId, {
   *   project_id: "acme/support-bot",
   *   call_ids: ["0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01"],
   *   display_fields: ["inputs.messages", "output.choices"],
   * });
   * ```
   */
  add(
    queueId: string,
    params: AnnotationQueueItemAddParams,
    options?: RequestOptions,
  ): APIPromise<AnnotationQueueItemAddResponse> {
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.itemsAdd),
      { pathArguments: { queueId }, params },
      options,
    );
  }

  /**
   * A queue's items, paged with `limit`/`offset` (`for await`, `.pages()`, `.toArray()`), in
   * `created_at` order unless `sort_by` says otherwise. Each item shows the latest state any
   * reviewer set (`unstarted` until someone does). Nothing is sent until iteration starts.
   *
   * @example
   * ```ts
   * const done = client.annotationQueues.items.list(queueId, {
   *   project_id: "acme/support-bot",
   *   filter: { annotation_states: ["completed"] },
   * });
   * for await (const item of done) console.log(item.call_id, item.annotator_user_id);
   * ```
   */
  list(
    queueId: string,
    params: AnnotationQueueItemListParams,
    options?: PagedListOptions & RequestOptions,
  ): OffsetList<AnnotationQueueItem> {
    return lazyOffsetList(
      this._http,
      () => wire().then((w) => w.itemsList),
      { pathArguments: { queueId }, params },
      options,
    );
  }

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
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.itemsProgress),
      { pathArguments: { queueId, itemId }, params },
      options,
    );
  }
}

/**
 * Annotation queues of the tracing store: `client.annotationQueues.items`.
 */
export class AnnotationQueues extends APIResource {
  /** Queue items. */
  readonly items: AnnotationQueueItems = new AnnotationQueueItems(this._http);

  /**
   * Create a queue. Not retried once sent (a second attempt would make a second queue) unless
   * an `idempotencyKey` is given.
   *
   * @example
   * ```ts
   * const { id } = await client.annotationQueues.create({
   *   project_id: "acme/support-bot",
   *   name: "Rollout review",
   *   scorer_refs: [],
   * });
   * ```
   */
  create(params: AnnotationQueueCreateParams, options?: RequestOptions): APIPromise<AnnotationQueueCreateResponse> {
    return callLazyEndpoint(this._http, () => wire().then((w) => w.queuesCreate), { params }, options);
  }

  /**
   * A project's queues (deleted ones left out), streamed as NDJSON and paged with
   * `limit`/`offset`: `for await`, `.pages()`, `.toArray()`. Newest first unless `sort_by`
   * says otherwise.
   *
   * @example
   * ```ts
   * for await (const queue of client.annotationQueues.list({ project_id: "acme/support-bot", name: "review" }))
   *   console.log(queue.id, queue.name);
   * ```
   */
  list(params: AnnotationQueueListParams, options?: PagedListOptions & RequestOptions): OffsetList<AnnotationQueue> {
    return lazyOffsetList(this._http, () => wire().then((w) => w.queuesList), { params }, options);
  }

  /**
   * One queue (a deleted or unknown one rejects with `NotFoundError`).
   *
   * @example
   * ```ts
   * const queue = await client.annotationQueues.retrieve(queueId, { project_id: "acme/support-bot" });
   * console.log(queue.name, queue.scorer_refs);
   * ```
   */
  retrieve(
    queueId: string,
    params: AnnotationQueueRetrieveParams,
    options?: RequestOptions,
  ): APIPromise<AnnotationQueue> {
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.queuesRetrieve),
      { pathArguments: { queueId }, params },
      options,
    );
  }

  /**
   * Change a queue's name, description or scorers; members left out (or null) stay as they are.
   * Resolves to the updated queue.
   *
   * @example
   * ```ts
   * const queue = await client.annotationQueues.update(queueId, { project_id: "acme/support-bot", description: "step 3" });
   * ```
   */
  update(queueId: string, params: AnnotationQueueUpdateParams, options?: RequestOptions): APIPromise<AnnotationQueue> {
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.queuesUpdate),
      { pathArguments: { queueId }, params },
      options,
    );
  }

  /**
   * Delete a queue (soft: Weave keeps it with `deleted_at` set, and lists and reads leave it
   * out). Resolves to the deleted queue.
   *
   * @example
   * ```ts
   * const { deleted_at } = await client.annotationQueues.delete(queueId, { project_id: "acme/support-bot" });
   * ```
   */
  delete(
    queueId: string,
    params: AnnotationQueueRetrieveParams,
    options?: RequestOptions,
  ): APIPromise<AnnotationQueue> {
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.queuesDelete),
      { pathArguments: { queueId }, params },
      options,
    );
  }

  /**
   * Item counts of some queues: total, and completed or skipped by at least one reviewer.
   *
   * @example
   * ```ts
   * const { stats } = await client.annotationQueues.stats({ project_id: "acme/support-bot", queue_ids: [queueId] });
   * console.log(`${stats[0]!.completed_items}/${stats[0]!.total_items} reviewed`);
   * ```
   */
  stats(params: AnnotationQueueStatsParams, options?: RequestOptions): APIPromise<AnnotationQueueStatsResponse> {
    return callLazyEndpoint(this._http, () => wire().then((w) => w.queuesStats), { params }, options);
  }
}
