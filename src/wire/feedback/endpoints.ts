import { offsetPages } from "../../core/lists/paging.js";
import { endpoint } from "../../core/pipeline/endpoint.js";
import { readObject, readWithId } from "../../core/pipeline/read-body.js";
import {
  feedbackCreateParamsSchema,
  feedbackPurgeParamsSchema,
  feedbackQueryParamsSchema,
  feedbackReplaceParamsSchema,
} from "./request-schema.js";
import type { FeedbackCreateResponse, FeedbackRow } from "./types.js";

// Each create stores one more row: only retried when provably unsent (or with an idempotencyKey).
export const feedbackCreate = endpoint({
  operation: "feedback.create",
  method: "POST",
  path: "/feedback/create",
  service: "trace",
  retry: "unsent-only",
  creates: "feedback row",
  body: feedbackCreateParamsSchema,
  read: readWithId<FeedbackCreateResponse>,
});

// The rows come back as `{ result: [...] }`, one page per request.
export const feedbackQuery = endpoint({
  operation: "feedback.query",
  method: "POST",
  path: "/feedback/query",
  service: "trace",
  retry: "safe",
  body: feedbackQueryParamsSchema,
  page: offsetPages<FeedbackRow>("feedback row", { member: "result" }),
});

// A replace removes the old row and writes a new one: a second attempt finds the old one gone.
export const feedbackReplace = endpoint({
  operation: "feedback.replace",
  method: "POST",
  path: "/feedback/replace",
  service: "trace",
  retry: "unsent-only",
  creates: "feedback row",
  body: feedbackReplaceParamsSchema,
  read: readWithId<FeedbackCreateResponse>,
});

// Deleting rows already gone deletes nothing: retried like a GET.
export const feedbackPurge = endpoint({
  operation: "feedback.purge",
  method: "POST",
  path: "/feedback/purge",
  service: "trace",
  retry: "safe",
  body: feedbackPurgeParamsSchema,
  read: readObject<Record<string, unknown>>,
});
