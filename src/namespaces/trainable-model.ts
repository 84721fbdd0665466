import type { HttpClient } from "../core/pipeline/http-client.js";
import type { RequestOptions } from "../core/pipeline/options.js";
import type { ArtifactDownload } from "../lib/artifacts/download.js";
import { downloadCheckpoint } from "../lib/training/download-checkpoint.js";
import {
  type PruneCheckpointsOptions,
  type PruneCheckpointsResult,
  pruneCheckpoints,
} from "../lib/training/prune-checkpoints.js";
import { type LoopModel, trainLoop } from "../lib/training/train-loop.js";
import { type SFTRow, type TrainSFTOptions, type TrainSFTResult, trainSFT } from "../lib/training/train-sft.js";
import type { TrainLoopOptions, TrainLoopStep, TrainOptions } from "../lib/training/types.js";
import { openLoopRunLog } from "../lib/wandb-runs/loop-log.js";
import { meanGradientMetrics } from "../wire/trainable-models/job-metrics.js";
import type { TrainableModelResponse, TrainResult } from "../wire/trainable-models/types.js";
import type { TrajectoryGroup } from "../wire/training-jobs/request-schema.js";
import type { Completions } from "./chat.js";
import type { Checkpoints } from "./checkpoints.js";
import { SFTTrainingJobs } from "./sft-training-jobs.js";
import type { TrainingJobs } from "./training-jobs.js";

/**
 * The chat namespace a model's handle carries: `completions` (`create`, `parse`) sent to the
 * Training host (`trainingBaseURL`), which serves every trained checkpoint.
 */
export interface ModelChat {
  readonly completions: Completions;
}

const inferenceBase = (m: TrainableModelResponse) => `wandb-artifact:///${m.entity}/${m.project}/${m.name}`;

/**
 * A registered trainable model (`client.trainableModels.register`'s result): its server fields,
 * the names to sample it by, its latest step, one training step (`train`, `trainSFT`), the
 * pipelined loop (`trainLoop`) and its checkpoints (`pruneCheckpoints`, `downloadCheckpoint`).
 *
 * @example
 * ```ts
 * const trainable = await client.trainableModels.register({ project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" });
 * const reply = await client.chat.completions.create({ model: trainable.inferenceName(), messages });
 * const { step, metrics } = await trainable.train(groups, { onEvent: (e: { type: string }) => console.log(e.type) });
 * ```
 */
export class TrainableModel implements TrainableModelResponse {
  readonly id: string;
  readonly entity: string;
  readonly project: string;
  readonly name: string;
  readonly base_model: string;
  readonly run_id?: string | null;
  [key: string]: unknown;
  readonly #jobs: TrainingJobs;
  readonly #checkpoints: Checkpoints;
  readonly #chat: ModelChat;
  // The pipeline, for W&B's API (the dataset artifact, checkpoint downloads) and SFT jobs.
  readonly #http: HttpClient;

  /** @internal Use `client.trainableModels.register()`. */
  constructor(
    response: TrainableModelResponse,
    jobs: TrainingJobs,
    checkpoints: Checkpoints,
    chat: ModelChat,
    http: HttpClient,
  ) {
    // Every member the server sends is kept, except one that would shadow the handle's own
    // (a `chat` or `train` member would hide the method, or throw on the getter), the methods
    // of the class actually made (src/lib's `trainLoop`) included.
    for (const [key, value] of Object.entries(response))
      if (!(key in new.target.prototype)) (this as Record<string, unknown>)[key] = value;
    this.id = response.id;
    this.entity = response.entity;
    this.project = response.project;
    this.name = response.name;
    this.base_model = response.base_model;
    this.#jobs = jobs;
    this.#checkpoints = checkpoints;
    this.#chat = chat;
    this.#http = http;
  }

  /**
   * Chat on the Training host (`trainingBaseURL`), where W&B serves every trained checkpoint:
   * sampling what was just trained needs no second client. Name the checkpoint with
   * {@link inferenceName}.
   *
   * @example
   * ```ts
   * const reply = await trainable.chat.completions.create({
   *   model: trainable.inferenceName(await trainable.latestStep()),
   *   messages: [{ role: "user", content: "Hi" }],
   * });
   * ```
   */
  get chat(): ModelChat {
    return this.#chat;
  }

  /**
   * The chat `model` name that serves this model: `wandb-artifact:///{entity}/{project}/{name}`
   * (the latest checkpoint), or with `:step{N}` for one step.
   *
   * @example
   * ```ts
   * trainable.inferenceName();  // "wandb-artifact:///acme/rl/agent"
   * trainable.inferenceName(3); // "wandb-artifact:///acme/rl/agent:step3"
   * ```
   */
  inferenceName(step?: number): string {
    if (step === undefined) return inferenceBase(this);
    if (!Number.isSafeInteger(step) || step < 0)
      throw new RangeError(`inferenceName: step must be an integer >= 0, got ${String(step)}`);
    return `${inferenceBase(this)}:step${step}`;
  }

  /**
   * The newest checkpoint's step, or 0 when the model has none yet.
   *
   * @example
   * ```ts
   * for (let step = await trainable.latestStep(); step < 10; step++) {
   *   // one training step
   * }
   * ```
   */
  async latestStep(options?: RequestOptions): Promise<number> {
    for await (const page of this.#checkpoints.list(this.id, { order: "desc", limit: 1 }, options).pages())
      return page[0]?.step ?? 0;
    return 0;
  }

  /**
   * Keeps the `keepLatest` newest steps (default 1), the `keepBest` best by a `metric` of
   * `checkpoints.list` (ties: the newer; unranked without it) and always the latest, and deletes
   * the rest in one request. `dryRun` deletes nothing; bad options reject before sending.
   *
   * @example
   * ```ts
   * const { kept, deleted } = await trainable.pruneCheckpoints({ keepLatest: 2, keepBest: 1, metric: "reward" });
   * console.log(`kept ${kept.join(", ")}; deleted ${deleted.join(", ") || "nothing"}`);
   * ```
   */
  pruneCheckpoints(
    options: PruneCheckpointsOptions = {},
    requestOptions?: RequestOptions,
  ): Promise<PruneCheckpointsResult> {
    return pruneCheckpoints(this.#checkpoints, this.id, options, requestOptions);
  }

  /**
   * One training step: creates a job from the groups (with the same checks as
   * `trainingJobs.create`), follows its events until `training_ended`, and resolves to the job
   * id, the model's new latest step, and the mean of each numeric `gradient_step` member. Rejects
   * with `TrainingJobFailedError` when the job fails.
   *
   * @example
   * ```ts
   * const { jobId, step, metrics } = await trainable.train(groups, {
   *   onEvent: (e) => { if (e.type === "gradient_step") console.log("loss", e.data.loss); },
   * });
   * ```
   */
  async train(groups: TrajectoryGroup[], options: TrainOptions = {}): Promise<TrainResult> {
    const { experimental_config, idempotencyKey, onEvent, onJobCreated, pollInterval, signal, timeout } = options;
    const request: RequestOptions = {};
    if (idempotencyKey !== undefined) request.idempotencyKey = idempotencyKey;
    if (signal !== undefined) request.signal = signal;
    const { id: jobId } = await this.#jobs.create(
      {
        model_id: this.id,
        trajectory_groups: groups,
        ...(experimental_config !== undefined ? { experimental_config } : {}),
      },
      request,
    );
    await onJobCreated?.(jobId);
    const metrics = await meanGradientMetrics(this.#jobs.follow(jobId, { pollInterval, timeout, signal }), onEvent);
    return { jobId, step: await this.latestStep(signal ? { signal } : undefined), metrics };
  }

  /**
   * Supervised fine-tuning: writes the rows (an (async) iterable of `{ messages, tools? }`, or
   * a JSONL file path in Node) as `train.jsonl` into a `dataset` artifact of the model's
   * project, logged to the model's W&B run, as ART writes it; then creates the SFT job with the
   * version W&B assigned and follows it until `training_ended`. Before anything is sent, every
   * option is checked (a misspelt one, or a misspelt `config` setting, gets a "did you mean")
   * and every row is read once, checked (each needs an assistant turn: a bad row is refused
   * naming its line) and spooled to a temp file while hashed, so memory stays constant. The
   * dataset is named by the rows' digest: the same rows again upload nothing and reuse the
   * version W&B has. The job is kept in `state` (by default a file under `.inferloop/` in Node)
   * from just before its create, so a call again after any stop, with the same rows, follows it
   * to its end instead of creating a second job; other rows are refused while it is kept.
   * Resolves like {@link train}, with the dataset's URL.
   *
   * @example
   * ```ts
   * const { step, metrics, trainingDataUrl } = await trainable.trainSFT(
   *   [{ messages: [{ role: "user", content: "2+2?" }, { role: "assistant", content: "4" }] }],
   *   { config: { learning_rate: 5e-5 }, onEvent: (e: { type: string }) => console.log(e.type) },
   * );
   * ```
   */
  trainSFT(
    rows: string | Iterable<SFTRow> | AsyncIterable<SFTRow>,
    options: TrainSFTOptions = {},
  ): Promise<TrainSFTResult> {
    return trainSFT(this.#http, new SFTTrainingJobs(this.#http), this, rows, options);
  }

  /**
   * Downloads the trained LoRA of a step (the `lora` artifact
   * `{entity}/{project}/{name}:step{N}`) into `dir`, each file checked against its digest.
   *
   * @example
   * ```ts
   * const { files } = await trainable.downloadCheckpoint(await trainable.latestStep(), { dir: "./lora" });
   * ```
   */
  downloadCheckpoint(step: number, params: { dir: string }, options?: RequestOptions): Promise<ArtifactDownload> {
    return downloadCheckpoint(this.#http, this, step, params, options);
  }

  /**
   * The RL loop, pipelined (docs/rl-loop.md): for each step after `latestStep()` up to `steps`,
   * `rollouts` samples the newest checkpoint and a job trains on its groups; steps are yielded
   * in order. `maxStepsOffPolicy: 0` samples each checkpoint just trained; `k >= 1` samples the
   * next steps while a job trains, never more than `k` steps behind. One job at a time; the loop
   * sets each trajectory's policy versions; `eval` on trained steps, `retention` after each.
   * Each trained step's metrics and each eval's are logged to the model's W&B run with ART's
   * keys and `training_step` (`logTo`; on when the model has a `run_id`, never failing the loop).
   * An error, an abort (`APIUserAbortError`) or a `break` stops it: rollouts aborted, no job
   * created after it; it ends once all it started has settled. The job in flight is kept in
   * `state` (by default a file under `.inferloop/` in Node), so a loop started again after any
   * stop follows it to its end (`job_resumed`) instead of creating a second job for its step.
   * `maxStepsOffPolicy` defaults to 4. Bad options throw `RequestValidationError` at once.
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
      this.#loopModel(),
      (prune, requestOptions, inUse) => pruneCheckpoints(this.#checkpoints, this.id, prune, requestOptions, inUse),
      options,
      (o) => openLoopRunLog(this.#http, this, o.logTo),
    );
  }

  /** What the loop needs of this model: its names, its latest step, a job's create and follow. */
  #loopModel(): LoopModel {
    return {
      id: this.id,
      entity: this.entity,
      project: this.project,
      name: this.name,
      log: this.#http.config.log,
      inferenceName: (step) => this.inferenceName(step),
      latestStep: (options) => this.latestStep(options),
      createJob: async (request, options) => (await this.#jobs.create({ model_id: this.id, ...request }, options)).id,
      followJob: (jobId, { onEvent, ...follow }) => meanGradientMetrics(this.#jobs.follow(jobId, follow), onEvent),
    };
  }
}
