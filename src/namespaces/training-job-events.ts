import { type CursorList, lazyCursorList } from "../core/lists/cursor-list.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { TrainingJobEventListParams } from "../wire/training-jobs/request-schema.js";
import type { TrainingJobEvent } from "../wire/training-jobs/types.js";

// Loaded at the first call: a page that never trains does not carry the training service's schemas.
const wire = () => import("../wire/training-jobs/endpoints.js");

/**
 * The events of training jobs (`GET /v1/preview/training-jobs/{id}/events`, Bearer auth).
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
    return lazyCursorList(
      this._http,
      () => wire().then((w) => w.eventsList),
      { pathArguments: { jobId }, params },
      options,
    );
  }
}
