import { APIPromise } from "../../core/api-promise.js";
import { readJSON } from "../../core/http-client.js";
import type { RequestOptions } from "../../core/options.js";
import { plainPathSegment } from "../../core/path-segment.js";
import type { RetryPolicy } from "../../core/request-spec.js";
import { APIResource } from "../../core/resource.js";
import { expectObject, shapeError } from "../../core/response-shape.js";
import { validateInput, validateRequestBody } from "../../core/validate.js";
import { TrainingJobs } from "../training-jobs/training-jobs.js";
import { Checkpoints } from "./checkpoints.js";
import { trainableModelCreateParamsSchema, trainableModelLogParamsSchema } from "./request-schema.js";
import type {
  TrainableModelCreateParams,
  TrainableModelLogParams,
  TrainableModelRegisterParams,
} from "./request-types.js";
import { TrainableModel } from "./trainable-model.js";
import type { TrainableModelDeleteResponse, TrainableModelResponse } from "./types.js";

const MODEL_FIELDS = ["id", "entity", "project", "name", "base_model"] as const;

function readModel(body: unknown): TrainableModelResponse {
  const model = expectObject(body, "trainable model");
  for (const key of MODEL_FIELDS)
    if (typeof model[key] !== "string" || model[key] === "")
      throw shapeError("trainable model", key, model[key], "a non-empty string");
  return model as TrainableModelResponse;
}

/**
 * Trainable models of the training service (`/v1/preview/models`, Bearer auth): the models RL
 * jobs update, each with its checkpoints.
 *
 * @example
 * ```ts
 * const model = await client.trainableModels.register({ project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" });
 * console.log(model.id, model.inferenceName());
 * ```
 */
export class TrainableModels extends APIResource {
  /** The models' checkpoints. */
  readonly checkpoints: Checkpoints = new Checkpoints(this._http);
  readonly #jobs = new TrainingJobs(this._http);

  /**
   * Creates a model (`POST /v1/preview/models`). Without `return_existing: true` a second model
   * of the same name is refused (409). Not retried once the request may have reached the
   * server, unless `idempotencyKey` is given; `register` is the idempotent form.
   *
   * @example
   * ```ts
   * const m = await client.trainableModels.create({ project: "rl", name: "agent-2", base_model: "OpenPipe/Qwen3-14B-Instruct" });
   * ```
   */
  create(params: TrainableModelCreateParams, options?: RequestOptions): APIPromise<TrainableModelResponse> {
    return this.#create(params, "unsent-only", options);
  }

  /**
   * Registers a model: `create` with `return_existing: true`, so the model of that name is
   * returned if it exists. Idempotent by name, hence retried like a GET. Resolves to a
   * {@link TrainableModel} handle (`inferenceName`, `latestStep`, `train`).
   *
   * @example
   * ```ts
   * const model = await client.trainableModels.register({ project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" });
   * const step = await model.latestStep();
   * ```
   */
  register(params: TrainableModelRegisterParams, options?: RequestOptions): APIPromise<TrainableModel> {
    const withFlag = { ...(params as object), return_existing: true } as TrainableModelCreateParams;
    const promise = this.#create(withFlag, "safe", options);
    return new APIPromise(
      promise.withResponse().then(({ data, response }) => ({
        data: new TrainableModel(data, this.#jobs, this.checkpoints),
        response,
      })),
    );
  }

  #create(params: TrainableModelCreateParams, retry: RetryPolicy, options?: RequestOptions) {
    let body: TrainableModelCreateParams;
    try {
      body = validateInput(trainableModelCreateParamsSchema, params, "trainable model");
    } catch (err) {
      return new APIPromise<TrainableModelResponse>(Promise.reject(err));
    }
    return new APIPromise(
      this._http.request(
        { method: "POST", path: "/v1/preview/models", base: "api", auth: "bearer", body, retry },
        options,
        async (res) => readModel(await readJSON<unknown>(res)),
      ),
    );
  }

  /**
   * Deletes a model with all its checkpoints and its W&B run (`DELETE /v1/preview/models/{id}`).
   *
   * @example
   * ```ts
   * const { deleted_checkpoints } = await client.trainableModels.delete(model.id);
   * ```
   */
  delete(modelId: string, options?: RequestOptions): APIPromise<TrainableModelDeleteResponse> {
    let path: string;
    try {
      path = `/v1/preview/models/${plainPathSegment(modelId, "modelId")}`;
    } catch (err) {
      return new APIPromise(Promise.reject(err));
    }
    return new APIPromise(
      this._http.request(
        { method: "DELETE", path, base: "api", auth: "bearer", retry: "safe" },
        options,
        async (res) =>
          expectObject(await readJSON<unknown>(res), "model delete response") as TrainableModelDeleteResponse,
      ),
    );
  }

  /**
   * Logs trajectory groups to the model's run and has the server compute their metrics
   * (`POST /v1/preview/models/{id}/log`). Not retried once it may have reached the server.
   *
   * @example
   * ```ts
   * await client.trainableModels.log(model.id, { split: "val", trajectory_groups: groups });
   * ```
   */
  log(modelId: string, params: TrainableModelLogParams, options?: RequestOptions): APIPromise<unknown> {
    let path: string;
    let body: TrainableModelLogParams;
    try {
      path = `/v1/preview/models/${plainPathSegment(modelId, "modelId")}/log`;
      body = validateRequestBody(trainableModelLogParamsSchema, params, "log request");
    } catch (err) {
      return new APIPromise(Promise.reject(err));
    }
    return new APIPromise(
      this._http.request(
        { method: "POST", path, base: "api", auth: "bearer", body, retry: "unsent-only" },
        options,
        async (res) => readJSON<unknown>(res),
      ),
    );
  }

  /**
   * The base models this deployment can train (`GET /v1/preview/base-models`).
   *
   * @example
   * ```ts
   * const names = await client.trainableModels.baseModels(); // ["OpenPipe/Qwen3-14B-Instruct", ...]
   * ```
   */
  baseModels(options?: RequestOptions): APIPromise<string[]> {
    return new APIPromise(
      this._http.request(
        { method: "GET", path: "/v1/preview/base-models", base: "api", auth: "bearer", retry: "safe" },
        options,
        async (res) => {
          const body = await readJSON<unknown>(res);
          if (!Array.isArray(body) || body.some((n) => typeof n !== "string"))
            throw shapeError("base model list", "", body, "an array of strings");
          return body as string[];
        },
      ),
    );
  }
}
