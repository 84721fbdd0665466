/**
 * The fake's training service past job creation, as W&B Training has it on the wire: the model
 * registry (`/v1/preview/models`, `models.ts`), base models, checkpoints in cursor pages
 * (`checkpoints.ts`), job records and their events (`/v1/preview/training-jobs/{id}[/events]`,
 * `jobs.ts` and `timeline.ts`), and chat on the trained names
 * (`wandb-artifact:///{entity}/{project}/{name}[:step{N}]`, `serving.ts`).
 *
 * This store holds the models and the jobs' timelines. Every route first releases the events
 * whose time has come ({@link TrainableStore.advance}), so what it reads is current: a job that
 * has ended has added its model's checkpoint and taught it what it learned (`policy.ts`; an SFT
 * job's replies exactly, `sft-policy.ts`).
 */
import type { FakeTrainingJob } from "../types.js";
import { isRecord, randomUuid } from "../util.js";
import { checkpointMetrics, learn, trainedGroups } from "./policy.js";
import type { FakeTrainableModel } from "./records.js";
import type { SftDatasetRow } from "./sft-dataset.js";
import { sftLessons } from "./sft-policy.js";
import { type JobTimeline, JobTimelines } from "./timeline.js";

/**
 * Base models of the fake when the `baseModels` option is not given.
 */
export const DEFAULT_BASE_MODELS: readonly string[] = [
  "OpenPipe/Qwen3-14B-Instruct",
  "Qwen/Qwen3-30B-A3B-Instruct-2507",
];

/**
 * The fake's trainable models, base models and the life of its jobs (`svc.state.trainable`).
 */
export class TrainableStore {
  readonly models: FakeTrainableModel[] = [];
  readonly baseModels: string[];
  readonly entity: string;
  /** Time between two events of a job, in ms. */
  stepMs: number;
  /** When set, the time from a job's creation to its last event, in ms, whatever its size. */
  jobMs: number | undefined;
  /** The planned events of every job, released over time. */
  readonly timelines = new JobTimelines();

  constructor(options: { stepMs: number; jobMs?: number | undefined; entity: string; baseModels: readonly string[] }) {
    this.stepMs = options.stepMs;
    this.jobMs = options.jobMs;
    this.entity = options.entity;
    this.baseModels = [...options.baseModels];
  }

  /** Forgets every model and job timeline. */
  clear(): void {
    this.models.length = 0;
    this.timelines.clear();
  }

  /**
   * Starts the timeline of a job just created; `failure` makes it end with `training_failed`
   * after `afterSteps` gradient steps. An SFT job passes its dataset's rows: it then trains one
   * step per batch of them (`sft-dataset.ts`) instead of one per trajectory, and learns their
   * replies. Called by the service when a job is created.
   */
  startJob(
    job: FakeTrainingJob,
    failure: { message: string; afterSteps: number } | undefined,
    sftRows?: readonly SftDatasetRow[],
  ): void {
    // The step this job will make (jobs of one model run one at a time in a loop): its loss
    // falls with it, so that every checkpoint's metrics differ from the one before.
    const modelStep = (this.models.find((m) => m.id === job.model_id)?.checkpoints.at(-1)?.step ?? 0) + 1;
    this.timelines.start(job, failure, sftRows, modelStep, { stepMs: this.stepMs, jobMs: this.jobMs });
  }

  /** Releases the events whose time has come; a job that ends adds its checkpoint and its lesson. */
  advance(now = Date.now()): void {
    this.timelines.advance(now, (t) => this.finish(t));
  }

  /**
   * The model of a name, once due events are released: W&B serves its checkpoints as `lora`
   * artifacts of that name.
   */
  findByName(entity: string, project: string, name: string): FakeTrainableModel | undefined {
    this.advance();
    return this.models.find((m) => m.entity === entity && m.project === project && m.name === name);
  }

  /** The model a route names, once due events are released (an ended job adds its checkpoint). */
  find(modelId: string): FakeTrainableModel | undefined {
    this.advance();
    return this.models.find((x) => x.id === modelId);
  }

  private finish(t: JobTimeline): void {
    const model = this.models.find((m) => m.id === t.job.model_id);
    if (model === undefined) return;
    learn(model, trainedGroups(t));
    const step = (model.checkpoints.at(-1)?.step ?? 0) + 1;
    model.checkpoints.push({ id: randomUuid(), step, metrics: checkpointMetrics(t.planned) });
    if (t.sftRows !== undefined) {
      const config = isRecord(t.job.request["config"]) ? t.job.request["config"] : {};
      for (const { key, reply } of sftLessons(t.sftRows, config["assistant_turns"]))
        model.sftReplies.set(key, { reply, step });
    }
  }
}
