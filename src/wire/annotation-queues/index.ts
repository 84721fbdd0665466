// Transport-free parts of `client.annotationQueues` that users import: the request schema and
// the types. Values by name, so the validation internals stay internal; types pass through whole.

export type * from "./request-schema.js";
export { annotationQueueItemProgressParamsSchema } from "./request-schema.js";
export type * from "./types.js";
