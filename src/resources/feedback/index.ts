// Transport-free parts of `client.feedback` that users import: the types (by name, so the
// request schemas stay internal).
export type {
  FeedbackCreateParams,
  FeedbackPurgeParams,
  FeedbackQueryParams,
  FeedbackReplaceParams,
  FeedbackSortBy,
} from "./request-schema.js";
export type * from "./types.js";
