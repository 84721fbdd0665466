/**
 * The public `client.trainableModels` and its `TrainableModel` handle: the endpoints' classes
 * with what lib builds on them, the pipelined training loop (`trainLoop`).
 *
 * @module
 */
import type { APIPromise } from "../../core/api-promise.js";
import type { RequestOptions } from "../../core/options.js";
import type { Checkpoints } from "../../resources/trainable-models/checkpoints.js";
import { pruneCheckpoints } from "../../resources/trainable-models/prune-checkpoints.js";
import type { TrainableModelRegisterParams } from "../../resources/trainable-models/request-schema.js";
import { TrainableModel as TrainableModelResource } from "../../resources/trainable-models/trainable-model.js";
import { TrainableModels as TrainableModelsResource } from "../../resources/trainable-models/trainable-models.js";
import type { TrainableModelResponse } from "../../resources/trainable-models/types.js";
import type { TrainingJobs } from "../../resources/training-jobs/training-jobs.js";
import { trainLoop } from "../training-loop/train-loop.js";
import type { TrainLoopOptions, TrainLoopStep } from "../training-loop/types.js";

/**
 * A registered trainable model (`client.trainableModels.register`'s result): its server fields,
 * the names to sample it by, its latest step, `train` (create a job and wait for it), checkpoint
 * pruning, and `trainLoop`, the whole RL loop with sampling and training overlapped.
 *
 * @example
 * ```ts
 * const model = await client.trainableModels.register({ project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" });
 * const reply = await client.chat.completions.create({ model: model.inferenceName(), messages });
 * const { step, metrics } = await model.train(groups, { onEvent: (e) => console.log(e.type) });
 * ```
 */
export class TrainableModel extends TrainableModelResource {
  readonly #checkpoints: Checkpoints;

  /** @internal Use `client.trainableModels.register()`. */
  constructor(response: TrainableModelResponse, jobs: TrainingJobs, checkpoints: Checkpoints) {
    super(response, jobs, checkpoints);
    this.#checkpoints = checkpoints;
  }

  /**
   * The RL loop, pipelined: for each step up to `steps` (resuming after `latestStep()`), calls
   * `rollouts` on the newest checkpoint, trains a job on the groups it resolves to, and yields
   * the step `{ step, jobId, metrics, sampledStep, evalMetrics, reward, durations }` in order.
   * With `maxStepsOffPolicy: 0` each step samples the checkpoint just trained; with `k >= 1` the
   * rollouts of the next steps run while a job trains, on a checkpoint never more than `k`
   * steps behind the step they train (`step - 1 - sampledStep` is 0 to `k`). Jobs run one at a
   * time, in order; the loop sets each trajectory's `initial_policy_version` and
   * `final_policy_version` to the step it sampled. `eval` runs on trained checkpoints (every
   * `evalEvery` steps), `retention` prunes checkpoints after each step (never one still sampled).
   *
   * A failed rollout, job, evaluation or pruning stops the loop with its error: running
   * rollouts are aborted through their `signal`, and no job is created from a step whose
   * rollouts did not all end. `signal` stops it with `APIUserAbortError`; leaving the
   * `for await` early stops it quietly. Either way no job is created after it, and the loop ends
   * once everything it started has settled. A job already training keeps running on the
   * server (the API has no cancel); a new `trainLoop` resumes from the model's checkpoints once
   * it has ended. Bad options throw `RequestValidationError` at once.
   *
   * @example
   * ```ts
   * for await (const s of model.trainLoop({
   *   steps: 20,
   *   maxStepsOffPolicy: 1,
   *   rollouts: ({ modelName, signal, onProgress }) =>
   *     gatherTrajectoryGroups(prompts.map((p) => rolloutsOf(p, modelName)), { signal, onProgress }),
   *   retention: { keepLatest: 2, keepBest: 1, metric: "reward" },
   * })) {
   *   console.log(`step ${s.step} (sampled step ${s.sampledStep}): reward ${s.reward?.toFixed(2)}`);
   * }
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
export class TrainableModels extends TrainableModelsResource {
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
  override register(params: TrainableModelRegisterParams, options?: RequestOptions): APIPromise<TrainableModel> {
    // _handle below makes every handle this class's TrainableModel.
    return super.register(params, options) as APIPromise<TrainableModel>;
  }

  /** @internal */
  protected override _handle(response: TrainableModelResponse): TrainableModel {
    return new TrainableModel(response, this._jobs, this.checkpoints);
  }
}
