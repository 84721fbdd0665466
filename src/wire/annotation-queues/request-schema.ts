import * as z from "zod/mini";
import { projectIdSchema } from "../project-id.js";
import { type Fields, type SchemaOf, strictObject } from "../request-shapes.js";
import { ensureZodDefaults } from "../zod-defaults.js";

export { PROJECT_ID_PATTERN } from "../project-id.js";

ensureZodDefaults();

/**
 * The states a caller may set. `unstarted` is what an item shows before anyone touched it, but
 * the server refuses it as a target.
 */
export const ANNOTATION_STATES_SETTABLE = ["in_progress", "completed", "skipped"] as const;
const SETTABLE_WORDS = `"in_progress", "completed" or "skipped"`;
const progressParams = strictObject({
  /** The state to set for the caller: `"in_progress"`, `"completed"` or `"skipped"`. */
  annotation_state: z.enum(ANNOTATION_STATES_SETTABLE, {
    error: (issue) =>
      issue.input === "unstarted"
        ? `annotation_state "unstarted" is the state Weave gives an item nobody has worked on yet, not one a client sets: set ${SETTABLE_WORDS}`
        : `annotation_state must be one of ${SETTABLE_WORDS}`,
  }),
  /** The project, `"<entity>/<project>"`: two non-empty parts, no whitespace. */
  project_id: projectIdSchema,
});
/**
 * Body of `POST /annotation_queues/{queue_id}/items/{item_id}/progress`. The annotator is not
 * in the body: the server takes it from the authenticated session.
 */
export interface AnnotationQueueItemProgressParams extends Fields<typeof progressParams.shape> {}

/**
 * Body of `POST /annotation_queues/{queue_id}/items/{item_id}/progress`.
 */
export const annotationQueueItemProgressParamsSchema: SchemaOf<AnnotationQueueItemProgressParams> = progressParams;

/**
 * A path parameter (`queue_id`, `item_id`): a non-empty string. The method encodes it into the
 * path; this only refuses values that would produce a malformed URL such as `/items//progress`.
 */
export const pathParamSchema = z.string().check(z.minLength(1));

const count = z.nullish(z.int().check(z.nonnegative()));
const sortBy = strictObject({
  /** The field sorted on (queues: `id`, `name`, `created_at`, `updated_at`; items: `call_started_at`, `call_op_name`, `created_at`, `updated_at`). */
  field: z.string().check(z.minLength(1)),
  /** `"asc"` or `"desc"`; Weave requires it. */
  direction: z.enum(["asc", "desc"], { error: 'direction must be "asc" or "desc" (Weave requires it)' }),
});
/**
 * One sort key of a queue or item list. Weave requires both members and ignores a field it
 * cannot sort by (queues: `id`, `name`, `created_at`, `updated_at`; items: `call_started_at`,
 * `call_op_name`, `created_at`, `updated_at`).
 */
export interface AnnotationQueueSortBy extends Fields<typeof sortBy.shape> {}
const sortBySchema: SchemaOf<AnnotationQueueSortBy> = sortBy;
const sortByList = z.nullish(z.array(sortBySchema));

const createParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** The queue's name: not empty. */
  name: z.string().check(z.minLength(1, { error: "name must be a non-empty string" })),
  /** Default `""`. */
  description: z.optional(z.string()),
  /** Refs of the scorers (annotation specs) reviewers fill in: `weave:///...` refs; may be empty. */
  scorer_refs: z.array(z.string()),
});
/**
 * Body of `POST /annotation_queues`.
 */
export interface AnnotationQueueCreateParams extends Fields<typeof createParams.shape> {}

const listParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** Case-insensitive substring of the queue name. */
  name: z.nullish(z.string()),
  /** Default: `created_at` descending, then `id`. */
  sort_by: sortByList,
  /** Caps the total number of queues read. */
  limit: count,
  /** Where the first page starts. */
  offset: count,
});
/**
 * Body of `POST /annotation_queues/query` (the paging members come from the list).
 */
export interface AnnotationQueueListParams extends Fields<typeof listParams.shape> {}

const retrieveParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
});
/**
 * Query of `GET` and `DELETE /annotation_queues/{queue_id}`.
 */
export interface AnnotationQueueRetrieveParams extends Fields<typeof retrieveParams.shape> {}

const updateParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** A new name: not empty. */
  name: z.nullish(z.string().check(z.minLength(1, { error: "name must be a non-empty string" }))),
  /** A new description. */
  description: z.nullish(z.string()),
  /** New scorer refs (`weave:///...`), replacing the queue's. */
  scorer_refs: z.nullish(z.array(z.string())),
});
/**
 * Body of `PUT /annotation_queues/{queue_id}`: only the members given change.
 */
export interface AnnotationQueueUpdateParams extends Fields<typeof updateParams.shape> {}

const statsParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** The queues to count: ids, each not empty. */
  queue_ids: z.array(z.string().check(z.minLength(1))),
});
/**
 * Body of `POST /annotation_queues/stats`.
 */
export interface AnnotationQueueStatsParams extends Fields<typeof statsParams.shape> {}

const addParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** The calls to review: at least one. Calls already in the queue and unknown ids are skipped. */
  call_ids: z
    .array(z.string().check(z.minLength(1, { error: "a call id must be a non-empty string" })))
    .check(z.minLength(1, { error: "call_ids must hold at least one call id (an empty list adds nothing)" })),
  /** JSON paths of the call shown to reviewers (`"inputs.messages"`); sent as `[]` when left out. */
  display_fields: z.optional(z.array(z.string())),
});
/**
 * Body of `POST /annotation_queues/{queue_id}/items`.
 */
export interface AnnotationQueueItemAddParams extends Fields<typeof addParams.shape> {}

const ITEM_STATES = ["unstarted", "in_progress", "completed", "skipped"] as const;
const itemFilter = strictObject({
  /** The item's id. */
  id: z.nullish(z.string()),
  /** The id of the call the item holds. */
  call_id: z.nullish(z.string()),
  /** The op name of the call the item holds. */
  call_op_name: z.nullish(z.string()),
  /** The trace id of the call the item holds. */
  call_trace_id: z.nullish(z.string()),
  /** Who added the item. */
  added_by: z.nullish(z.string()),
  /** Items in any of these states. */
  annotation_states: z.nullish(
    z.array(z.enum(ITEM_STATES, { error: `annotation_states holds only ${ITEM_STATES.join(", ")}` })),
  ),
});
/**
 * Exact-match filter of an item list.
 */
export interface AnnotationQueueItemFilter extends Fields<typeof itemFilter.shape> {}
const itemFilterSchema: SchemaOf<AnnotationQueueItemFilter> = itemFilter;

const itemListParams = strictObject({
  /** The project, `"<entity>/<project>"`. */
  project_id: projectIdSchema,
  /** Exact-match filter of the items. */
  filter: z.nullish(itemFilterSchema),
  /** Default: `created_at` ascending, then `id`. */
  sort_by: sortByList,
  // Weave's model types it `bool`, not nullable: null is refused there, so it is here.
  /** Adds each item's 1-based `position_in_queue`. */
  include_position: z.optional(z.boolean()),
  /** Caps the total number of items read. */
  limit: count,
  /** Where the first page starts. */
  offset: count,
});
/**
 * Body of `POST /annotation_queues/{queue_id}/items/query` (the paging members come from the list).
 */
export interface AnnotationQueueItemListParams extends Fields<typeof itemListParams.shape> {}

/**
 * Body of `POST /annotation_queues`.
 */
export const annotationQueueCreateParamsSchema: SchemaOf<AnnotationQueueCreateParams> = createParams;
/**
 * Body of `POST /annotation_queues/query`.
 */
export const annotationQueueListParamsSchema: SchemaOf<AnnotationQueueListParams> = listParams;
/**
 * Query of `GET`/`DELETE /annotation_queues/{queue_id}`.
 */
export const annotationQueueRetrieveParamsSchema: SchemaOf<AnnotationQueueRetrieveParams> = retrieveParams;
/**
 * Body of `PUT /annotation_queues/{queue_id}`.
 */
export const annotationQueueUpdateParamsSchema: SchemaOf<AnnotationQueueUpdateParams> = updateParams;
/**
 * Body of `POST /annotation_queues/stats`.
 */
export const annotationQueueStatsParamsSchema: SchemaOf<AnnotationQueueStatsParams> = statsParams;
/**
 * Body of `POST /annotation_queues/{queue_id}/items`, before `display_fields` is defaulted.
 */
export const annotationQueueItemAddParamsSchema: SchemaOf<AnnotationQueueItemAddParams> = addParams;
/**
 * Body of `POST /annotation_queues/{queue_id}/items/query`.
 */
export const annotationQueueItemListParamsSchema: SchemaOf<AnnotationQueueItemListParams> = itemListParams;
