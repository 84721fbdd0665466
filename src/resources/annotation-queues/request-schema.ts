import * as z from "zod/mini";
import { projectIdSchema } from "../project-id.js";
import type { Agrees, Check, SchemaOf } from "../schema-agreement.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import type {
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
} from "./request-types.js";

export type * from "./request-types.js";

export { PROJECT_ID_PATTERN } from "../project-id.js";

ensureZodDefaults();

/**
 * The states a caller may set. `unstarted` is what an item shows before anyone touched it, but
 * the server refuses it as a target.
 *
 * @example
 * ```ts
 * ANNOTATION_STATES_SETTABLE.includes("skipped"); // true
 * ```
 */
export const ANNOTATION_STATES_SETTABLE = ["in_progress", "completed", "skipped"] as const;

const progressParams = z.strictObject({
  annotation_state: z.enum(ANNOTATION_STATES_SETTABLE, {
    error: `annotation_state must be one of ${ANNOTATION_STATES_SETTABLE.join(", ")}`,
  }),
  project_id: projectIdSchema,
});
/**
 * Body of `POST /annotation_queues/{queue_id}/items/{item_id}/progress`.
 *
 * @example
 * ```ts
 * annotationQueueItemProgressParamsSchema.parse({ annotation_state: "completed", project_id: "acme/support-bot" });
 * ```
 */
export const annotationQueueItemProgressParamsSchema: SchemaOf<AnnotationQueueItemProgressParams> = progressParams;

/**
 * A path parameter (`queue_id`, `item_id`): a non-empty string. The method encodes it into the
 * path; this only refuses values that would produce a malformed URL such as `/items//progress`.
 *
 * @example
 * ```ts
 * pathParamSchema.safeParse("").success; // false
 * ```
 */
export const pathParamSchema = z.string().check(z.minLength(1));

// Compile-time: the schema accepts exactly what its named type describes.
type _Agreement = Check<[Agrees<z.input<typeof progressParams>, AnnotationQueueItemProgressParams>]>;

const count = z.nullish(z.int().check(z.nonnegative()));
const sortBy = z.strictObject({
  field: z.string().check(z.minLength(1)),
  direction: z.enum(["asc", "desc"], { error: 'direction must be "asc" or "desc" (Weave requires it)' }),
});
const sortByList = z.nullish(z.array(sortBy));

const createParams = z.strictObject({
  project_id: projectIdSchema,
  name: z.string().check(z.minLength(1, { error: "name must be a non-empty string" })),
  description: z.optional(z.string()),
  scorer_refs: z.array(z.string()),
});
const listParams = z.strictObject({
  project_id: projectIdSchema,
  name: z.nullish(z.string()),
  sort_by: sortByList,
  limit: count,
  offset: count,
});
const retrieveParams = z.strictObject({ project_id: projectIdSchema });
const updateParams = z.strictObject({
  project_id: projectIdSchema,
  name: z.nullish(z.string().check(z.minLength(1, { error: "name must be a non-empty string" }))),
  description: z.nullish(z.string()),
  scorer_refs: z.nullish(z.array(z.string())),
});
const statsParams = z.strictObject({
  project_id: projectIdSchema,
  queue_ids: z.array(z.string().check(z.minLength(1))),
});
const addParams = z.strictObject({
  project_id: projectIdSchema,
  call_ids: z
    .array(z.string().check(z.minLength(1, { error: "a call id must be a non-empty string" })))
    .check(z.minLength(1, { error: "call_ids must hold at least one call id (an empty list adds nothing)" })),
  display_fields: z.optional(z.array(z.string())),
});
const ITEM_STATES = ["unstarted", "in_progress", "completed", "skipped"] as const;
const itemFilter = z.strictObject({
  id: z.nullish(z.string()),
  call_id: z.nullish(z.string()),
  call_op_name: z.nullish(z.string()),
  call_trace_id: z.nullish(z.string()),
  added_by: z.nullish(z.string()),
  annotation_states: z.nullish(
    z.array(z.enum(ITEM_STATES, { error: `annotation_states holds only ${ITEM_STATES.join(", ")}` })),
  ),
});
const itemListParams = z.strictObject({
  project_id: projectIdSchema,
  filter: z.nullish(itemFilter),
  sort_by: sortByList,
  // Weave's model types it `bool`, not nullable: null is refused there, so it is here.
  include_position: z.optional(z.boolean()),
  limit: count,
  offset: count,
});

/**
 * Body of `POST /annotation_queues`.
 *
 * @example
 * ```ts
 * annotationQueueCreateParamsSchema.parse({ project_id: "acme/bot", name: "Review", scorer_refs: [] });
 * ```
 */
export const annotationQueueCreateParamsSchema: SchemaOf<AnnotationQueueCreateParams> = createParams;
/**
 * Body of `POST /annotation_queues/query`.
 *
 * @example
 * ```ts
 * annotationQueueListParamsSchema.parse({ project_id: "acme/bot", name: "review", limit: 10 });
 * ```
 */
export const annotationQueueListParamsSchema: SchemaOf<AnnotationQueueListParams> = listParams;
/**
 * Query of `GET`/`DELETE /annotation_queues/{queue_id}`.
 *
 * @example
 * ```ts
 * annotationQueueRetrieveParamsSchema.parse({ project_id: "acme/bot" });
 * ```
 */
export const annotationQueueRetrieveParamsSchema: SchemaOf<AnnotationQueueRetrieveParams> = retrieveParams;
/**
 * Body of `PUT /annotation_queues/{queue_id}`.
 *
 * @example
 * ```ts
 * annotationQueueUpdateParamsSchema.parse({ project_id: "acme/bot", description: "step 3" });
 * ```
 */
export const annotationQueueUpdateParamsSchema: SchemaOf<AnnotationQueueUpdateParams> = updateParams;
/**
 * Body of `POST /annotation_queues/stats`.
 *
 * @example
 * ```ts
 * annotationQueueStatsParamsSchema.parse({ project_id: "acme/bot", queue_ids: ["0195a3cf-1a2b-7c3d-8e4f-5a6b7c8d9e0f"] });
 * ```
 */
export const annotationQueueStatsParamsSchema: SchemaOf<AnnotationQueueStatsParams> = statsParams;
/**
 * Body of `POST /annotation_queues/{queue_id}/items`, before `display_fields` is defaulted.
 *
 * @example
 * ```ts
 * annotationQueueItemAddParamsSchema.safeParse({ project_id: "acme/bot", call_ids: [] }).success; // false: adds nothing
 * ```
 */
export const annotationQueueItemAddParamsSchema: SchemaOf<AnnotationQueueItemAddParams> = addParams;
/**
 * Body of `POST /annotation_queues/{queue_id}/items/query`.
 *
 * @example
 * ```ts
 * annotationQueueItemListParamsSchema.parse({ project_id: "acme/bot", filter: { annotation_states: ["completed"] } });
 * ```
 */
export const annotationQueueItemListParamsSchema: SchemaOf<AnnotationQueueItemListParams> = itemListParams;

type _Agreement2 = Check<
  [
    Agrees<z.input<typeof sortBy>, AnnotationQueueSortBy>,
    Agrees<z.input<typeof createParams>, AnnotationQueueCreateParams>,
    Agrees<z.input<typeof listParams>, AnnotationQueueListParams>,
    Agrees<z.input<typeof retrieveParams>, AnnotationQueueRetrieveParams>,
    Agrees<z.input<typeof updateParams>, AnnotationQueueUpdateParams>,
    Agrees<z.input<typeof statsParams>, AnnotationQueueStatsParams>,
    Agrees<z.input<typeof addParams>, AnnotationQueueItemAddParams>,
    Agrees<z.input<typeof itemFilter>, AnnotationQueueItemFilter>,
    Agrees<z.input<typeof itemListParams>, AnnotationQueueItemListParams>,
  ]
>;
