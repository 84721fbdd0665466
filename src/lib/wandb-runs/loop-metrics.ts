/**
 * The rows a training loop writes to its model's W&B run, with the keys current ART writes from
 * `Model.log` (`OpenPipe/ART` `src/art/model.py`, `src/art/metrics_taxonomy.py`,
 * `src/art/serverless/backend.py`): per trained step, `train/reward`, `train/reward_std_dev`,
 * `train/exception_rate`, the trajectories' and groups' own metrics under `train/` and
 * `train/group/`, the batch's `data/step_*` counts, the job's gradient metrics under ART's
 * names (`loss/train`, `loss/grad_norm`, ...) and `time/step_backend_train_s`; per evaluation,
 * the eval's metrics under `val/`. Each row carries `training_step`, the checkpoint it is about.
 */

import type { TrajectoryGroup } from "../../wire/training-jobs/request-schema.js";

/** ART's metric sections: a key `section/...` is written as is, any other gets its split's prefix. */
const SECTIONS = new Set([
  "loss",
  "objective",
  "offpolicy",
  "pipeline",
  "pipeline_settings",
  "queue",
  "sample_efficiency",
  "throughput",
  "costs",
  "discarded",
  "time",
  "data",
  "vllm",
  "train",
  "val",
  "test",
]);

/** A key as ART's `_qualify_metric_key` writes it for `split`. */
export function qualify(key: string, split: string): string {
  const slash = key.indexOf("/");
  return slash > 0 && SECTIONS.has(key.slice(0, slash)) ? key : `${split}/${key}`;
}

/** The gradient metrics W&B Training sends, under the names ART logs them (its `_UPSTREAM_TRAIN_METRIC_KEYS`). */
const JOB_METRIC_NAMES: Readonly<Record<string, string>> = {
  policy_loss: "loss/train",
  loss: "loss/train",
  entropy: "loss/entropy",
  kl_div: "loss/kl_div",
  kl_policy_ref: "loss/kl_policy_ref",
  grad_norm: "loss/grad_norm",
  learning_rate: "loss/learning_rate",
  num_groups_submitted: "data/step_num_groups_submitted",
  num_groups_trainable: "data/step_num_groups_trainable",
  num_trajectories: "data/step_num_trajectories",
  num_trainable_tokens: "data/step_trainer_tokens",
  train_tokens: "data/step_trainer_tokens",
  num_datums: "data/step_num_datums",
};

/** A job metric under ART's name; `undefined` for what ART leaves out. */
function jobMetricName(key: string): string | undefined {
  if (key.includes("/")) return key;
  // ART drops the rate; `step` is the gradient step's index, whose mean means nothing.
  if (key === "tokens_per_second" || key === "step") return undefined;
  if (key.startsWith("group_metric_")) return `group_${key.slice("group_metric_".length)}`;
  return JOB_METRIC_NAMES[key] ?? key;
}

const rewardsOf = (trajectories: readonly { reward?: number | undefined }[]) =>
  trajectories.map((t) => t.reward).filter((r): r is number => typeof r === "number");

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The population standard deviation (numpy's `np.std`, which ART uses). */
function std(xs: readonly number[]): number {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
}

const asNumber = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isFinite(v) ? v : typeof v === "boolean" ? Number(v) : undefined;

/** Per key, the mean of the numbers found. */
function means(samples: Iterable<Record<string, unknown> | null | undefined>): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const sample of samples)
    for (const [key, value] of Object.entries(sample ?? {})) {
      const x = asNumber(value);
      if (x === undefined) continue;
      const s = sums.get(key) ?? { sum: 0, n: 0 };
      s.sum += x;
      s.n++;
      sums.set(key, s);
    }
  return new Map([...sums].map(([key, { sum, n }]) => [key, sum / n]));
}

/** What a trained step's row is made of. */
export interface TrainedStep {
  /** The checkpoint the job made. */
  step: number;
  groups: readonly TrajectoryGroup[];
  /** The job's gradient metrics (the mean of each `gradient_step` member). */
  jobMetrics: Readonly<Record<string, number>>;
  /** How long the job took, in ms. */
  trainingMs: number;
}

/**
 * A trained step's row, as ART's `model.log(groups, metrics=result.metrics, step=result.step,
 * split="train")` writes it.
 *
 * @example
 * ```ts
 * trainRow({ step: 1, groups, jobMetrics: { loss: 0.3 }, trainingMs: 41_700 });
 * // { training_step: 1, "train/reward": 0.5, "train/reward_std_dev": 0.5, "loss/train": 0.3, ... }
 * ```
 */
export function trainRow({ step, groups, jobMetrics, trainingMs }: TrainedStep): Record<string, number> {
  const row: Record<string, number> = {};
  const trajectories = groups.flatMap((g) => g.trajectories);
  const groupRewards = groups.map((g) => rewardsOf(g.trajectories));
  const rewards = groupRewards.flat();
  const exceptions = groups.reduce((n, g) => n + (g.exceptions?.length ?? 0), 0);
  if (rewards.length > 0) row["train/reward"] = mean(rewards);
  // The mean, over the groups of two or more rewards, of each group's spread (ART's
  // `calculate_step_std_dev`): the signal a step trains on.
  const spreads = groupRewards.filter((r) => r.length > 1).map(std);
  row["train/reward_std_dev"] = spreads.length > 0 ? mean(spreads) : 0;
  if (trajectories.length + exceptions > 0)
    row["train/exception_rate"] = exceptions / (trajectories.length + exceptions);
  for (const [key, value] of means(trajectories.map((t) => t.metrics))) row[`train/${key}`] = value;
  const withTrajectories = groups.filter((g) => g.trajectories.length > 0);
  for (const [key, value] of means(withTrajectories.map((g) => g.metrics as Record<string, unknown> | undefined)))
    row[`train/group/${key}`] = value;
  row["data/step_num_scenarios"] = groups.length;
  row["data/step_num_trajectories"] = trajectories.length + exceptions;
  row["data/step_num_groups_submitted"] = groups.length;
  row["data/step_num_groups_trainable"] = groupRewards.filter((r) => new Set(r).size > 1).length;
  row["time/step_backend_train_s"] = trainingMs / 1000;
  // The server's values come last and win, as in ART (its `metrics=` are merged after).
  for (const [key, value] of Object.entries(jobMetrics)) {
    const name = jobMetricName(key);
    if (name !== undefined) row[qualify(name, "train")] = value;
  }
  row.training_step = step;
  return row;
}

/**
 * An evaluation's row, as ART's `model.log(metrics=..., split="val")` writes it: each metric
 * under `val/` unless it names its section.
 *
 * @example
 * ```ts
 * evalRow(2, { reward: 0.8, "val/accuracy": 0.5 });
 * // { "val/reward": 0.8, "val/accuracy": 0.5, training_step: 2 }
 * ```
 */
export function evalRow(step: number, metrics: Readonly<Record<string, unknown>>): Record<string, number> {
  const row: Record<string, number> = {};
  for (const [key, value] of Object.entries(metrics)) {
    const x = asNumber(value);
    if (x !== undefined) row[qualify(key, "val")] = x;
  }
  row.training_step = step;
  return row;
}
