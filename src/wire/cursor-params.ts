// Every schema here carries its own messages, so it needs no ensureZodDefaults() of its own.
import * as z from "zod/mini";

/** `limit` of a cursor list (checkpoints, job events): an integer from 1 to the server's maximum page of 100. */
export const cursorLimit = z.optional(
  z
    .number({ error: "limit must be an integer from 1 to 100" })
    .check(
      z.int({ error: "limit must be an integer from 1 to 100" }),
      z.gte(1, { error: "limit must be at least 1" }),
      z.lte(100, { error: "limit must be at most 100 (the server's maximum page)" }),
    ),
);

/** `after` of a cursor list: the id of the last item already read. */
export const cursorAfter = z.optional(z.string().check(z.minLength(1, { error: "after must be a non-empty id" })));
