import type { TrainingJobEvent } from "../training-jobs/types.js";
import type { RequestOptions } from "../../core/options.js";
import type { TrainingJobs } from "../training-jobs/training-jobs.js";
import type { ExperimentalConfig, TrajectoryGroup } from "../training-jobs/request-schema.js";
import type { Checkpoints } from "./checkpoints.js";
import type { TrainableModelResponse, TrainResult } from "./types.js";

/**
 * Options of {@link TrainableModel.train}.
 */
export interface TrainOptions {
  /** Loss and optimizer settings for this job. */
  experimental_config?: ExperimentalConfig | null;
  /** Sent as `Idempotency-Key`: the create is then retried on every retryable failure. */
  idempotencyKey?: string;
  /** Called with each event as it arrives (progress lines, saving the cursor). */
  onEvent?: (event: TrainingJobEvent) => void;
  /** Time between polls of the job's events, in ms (default 1000). */
  pollInterval?: number;
  /** Stops waiting at once (`APIUserAbortError`); the job itself is not cancelled. */
  signal?: AbortSignal;
  /** Give up waiting after this many ms; the error names the job and how to re-attach. */
  timeout?: number;
}

const inferenceBase = (m: TrainableModelResponse) => `wandb-artifact:///${m.entity}/${m.project}/${m.name}`;

/**
 * A registered trainable model (`client.trainableModels.register`'s result): its server fields,
 * the names to sample it by, its latest step, and `train` (create a job and wait for it).
 *
 * @example
 * ```ts
 * const trainable = await client.trainableModels.register({ project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" });
 * const reply = await client.chat.completions.create({ model: trainable.inferenceName(), messages });
 * const { step, metrics } = await trainable.train(groups, { onEvent: (e) => console.log(e.type) });
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

  /** @internal Use `client.trainableModels.register()`. */
  constructor(response: TrainableModelResponse, jobs: TrainingJobs, checkpoints: Checkpoints) {
    Object.assign(this, response);
    this.id = response.id;
    this.entity = response.entity;
    this.project = response.project;
    this.name = response.name;
    this.base_model = response.base_model;
    this.#jobs = jobs;
    this.#checkpoints = checkpoints;
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
    const { experimental_config, idempotencyKey, onEvent, pollInterval, signal, timeout } = options;
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
    const sums = new Map<string, { sum: number; n: number }>();
    for await (const event of this.#jobs.follow(jobId, { pollInterval, timeout, signal })) {
      if (event.type === "gradient_step")
        for (const [key, value] of Object.entries(event.data ?? {})) {
          if (typeof value !== "number" || !Number.isFinite(value)) continue;
          const s = sums.get(key) ?? { sum: 0, n: 0 };
          s.sum += value;
          s.n++;
          sums.set(key, s);
        }
      onEvent?.(event);
    }
    const metrics: Record<string, number> = {};
    for (const [key, { sum, n }] of sums) metrics[key] = sum / n;
    return { jobId, step: await this.latestStep(signal ? { signal } : undefined), metrics };
  }
}
