import { offsetPages } from "../../core/lists/paging.js";
import { endpoint } from "../../core/pipeline/endpoint.js";
import { readHaving, readObject, readUnwrapped, readWithId } from "../../core/pipeline/read-body.js";
import {
  annotationQueueCreateParamsSchema,
  annotationQueueItemAddParamsSchema,
  annotationQueueItemListParamsSchema,
  annotationQueueItemProgressParamsSchema,
  annotationQueueListParamsSchema,
  annotationQueueRetrieveParamsSchema,
  annotationQueueStatsParamsSchema,
  annotationQueueUpdateParamsSchema,
} from "./request-schema.js";
import type {
  AnnotationQueue,
  AnnotationQueueCreateResponse,
  AnnotationQueueItem,
  AnnotationQueueItemAddResponse,
  AnnotationQueueItemProgressResponse,
  AnnotationQueueStatsResponse,
} from "./types.js";

/** Weave answers retrieve, update and delete with `{ queue }`: the queue itself is returned. */
const readQueue = readUnwrapped<AnnotationQueue>("queue");

// A create is not idempotent (a second attempt makes a second queue): only retried when unsent.
export const queuesCreate = endpoint({
  operation: "annotation_queues.create",
  method: "POST",
  path: "/annotation_queues",
  service: "trace",
  retry: "unsent-only",
  creates: "annotation queue",
  body: annotationQueueCreateParamsSchema,
  read: readWithId<AnnotationQueueCreateResponse>,
});

// NDJSON, one queue a line (Weave's Stainless client asks with this Accept).
export const queuesList = endpoint({
  operation: "annotation_queues.list",
  method: "POST",
  path: "/annotation_queues/query",
  service: "trace",
  retry: "safe",
  hooks: { headers: { accept: "application/x-ndjson" } },
  body: annotationQueueListParamsSchema,
  page: offsetPages<AnnotationQueue>("annotation queue", { lines: "NDJSON row" }),
});

export const queuesRetrieve = endpoint({
  operation: "annotation_queues.retrieve",
  method: "GET",
  path: "/annotation_queues/{queueId}",
  service: "trace",
  retry: "safe",
  query: annotationQueueRetrieveParamsSchema,
  read: readQueue,
});

// Setting the same members twice gives the same queue: retried like a GET.
export const queuesUpdate = endpoint({
  operation: "annotation_queues.update",
  method: "PUT",
  path: "/annotation_queues/{queueId}",
  service: "trace",
  retry: "safe",
  body: annotationQueueUpdateParamsSchema,
  read: readQueue,
});

// A second delete of a deleted queue is answered 404: not retried once sent.
export const queuesDelete = endpoint({
  operation: "annotation_queues.delete",
  method: "DELETE",
  path: "/annotation_queues/{queueId}",
  service: "trace",
  retry: "unsent-only",
  query: annotationQueueRetrieveParamsSchema,
  read: readQueue,
});

export const queuesStats = endpoint({
  operation: "annotation_queues.stats",
  method: "POST",
  path: "/annotation_queues/stats",
  service: "trace",
  retry: "safe",
  body: annotationQueueStatsParamsSchema,
  read: readHaving<AnnotationQueueStatsResponse>("stats", "array"),
});

// Calls already in the queue are counted as duplicates, never added twice: retried like a GET.
export const itemsAdd = endpoint({
  operation: "annotation_queues.items.add",
  method: "POST",
  path: "/annotation_queues/{queueId}/items",
  service: "trace",
  retry: "safe",
  // Weave's model requires display_fields: a caller who shows nothing in particular sends [].
  body: {
    schema: annotationQueueItemAddParamsSchema,
    prepare: (body) => ({ ...body, display_fields: body.display_fields ?? [] }),
  },
  read: readObject<AnnotationQueueItemAddResponse>,
});

export const itemsList = endpoint({
  operation: "annotation_queues.items.list",
  method: "POST",
  path: "/annotation_queues/{queueId}/items/query",
  service: "trace",
  retry: "safe",
  body: annotationQueueItemListParamsSchema,
  page: offsetPages<AnnotationQueueItem>("annotation queue item", { member: "items" }),
});

// Setting the same state twice is a no-op on the server: retried like a GET.
export const itemsProgress = endpoint({
  operation: "annotation_queues.items.progress",
  method: "POST",
  path: "/annotation_queues/{queueId}/items/{itemId}/progress",
  service: "trace",
  retry: "safe",
  hooks: { encodePathArguments: true },
  body: annotationQueueItemProgressParamsSchema,
  read: readHaving<AnnotationQueueItemProgressResponse>("item", "object"),
});
