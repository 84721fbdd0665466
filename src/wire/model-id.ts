import * as z from "zod/mini";

// An own pattern rather than z.guid(): that pulls zod's whole table of format regexes into
// browser bundles. The 8-4-4-4-12 hex shape without the RFC version and variant digits, so
// every id the server could have issued passes, in either case.
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** `model_id` of a training or SFT job: the trainable model's UUID. */
export const modelIdSchema = z.string().check(z.regex(GUID, { error: "model_id must be a UUID" }));
