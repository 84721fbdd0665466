import { APIPromise } from "../../core/api-promise.js";
import { type CursorList, getCursorList } from "../../core/cursor-list.js";
import { readJSON } from "../../core/http-client.js";
import type { RequestOptions } from "../../core/options.js";
import { plainPathSegment } from "../../core/path-segment.js";
import { APIResource } from "../../core/resource.js";
import { expectObject } from "../../core/response-shape.js";
import { validateInput } from "../../core/validate.js";
import { checkpointDeleteParamsSchema, checkpointListParamsSchema } from "./request-schema.js";
import type { CheckpointDeleteParams, CheckpointListParams } from "./request-types.js";
import type { Checkpoint, CheckpointDeleteResponse } from "./types.js";

const checkpointsPath = (modelId: string) => `/v1/preview/models/${plainPathSegment(modelId, "modelId")}/checkpoints`;

/**
 * The checkpoints of trainable models: one per trained step (Bearer auth).
 *
 * @example
 * ```ts
 * for await (const c of client.trainableModels.checkpoints.list(modelId)) console.log(c.step, c.metrics);
 * ```
 */
export class Checkpoints extends APIResource {
  /**
   * A model's checkpoints as a cursor list (`for await`, `.pages()`, `.toArray()`): `order`
   * `asc` (the server's default, oldest step first) or `desc`, `limit` 1-100 per page, `after`
   * a checkpoint id to start after. Bad input rejects the first iteration with
   * `RequestValidationError` and nothing is sent.
   *
   * @example
   * ```ts
   * const all = await client.trainableModels.checkpoints.list(modelId, { limit: 100 }).toArray();
   * console.log(all.map((c) => c.step));
   * ```
   */
  list(modelId: string, params: CheckpointListParams = {}, options?: RequestOptions): CursorList<Checkpoint> {
    let path = "";
    let invalid: Error | undefined;
    let checked: CheckpointListParams = {};
    try {
      path = checkpointsPath(modelId);
      checked = validateInput(checkpointListParamsSchema, params, "checkpoint list query");
    } catch (err) {
      invalid = err as Error;
    }
    const query = { order: checked.order, limit: checked.limit };
    return getCursorList(this._http, { path, query, after: checked.after, invalid, what: "checkpoints" }, options);
  }

  /**
   * Deletes some steps of a model (`DELETE .../checkpoints {steps}`); deleted checkpoints cannot
   * be recovered. Steps already gone come back in `not_found_steps`, so the call is retried
   * like a GET.
   *
   * @example
   * ```ts
   * const { deleted_count, not_found_steps } = await client.trainableModels.checkpoints.delete(modelId, { steps: [1, 2] });
   * ```
   */
  delete(
    modelId: string,
    params: CheckpointDeleteParams,
    options?: RequestOptions,
  ): APIPromise<CheckpointDeleteResponse> {
    let path: string;
    let body: CheckpointDeleteParams;
    try {
      path = checkpointsPath(modelId);
      body = validateInput(checkpointDeleteParamsSchema, params, "checkpoint delete request");
    } catch (err) {
      return new APIPromise(Promise.reject(err));
    }
    return new APIPromise(
      this._http.request(
        { method: "DELETE", path, base: "api", auth: "bearer", body, retry: "safe" },
        options,
        async (res) =>
          expectObject(await readJSON<unknown>(res), "checkpoint delete response") as CheckpointDeleteResponse,
      ),
    );
  }
}
