/**
 * Named types of Weave's feedback requests (`/feedback/*`), one doc line per field.
 *
 * @module
 */
import type { QueryExpression } from "../calls/query-expression.js";

/**
 * Body of `POST /feedback/create`: one piece of feedback on a call or an object. The payload's
 * shape follows `feedback_type`: `wandb.reaction.1` takes `{ emoji }` (one emoji),
 * `wandb.note.1` `{ note }`, `wandb.annotation.<name>` `{ value }` with the `annotation_ref` of
 * the annotation spec named `<name>`; any other type takes any object.
 *
 * @example
 * ```ts
 * const params: FeedbackCreateParams = {
 *   project_id: "acme/bot",
 *   weave_ref: "weave:///acme/bot/call/0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01",
 *   feedback_type: "wandb.annotation.quality",
 *   annotation_ref: "weave:///acme/bot/object/quality:latest",
 *   payload: { value: 1 },
 * };
 * ```
 */
export interface FeedbackCreateParams {
  /** The project, `"<entity>/<project>"`. */
  project_id: string;
  /** What the feedback is about: a `weave:///` ref, for a call `weave:///<entity>/<project>/call/<id>`. */
  weave_ref: string;
  /** `wandb.reaction.1`, `wandb.note.1`, `wandb.annotation.<name>`, or your own type. */
  feedback_type: string;
  payload: Record<string, unknown>;
  /** For `wandb.annotation.<name>`: the ref of the annotation spec object `<name>` (required there, refused elsewhere). */
  annotation_ref?: string | null | undefined;
  /** For `wandb.runnable.<name>`: the scorer op or object. */
  runnable_ref?: string | null | undefined;
  /** For runnable feedback on ops: the scorer's call. */
  call_ref?: string | null | undefined;
  /** For runnable feedback: the monitor or action that triggered it. */
  trigger_ref?: string | null | undefined;
  /** A display name for who left it. */
  creator?: string | null | undefined;
  /** The queue the feedback was left from. */
  queue_id?: string | null | undefined;
  /** An id of your own for the feedback row (default: the server makes one). */
  id?: string | null | undefined;
}

/**
 * Body of `POST /feedback/replace`: a new version of an existing piece of feedback.
 *
 * @example
 * ```ts
 * const params: FeedbackReplaceParams = { ...createParams, feedback_id: previous.id, payload: { value: 0 } };
 * ```
 */
export interface FeedbackReplaceParams extends FeedbackCreateParams {
  /** The feedback replaced. */
  feedback_id: string;
}

/**
 * One sort key of a feedback query.
 *
 * @example
 * ```ts
 * const sort: FeedbackSortBy = { field: "created_at", direction: "desc" };
 * ```
 */
export interface FeedbackSortBy {
  field: string;
  direction: "asc" | "desc";
}

/**
 * Body of `POST /feedback/query` (the paging members come from the list).
 *
 * @example
 * ```ts
 * import { q } from "inferloop";
 * const params: FeedbackQueryParams = {
 *   project_id: "acme/bot",
 *   query: q.where(q.eq(q.field("feedback_type"), "wandb.annotation.quality")),
 * };
 * ```
 */
export interface FeedbackQueryParams {
  project_id: string;
  /** Only these fields of each row (dotted paths such as `payload.value`); default every field. */
  fields?: string[] | null | undefined;
  query?: QueryExpression | null | undefined;
  sort_by?: FeedbackSortBy[] | null | undefined;
  /** Caps the total number of rows read. */
  limit?: number | null | undefined;
  /** Where the first page starts. */
  offset?: number | null | undefined;
}

/**
 * Body of `POST /feedback/purge`. Weave deletes feedback only by id: the query must be
 * `id = <literal>` or an `$or` of such comparisons.
 *
 * @example
 * ```ts
 * import { q } from "inferloop";
 * const params: FeedbackPurgeParams = { project_id: "acme/bot", query: q.where(q.eq(q.field("id"), feedbackId)) };
 * ```
 */
export interface FeedbackPurgeParams {
  project_id: string;
  query: QueryExpression;
}
