import { APIPromise } from "../../core/api-promise.js";
import { readJSON } from "../../core/http-client.js";
import { expectObject, shapeError } from "../../core/response-shape.js";
import type { RequestOptions } from "../../core/options.js";
import { APIResource } from "../../core/resource.js";
import { validateRequestBody } from "../../core/validate.js";
import { trainingJobCreateParamsSchema, type TrainingJobCreateParams } from "./request-schema.js";
import type { TrainingJobCreateResponse } from "./types.js";

/**
 * Reinforcement-learning training jobs (`/v1/preview`, Bearer auth).
 *
 * @example
 * ```ts
 * const { id } = await client.trainingJobs.create({ model_id, trajectory_groups }, { idempotencyKey: crypto.randomUUID() });
 * ```
 */
export class TrainingJobs extends APIResource {
  /**
   * Create a training job from trajectory groups.
   *
   * Never creates a job twice: without `idempotencyKey`, a failed create is retried only when
   * the request provably never reached the server (connection refused, DNS failure). With
   * `idempotencyKey`, it is sent as `Idempotency-Key` on every attempt and all retryable
   * failures are retried.
   *
   * @example
   * ```ts
   * const { id } = await client.trainingJobs.create(
   *   { model_id: "5f1c1a7e-8a40-4c55-9c2e-3d3a8f0e6b11", trajectory_groups: [{ trajectories: [traj] }] },
   *   { idempotencyKey: crypto.randomUUID() },
   * );
   * ```
   */
  create(params: TrainingJobCreateParams, options?: RequestOptions): APIPromise<TrainingJobCreateResponse> {
    let body: TrainingJobCreateParams;
    try {
      body = validateRequestBody(trainingJobCreateParamsSchema, params, "training job");
    } catch (err) {
      return new APIPromise(Promise.reject(err));
    }
    return new APIPromise(
      this._http.request(
        { method: "POST", path: "/v1/preview/training-jobs", base: "api", auth: "bearer", body, retry: "unsent-only" },
        options,
        async (res) => {
          const body = expectObject(await readJSON<unknown>(res), "training job response");
          // Without an id there is no job, whatever the status said (a proxy's page, a redirect).
          if (typeof body.id !== "string" || body.id === "")
            throw shapeError("training job response", "id", body.id, "a non-empty string");
          return body as TrainingJobCreateResponse;
        },
      ),
    );
  }
}
