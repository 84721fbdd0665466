import type { APIPromise } from "../../core/api-promise.js";
import { callEndpoint, endpoint } from "../../core/endpoint.js";
import { type APIResponse, readJSON } from "../../core/http-client.js";
import { readObject } from "../../core/read-body.js";
import type { RequestSpec } from "../../core/request-spec.js";
import type { RequestOptions } from "../../core/options.js";
import { APIResource } from "../../core/resource.js";
import { shapeError } from "../../core/response-shape.js";
import { TrainingJobs } from "../training-jobs/training-jobs.js";
import { Checkpoints } from "./checkpoints.js";
import { trainableModelCreateParamsSchema, trainableModelLogParamsSchema } from "./request-schema.js";
import type {
  TrainableModelCreateParams,
  TrainableModelLogParams,
  TrainableModelRegisterParams,
} from "./request-schema.js";
import { TrainableModel } from "./trainable-model.js";
import type { TrainableModelDeleteResponse, TrainableModelResponse } from "./types.js";

const MODEL_FIELDS = ["id", "entity", "project", "name", "base_model"] as const;

async function readModel(res: APIResponse, spec: RequestSpec): Promise<TrainableModelResponse> {
  const model = await readObject(res, spec);
  for (const key of MODEL_FIELDS)
    if (typeof model[key] !== "string" || model[key] === "")
      throw shapeError(`${spec.operation} response`, key, model[key], "a non-empty string");
  return model as TrainableModelResponse;
}

const createDeclaration = {
  method: "POST",
  path: "/v1/preview/models",
  service: "inference",
  body: trainableModelCreateParamsSchema,
  read: readModel,
} as const;

const modelsCreate = endpoint({
  ...createDeclaration,
  operation: "trainable_models.create",
  retry: "unsent-only",
  creates: "trainable model",
});

// `return_existing: true` makes the create idempotent by name: retried like a GET.
const modelsRegister = endpoint({
  ...createDeclaration,
  operation: "trainable_models.register",
  retry: "safe",
});

const modelsDelete = endpoint({
  operation: "trainable_models.delete",
  method: "DELETE",
  path: "/v1/preview/models/{modelId}",
  service: "inference",
  retry: "safe",
  read: readObject<TrainableModelDeleteResponse>,
});

const modelsLog = endpoint({
  operation: "trainable_models.log",
  method: "POST",
  path: "/v1/preview/models/{modelId}/log",
  service: "inference",
  retry: "unsent-only",
  body: trainableModelLogParamsSchema,
  read: (res) => readJSON<unknown>(res),
});

const baseModelsList = endpoint({
  operation: "trainable_models.base_models",
  method: "GET",
  path: "/v1/preview/base-models",
  service: "inference",
  retry: "safe",
  read: async (res, spec) => {
    const body = await readJSON<unknown>(res);
    if (!Array.isArray(body) || body.some((n) => typeof n !== "string"))
      throw shapeError(`${spec.operation} response`, "", body, "an array of strings");
    return body as string[];
  },
});

/**
 * Trainable models of the training service (`/v1/preview/models`, Bearer auth): the models RL
 * jobs update, each with its checkpoints.
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
    return this.#create(params, modelsCreate, options);
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
    return this.#create(withFlag, modelsRegister, options)._map(
      (data) => new TrainableModel(data, this.#jobs, this.checkpoints),
    );
  }

  #create(params: TrainableModelCreateParams, ep: typeof modelsCreate, options?: RequestOptions) {
    return callEndpoint(this._http, ep, { params }, options);
  }

  /**
   * Deletes a model with all its checkpoints and its W&B run (`DELETE /v1/preview/models/{id}`).
   *
   * @example
   * ```ts
   * const { deleted_checkpoints } = await client.trainableModels.delete(modelId);
   * ```
   */
  delete(modelId: string, options?: RequestOptions): APIPromise<TrainableModelDeleteResponse> {
    return callEndpoint(this._http, modelsDelete, { pathArguments: { modelId } }, options);
  }

  /**
   * Logs trajectory groups to the model's run and has the server compute their metrics
   * (`POST /v1/preview/models/{id}/log`). Not retried once it may have reached the server.
   *
   * @example
   * ```ts
   * await client.trainableModels.log(modelId, { split: "val", trajectory_groups: groups });
   * ```
   */
  log(modelId: string, params: TrainableModelLogParams, options?: RequestOptions): APIPromise<unknown> {
    return callEndpoint(this._http, modelsLog, { pathArguments: { modelId }, params }, options);
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
    return callEndpoint(this._http, baseModelsList, {}, options);
  }
}
