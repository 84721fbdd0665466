import * as z from "zod/mini";
import { projectIdSchema } from "../project-id.js";
import type { Fields, SchemaOf } from "../shape.js";
import { ensureZodDefaults } from "../zod-defaults.js";

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
  /** The state to set for the caller: `"in_progress"`, `"completed"` or `"skipped"`. */
  annotation_state: z.enum(ANNOTATION_STATES_SETTABLE, {
    error: `annotation_state must be one of ${ANNOTATION_STATES_SETTABLE.join(", ")}`,
  }),
  /** The project, `"<entity>/<project>"`: two non-empty parts, no whitespace. */
  project_id: projectIdSchema,
});
/**
 * Body of `POST /annotation_queues/{queue_id}/items/{item_id}/progress`. The annotator is not
 * in the body: the server takes it from the authenticated session.
 *
 * @example
 * ```ts
 * const params: AnnotationQueueItemProgressParams = { annotation_state: "in_progress", project_id: "acme/support-bot" };
 * ```
 */
export interface AnnotationQueueItemProgressParams extends Fields<typeof progressParams.shape> {}

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
