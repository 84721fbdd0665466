// The public `client.trainableModels` and its `TrainableModel` handle: the endpoints' classes
// with what lib builds on them, the pipelined training loop (`trainLoop`).
import type { HttpClient } from "../../core/http-client.js";
import type { Checkpoints } from "../../resources/trainable-models/checkpoints.js";
import { pruneCheckpoints } from "../../resources/trainable-models/prune-checkpoints.js";
import { TrainableModel as TrainableModelResource } from "../../resources/trainable-models/trainable-model.js";
import { TrainableModels as TrainableModelsResource } from "../../resources/trainable-models/trainable-models.js";
import type { TrainableModelResponse } from "../../resources/trainable-models/types.js";
import type { TrainingJobs } from "../../resources/training-jobs/training-jobs.js";
import { trainLoop } from "../training-loop/train-loop.js";
import type { TrainLoopOptions, TrainLoopStep } from "../training-loop/types.js";
import type { Chat } from "./chat.js";

/**
 * A registered trainable model (`client.trainableModels.register`'s result): the endpoints'
 * handle (`inferenceName`, `latestStep`, `train`, `pruneCheckpoints`) and the pipelined loop.
 *
 * @example
 * ```ts
 * const model = await client.trainableModels.register({ project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" });
 * for await (const s of model.trainLoop({ steps: 10, maxStepsOffPolicy: 1, rollouts: () => groups })) console.log(s.step);
 * ```
 */
export class TrainableModel extends TrainableModelResource {
  readonly #checkpoints: Checkpoints;
  readonly #chat: Chat;

  /** @internal Use `client.trainableModels.register()`. */
  constructor(
    response: TrainableModelResponse,
    jobs: TrainingJobs,
    checkpoints: Checkpoints,
    chat: Chat,
    http: HttpClient,
  ) {
    super(response, jobs, checkpoints, chat, http);
    this.#checkpoints = checkpoints;
    this.#chat = chat;
  }

  /**
   * Chat on the Training host (`trainingBaseURL`), which serves this model's checkpoints:
   * `create`, `parse` and the agent loop `runTools`. Name the checkpoint with `inferenceName`.
   *
   * @example
   * ```ts
   * const reply = await trainable.chat.completions.create({
   *   model: trainable.inferenceName(await trainable.latestStep()),
   *   messages: [{ role: "user", content: "Hi" }],
   * });
   * ```
   */
  override get chat(): Chat {
    return this.#chat;
  }

  /**
   * The RL loop, pipelined (docs/rl-loop.md): for each step after `latestStep()` up to `steps`,
   * `rollouts` samples the newest checkpoint and a job trains on its groups; steps are yielded
   * in order. `maxStepsOffPolicy: 0` samples each checkpoint just trained; `k >= 1` samples the
   * next steps while a job trains, never more than `k` steps behind. One job at a time; the loop
   * sets each trajectory's policy versions; `eval` on trained steps, `retention` after each.
   * An error, an abort (`APIUserAbortError`) or a `break` stops it: rollouts aborted, no job
   * created after it; it ends once all it started has settled. Bad options throw
   * `RequestValidationError` at once.
   *
   * @example
   * ```ts
   * for await (const s of trainable.trainLoop({
   *   steps: 20,
   *   maxStepsOffPolicy: 1,
   *   rollouts: async ({ modelName, signal }) => (signal.aborted ? [] : groups.map((g) => ({ ...g, model: modelName }))),
   *   retention: { keepLatest: 2, keepBest: 1, metric: "reward" },
   * })) console.log(`step ${s.step} (sampled ${s.sampledStep}): reward ${s.reward?.toFixed(2)}`);
   * ```
   */
  trainLoop(options: TrainLoopOptions): AsyncGenerator<TrainLoopStep, void, undefined> {
    return trainLoop(
      this,
      (prune, requestOptions, inUse) => pruneCheckpoints(this.#checkpoints, this.id, prune, requestOptions, inUse),
      options,
    );
  }
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
export class TrainableModels extends TrainableModelsResource<TrainableModel> {
  readonly #chat: Chat;

  /** @internal Use `client.trainableModels`; `chat` is the chat namespace on the Training host. */
  constructor(http: HttpClient, chat: Chat) {
    super(http, chat);
    this.#chat = chat;
  }

  /** @internal */
  protected override _handle(response: TrainableModelResponse): TrainableModel {
    return new TrainableModel(response, this._jobs, this.checkpoints, this.#chat, this._http);
  }
}
