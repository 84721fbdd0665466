import * as z from "zod/mini";
import { projectIdSchema } from "../project-id.js";
import type { Agrees, Check, SchemaOf } from "../schema-agreement.js";
import { ensureZodDefaults } from "../zod-defaults.js";
import type { AnnotationQueueItemProgressParams } from "./request-types.js";

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
