import type { APIPromise } from "../core/pipeline/api-promise.js";
import type { HttpClient } from "../core/pipeline/http-client.js";
import { callLazyEndpoint } from "../core/pipeline/lazy-endpoint.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { modelsCreate } from "../wire/trainable-models/endpoints.js";
import type {
  TrainableModelCreateParams,
  TrainableModelLogParams,
  TrainableModelRegisterParams,
} from "../wire/trainable-models/request-schema.js";
import type { TrainableModelDeleteResponse, TrainableModelResponse } from "../wire/trainable-models/types.js";
import { Completions } from "./chat.js";
import { Checkpoints } from "./checkpoints.js";
import type { ModelChat, TrainableModel } from "./trainable-model.js";
import { TrainingJobs } from "./training-jobs.js";

// Loaded at the first call: a page that never trains does not carry the training service's
// schemas, nor the model handle with its training loop.
const wire = () => import("../wire/trainable-models/endpoints.js");
const handle = () => import("./trainable-model.js");

/**
 * Trainable models of the training service (`/v1/preview/models`, Bearer auth): the models RL
 * jobs update, each with its checkpoints.
 */
export class TrainableModels extends APIResource {
  /** The models' checkpoints. */
  readonly checkpoints: Checkpoints = new Checkpoints(this._http);
  /** @internal The jobs `train` creates and follows. */
  protected readonly _jobs: TrainingJobs = new TrainingJobs(this._http);
  /** @internal The chat namespace on the Training host each handle carries. */
  protected readonly _chat: ModelChat;

  /**
   * @internal Use `client.trainableModels`. `chat` is the chat namespace on the Training host
   * that each model's handle carries (the client passes its own, with `runTools`).
   */
  constructor(http: HttpClient, chat?: ModelChat) {
    super(http);
    this._chat = chat ?? { completions: new Completions(http.routedTo("training")) };
  }

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
    return this.#create(params, "modelsCreate", options);
  }

  /**
   * Registers a model: `create` with `return_existing: true`, so the model of that name is
   * returned if it exists. Idempotent by name, hence retried like a GET. Resolves to a
   * {@link TrainableModel} handle (`inferenceName`, `latestStep`, `train`, `trainLoop`).
   *
   * @example
   * ```ts
   * const model = await client.trainableModels.register({ project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" });
   * const step = await model.latestStep();
   * ```
   */
  register(params: TrainableModelRegisterParams, options?: RequestOptions): APIPromise<TrainableModel> {
    const withFlag = { ...(params as object), return_existing: true } as TrainableModelCreateParams;
    return this.#create(withFlag, "modelsRegister", options)._map(
      async (data) => new (await handle()).TrainableModel(data, this._jobs, this.checkpoints, this._chat, this._http),
    );
  }

  #create(params: TrainableModelCreateParams, ep: "modelsCreate" | "modelsRegister", options?: RequestOptions) {
    return callLazyEndpoint(this._http, () => wire().then((w): typeof modelsCreate => w[ep]), { params }, options);
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
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.modelsDelete),
      { pathArguments: { modelId } },
      options,
    );
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
    return callLazyEndpoint(
      this._http,
      () => wire().then((w) => w.modelsLog),
      { pathArguments: { modelId }, params },
      options,
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
    return callLazyEndpoint(this._http, () => wire().then((w) => w.baseModelsList), {}, options);
  }
}
