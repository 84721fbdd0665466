import * as z from "zod/mini";
import { ensureZodDefaults } from "./zod-defaults.js";

ensureZodDefaults();

/**
 * `<entity>/<project>`: two non-empty segments, no further slash, no whitespace. The hosted
 * trace server resolves every `project_id` it receives (calls, annotation queues) as an entity
 * and a project, and Weave's own clients always send that form; a bare project name names no
 * project, and a call query for it could only come back empty.
 *
 * @example
 * ```ts
 * PROJECT_ID_PATTERN.test("acme/support-bot"); // true
 * PROJECT_ID_PATTERN.test("acme/support-bot/extra"); // false
 * ```
 */
export const PROJECT_ID_PATTERN = /^[^/\s]+\/[^/\s]+$/;

/** A `project_id` member, with the one message every operation gives for a malformed one. */
export const projectIdSchema = z.string().check(
  z.regex(PROJECT_ID_PATTERN, {
    error: 'project_id must be "<entity>/<project>"',
  }),
);
