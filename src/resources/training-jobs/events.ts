import { type CursorList, getCursorList } from "../../core/cursor-list.js";
import type { TrainingJobEvent } from "../../core/errors.js";
import type { RequestOptions } from "../../core/options.js";
import { plainPathSegment } from "../../core/path-segment.js";
import { APIResource } from "../../core/resource.js";
import { validateInput } from "../../core/validate.js";
import { trainingJobEventListParamsSchema } from "../trainable-models/request-schema.js";
import type { TrainingJobEventListParams } from "../trainable-models/request-types.js";

/**
 * The events of training jobs (`GET /v1/preview/training-jobs/{id}/events`, Bearer auth).
 *
 * @example
 * ```ts
 * for await (const event of client.trainingJobs.events.list(jobId)) console.log(event.type, event.data);
 * ```
 */
export class TrainingJobEvents extends APIResource {
  /**
   * The job's events so far, oldest first, as a cursor list (`for await`, `.pages()`,
   * `.toArray()`). `after` starts after a saved event id; `limit` (1-100) is the page size.
   * Pages are retried like any GET. Bad input rejects the first iteration with
   * `RequestValidationError` and nothing is sent.
   *
   * @example
   * ```ts
   * const events = await client.trainingJobs.events.list(jobId, { limit: 100 }).toArray();
   * console.log(events.map((e) => e.type));
   * ```
   */
  list(jobId: string, params: TrainingJobEventListParams = {}, options?: RequestOptions): CursorList<TrainingJobEvent> {
    let path = "";
    let invalid: Error | undefined;
    let checked: TrainingJobEventListParams = {};
    try {
      path = `/v1/preview/training-jobs/${plainPathSegment(jobId, "jobId")}/events`;
      checked = validateInput(trainingJobEventListParamsSchema, params, "training job events query");
    } catch (err) {
      invalid = err as Error;
    }
    const query = { limit: checked.limit };
    return getCursorList(
      this._http,
      { path, query, after: checked.after, invalid, what: "training job events" },
      options,
    );
  }
}
