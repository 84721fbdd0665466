import { lazyOffsetList, type OffsetList } from "../core/lists/offset-list.js";
import type { PagedListOptions } from "../core/lists/paging.js";
import type { APIPromise } from "../core/pipeline/api-promise.js";
import { callLazyEndpoint } from "../core/pipeline/lazy-endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type {
  FeedbackCreateParams,
  FeedbackPurgeParams,
  FeedbackQueryParams,
  FeedbackReplaceParams,
} from "../wire/feedback/request-schema.js";
import type { FeedbackCreateResponse, FeedbackRow } from "../wire/feedback/types.js";

// Loaded at the first call: a page that sends no feedback does not carry its schemas.
const wire = () => import("../wire/feedback/endpoints.js");

/**
 * Weave's feedback: what reviewers, users and scorers said about a call or an object
 * (reactions, notes, annotations, scores). Basic auth, sent to `traceBaseURL`. A call's
 * feedback also comes back on the call itself, at `summary.weave.feedback`, when a call query
 * asks for `include_feedback`.
 */
export class Feedback extends APIResource {
  /**
   * Leave feedback on a call or object (`weave_ref`). The payload's shape follows
   * `feedback_type` (see {@link FeedbackCreateParams}); a payload Weave would refuse is refused
   * before sending. Not retried once sent, unless an `idempotencyKey` is given.
   *
   * @example
   * ```ts
   * const { id } = await client.feedback.create({
   *   project_id: "acme/support-bot",
   *   weave_ref: `weave:///acme/support-bot/call/${callId}`,
   *   feedback_type: "wandb.annotation.quality",
   *   annotation_ref: "weave:///acme/support-bot/object/quality:latest",
   *   payload: { value: 1 },
   * });
   * ```
   */
  create(params: FeedbackCreateParams, options?: RequestOptions): APIPromise<FeedbackCreateResponse> {
    return callLazyEndpoint(this._http, () => wire().then((w) => w.feedbackCreate), { params }, options);
  }

  /**
   * A project's feedback, paged with `limit`/`offset` (`for await`, `.pages()`, `.toArray()`),
   * filtered by a query expression over its fields (`feedback_type`, `weave_ref`,
   * `payload.value`, ...). Nothing is sent until iteration starts.
   *
   * @example
   * ```ts
   * import { q } from "inferloop";
   *
   * const mine = client.feedback.query({
   *   project_id: "acme/support-bot",
   *   query: q.where(q.eq(q.field("weave_ref"), `weave:///acme/support-bot/call/${callId}`)),
   * });
   * for await (const row of mine) console.log(row.feedback_type, row.payload);
   * ```
   */
  query(params: FeedbackQueryParams, options?: PagedListOptions & RequestOptions): OffsetList<FeedbackRow> {
    return lazyOffsetList(this._http, () => wire().then((w) => w.feedbackQuery), { params }, options);
  }

  /**
   * Replace a piece of feedback (`feedback_id`) with a new one; resolves to the new row.
   *
   * @example
   * ```ts
   * const next = await client.feedback.replace({
   *   project_id: "acme/support-bot",
   *   feedback_id: feedbackId,
   *   weave_ref: `weave:///acme/support-bot/call/${callId}`,
   *   feedback_type: "score",
   *   payload: { value: 0 },
   * });
   * ```
   */
  replace(params: FeedbackReplaceParams, options?: RequestOptions): APIPromise<FeedbackCreateResponse> {
    return callLazyEndpoint(this._http, () => wire().then((w) => w.feedbackReplace), { params }, options);
  }

  /**
   * Delete feedback for good, by id (the only purge Weave allows).
   *
   * @example
   * ```ts
   * import { q } from "inferloop";
   * await client.feedback.purge({ project_id: "acme/support-bot", query: q.where(q.eq(q.field("id"), feedbackId)) });
   * ```
   */
  purge(params: FeedbackPurgeParams, options?: RequestOptions): APIPromise<Record<string, unknown>> {
    return callLazyEndpoint(this._http, () => wire().then((w) => w.feedbackPurge), { params }, options);
  }
}
