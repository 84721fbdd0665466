import { type CursorList, lazyCursorList } from "../core/lists/cursor-list.js";
import type { APIPromise } from "../core/pipeline/api-promise.js";
import { callLazyEndpoint } from "../core/pipeline/lazy-endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { PruneCheckpointsOptions, PruneCheckpointsResult } from "../lib/training/prune-checkpoints.js";
import type { CheckpointDeleteParams, CheckpointListParams } from "../wire/trainable-models/request-schema.js";
import type { Checkpoint, CheckpointDeleteResponse } from "../wire/trainable-models/types.js";

// Loaded at the first call: a page that never trains does not carry the training service's
// schemas, nor the pruning of checkpoints.
const wire = () => import("../wire/trainable-models/endpoints.js");
const prune = () => import("../lib/training/prune-checkpoints.js");

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
    return lazyCursorList(
      this._http,
      () => wire().then((w) => w.checkpointsList),
      { pathArguments: { modelId }, params },
      options,
    );
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
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.checkpointsDelete),
      { pathArguments: { modelId }, params },
      options,
    );
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
    return prune().then((p) => p.pruneCheckpoints(this, modelId, options, requestOptions));
  }
}
