import type { APIPromise } from "../../core/api-promise.js";
import { type CursorList, cursorList } from "../../core/cursor-list.js";
import { callEndpoint, endpoint } from "../../core/endpoint.js";
import type { RequestOptions } from "../../core/options.js";
import { cursorPages } from "../../core/paging.js";
import { readObject } from "../../core/read-body.js";
import { APIResource } from "../../core/resource.js";
import { type PruneCheckpointsOptions, type PruneCheckpointsResult, pruneCheckpoints } from "./prune-checkpoints.js";
import type { CheckpointDeleteParams, CheckpointListParams } from "./request-schema.js";
import { checkpointDeleteParamsSchema, checkpointListParamsSchema } from "./request-schema.js";
import type { Checkpoint, CheckpointDeleteResponse } from "./types.js";

const checkpointsList = endpoint({
  operation: "trainable_models.checkpoints.list",
  method: "GET",
  path: "/v1/preview/models/{modelId}/checkpoints",
  service: "training",
  retry: "safe",
  query: checkpointListParamsSchema,
  page: cursorPages<Checkpoint>("checkpoint"),
});

// Steps already gone come back in `not_found_steps`, so a repeat is harmless: retried like a GET.
const checkpointsDelete = endpoint({
  operation: "trainable_models.checkpoints.delete",
  method: "DELETE",
  path: "/v1/preview/models/{modelId}/checkpoints",
  service: "training",
  retry: "safe",
  body: checkpointDeleteParamsSchema,
  read: readObject<CheckpointDeleteResponse>,
});

/**
 * The checkpoints of trainable models: one per trained step (Bearer auth).
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
    return cursorList(this._http, checkpointsList, { pathArguments: { modelId }, params }, options);
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
    return callEndpoint(this._http, checkpointsDelete, { pathArguments: { modelId }, params }, options);
  }

  /**
   * `model.pruneCheckpoints` for a model known only by its id: keeps the `keepLatest` newest
   * steps (default 1), the `keepBest` best by `metric` and always the latest, and deletes the
   * rest in one request; `dryRun` deletes nothing. Bad options reject before anything is sent.
   *
   * @example
   * ```ts
   * const { kept, deleted } = await client.trainableModels.checkpoints.prune(modelId, { keepBest: 1, metric: "reward", dryRun: true });
   * ```
   */
  prune(
    modelId: string,
    options: PruneCheckpointsOptions = {},
    requestOptions?: RequestOptions,
  ): Promise<PruneCheckpointsResult> {
    return pruneCheckpoints(this, modelId, options, requestOptions);
  }
}
