/**
 * The life of a training job over time. Jobs train as W&B Training's do, seen from its events
 * route: `training_started` (`num_sequences` = the number of trajectories, or of an SFT job's
 * batches), one `gradient_step` per sequence or batch, then `training_ended`, one event every
 * `trainingStepMs` (option, default 5 ms), or spread over `trainingJobMs` (option) when given.
 * A `faults.trainingFailed(...)` fault makes the job end with `training_failed` instead.
 *
 * The events are planned when the job is created and released as their time comes.
 */
import type { FakeTrainingJob } from "../types.js";
import { hash32, isoMicros, isRecord } from "../util.js";
import type { FakeTrainingEvent } from "./records.js";
import { type SftDatasetRow, sftBatchMetrics } from "./sft-dataset.js";

/** A job's planned events and how many of them have been released. */
export interface JobTimeline {
  job: FakeTrainingJob;
  /** An SFT job's rows: trained like trajectories of reward 1 (a reply to imitate). */
  sftRows: readonly SftDatasetRow[] | undefined;
  start: number;
  /** Time between two of its events, fixed when the job starts. */
  stepMs: number;
  planned: FakeTrainingEvent[];
  emitted: number;
  failure: string | undefined;
  ended: boolean;
}

/**
 * The timelines of the jobs created so far, by job id.
 */
export class JobTimelines {
  private readonly byJob = new Map<string, JobTimeline>();
  private eventCounter = 0;

  /** Forgets every timeline (event ids keep counting, so they stay unique). */
  clear(): void {
    this.byJob.clear();
  }

  /** The timeline of a job, or `undefined`. */
  get(jobId: string): JobTimeline | undefined {
    return this.byJob.get(jobId);
  }

  /**
   * Plans a job's events: its `modelStep` (the checkpoint it will make) lowers its loss, and
   * `timing` spaces the events (`jobMs`, when set, is the whole job's length).
   */
  start(
    job: FakeTrainingJob,
    failure: { message: string; afterSteps: number } | undefined,
    sftRows: readonly SftDatasetRow[] | undefined,
    modelStep: number,
    timing: { stepMs: number; jobMs: number | undefined },
  ): void {
    const trajectories = job.rewards.reduce((n, g) => n + g.length, 0);
    const rewards = job.rewards.flat().filter((r): r is number => r !== null);
    const meanReward = rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : 0;
    const next = () => `evt-${(++this.eventCounter).toString().padStart(8, "0")}`;
    const config = isRecord(job.request["config"]) ? job.request["config"] : {};
    const batches = sftRows === undefined ? undefined : sftBatchMetrics(sftRows, config, modelStep);
    const steps = batches?.length ?? Math.max(1, trajectories);
    const planned: FakeTrainingEvent[] = [{ id: next(), type: "training_started", data: { num_sequences: steps } }];
    const gradientSteps = failure === undefined ? steps : Math.min(steps, failure.afterSteps);
    for (let k = 1; k <= gradientSteps; k++) {
      const sftData = batches?.[k - 1];
      if (sftData !== undefined) {
        planned.push({ id: next(), type: "gradient_step", data: sftData });
        continue;
      }
      const noise = (hash32(`${job.id}${k}`) % 100) / 20000;
      const loss = Math.round((0.9 / (1 + 0.15 * k) / (1 + 0.2 * (modelStep - 1)) + noise) * 10000) / 10000;
      planned.push({
        id: next(),
        type: "gradient_step",
        data: {
          step: k,
          loss,
          reward: Math.round(meanReward * 10000) / 10000,
          grad_norm: Math.round((1.2 / k) * 10000) / 10000,
          learning_rate: 5e-6,
          num_trajectories: trajectories,
        },
      });
    }
    planned.push(
      failure === undefined
        ? { id: next(), type: "training_ended", data: {} }
        : { id: next(), type: "training_failed", data: { error_message: failure.message } },
    );
    this.byJob.set(job.id, {
      job,
      sftRows,
      start: Date.now(),
      stepMs: timing.jobMs === undefined ? timing.stepMs : timing.jobMs / Math.max(1, planned.length - 1),
      planned,
      emitted: 0,
      failure: failure?.message,
      ended: false,
    });
  }

  /** Releases the events whose time has come; `onTrained` gets each job that ends without failure. */
  advance(now: number, onTrained: (t: JobTimeline) => void): void {
    for (const t of this.byJob.values()) {
      if (t.ended) continue;
      const due = Math.min(t.planned.length, Math.floor((now - t.start) / Math.max(t.stepMs, 0.001)) + 1);
      if (t.stepMs <= 0) t.emitted = t.planned.length;
      else t.emitted = Math.max(t.emitted, due);
      if (t.emitted === t.planned.length) {
        t.ended = true;
        if (t.failure === undefined) onTrained(t);
      }
    }
  }
}

/** A job's record as `GET /v1/preview/training-jobs/{job_id}` answers it. */
export function jobView(t: JobTimeline): Record<string, unknown> {
  const emitted = t.planned.slice(0, t.emitted);
  const last = emitted.at(-1);
  const status =
    last?.type === "training_failed"
      ? "FAILED"
      : last?.type === "training_ended"
        ? "COMPLETED"
        : emitted.length > 0
          ? "RUNNING"
          : "QUEUED";
  return {
    id: t.job.id,
    model_id: t.job.model_id,
    status,
    created_at: t.job.created_at,
    training_start: emitted.length > 0 ? isoMicros(t.start + t.stepMs) : null,
    training_end: t.ended ? isoMicros(t.start + t.stepMs * t.planned.length) : null,
    error_message: t.failure !== undefined && t.ended ? t.failure : null,
  };
}
