// Transport-free parts of `client.annotationQueues` that users import: the request schema and
// the types. Values by name, so the validation internals stay internal; types by name too, so
// the other request schemas do not reach the declarations as type-only names.
export { annotationQueueItemProgressParamsSchema } from "./request-schema.js";
export type {
  AnnotationQueueCreateParams,
  AnnotationQueueItemAddParams,
  AnnotationQueueItemFilter,
  AnnotationQueueItemListParams,
  AnnotationQueueItemProgressParams,
  AnnotationQueueListParams,
  AnnotationQueueRetrieveParams,
  AnnotationQueueSortBy,
  AnnotationQueueStatsParams,
  AnnotationQueueUpdateParams,
  PagedListOptions,
} from "./request-schema.js";
export type * from "./types.js";
