/**
 * How a run's history is written, by W&B's Go core's rules (`wandb/wandb`
 * `core/internal/filestream/`, `core/internal/runbranch/processresponse.go`,
 * `core/internal/runmetric/runconfigmetrics.go`): each history line is one flat JSON object with
 * `_step`, `_runtime` and `_timestamp`; the summary is the whole summary on one line that is
 * rewritten; a line over the server's limit is dropped; requests are cut at about 10 MiB; and a
 * resumed run continues at its history length and after its last `_step`.
 */

import { isObject } from "../../core/decoding/response-checks.js";
import type { RunResumeState } from "./types.js";

/** The history file of a run (`wandb-history.jsonl`). */
export const HISTORY_FILE = "wandb-history.jsonl";
/** The summary file of a run (`wandb-summary.json`): one line, rewritten. */
export const SUMMARY_FILE = "wandb-summary.json";
/** The longest line W&B's backend takes (Go's `defaultMaxFileLineBytes`, 10 MiB - 100 KiB). */
export const MAX_LINE_BYTES = (10 << 20) - (100 << 10);
/** About the most line bytes one request carries (Go's `defaultMaxRequestSizeBytes`). */
export const MAX_REQUEST_BYTES = 10 << 20;

const encoder = new TextEncoder();
/** A line's size in bytes, as Go counts it when it cuts requests. */
export const lineBytes = (line: string): number => encoder.encode(line).length;

/**
 * The numbers of `row` that JSON can carry: NaN and infinities are left out (Go writes them as
 * extended JSON, which `JSON.stringify` would turn into `null`).
 */
export function finiteValues(row: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(row))
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  return out;
}

/** Where a resumed run's writing continues: line offset, next `_step`, runtime so far, summary. */
export interface ResumePoint {
  offset: number;
  step: number;
  /** Seconds the run has run before (its `_runtime`). */
  runtime: number;
  summary: Record<string, unknown>;
}

const int = (v: unknown): number | undefined => (typeof v === "number" && Number.isSafeInteger(v) ? v : undefined);
const seconds = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * Where writing continues in a run. Go takes the last `_step` of the summary, then of the history
 * tail, plus 1 when the run has lines; its runtime, the largest `_runtime` (or
 * `_wandb.runtime`) found. Unlike Go, the run's state is used even when it lacks the `_wandb.t`
 * telemetry of a run started by W&B's SDK (a run W&B made ahead of time, as for a trainable
 * model): its lines are appended to, never overwritten.
 */
export function resumePoint(run: RunResumeState | null, upsertedLineCount = 0): ResumePoint {
  if (run === null) return { offset: upsertedLineCount, step: upsertedLineCount, runtime: 0, summary: {} };
  const summary = { ...run.summary };
  const tail = run.historyTail.at(-1);
  const lastStep = int(tail?._step) ?? int(summary._step);
  const wandb = isObject(summary._wandb) ? summary._wandb : {};
  const runtime = Math.max(seconds(summary._runtime), seconds(wandb.runtime), seconds(tail?._runtime));
  const offset = Math.max(run.historyLineCount, upsertedLineCount);
  // A run with lines but no readable `_step` continues after as many steps as it has lines,
  // so that `_step` still only grows.
  const step = lastStep !== undefined ? lastStep + (offset > 0 ? 1 : 0) : offset;
  return { offset, step, runtime, summary };
}

/** The step metric ART plots every metric against (its `define_metric("training_step")`). */
export const TRAINING_STEP = "training_step";

/**
 * The run's config with every key of `keys` defined to be plotted against `stepMetric`, as
 * W&B's SDK records `define_metric` (in `_wandb.value.m`, one `MetricRecord` per key, fields by
 * proto number: `"1"` name, `"5"` the 1-based index of its step metric in the same list, `"6"`
 * options, 1 `step_sync` and 3 `defined`); `undefined` when every key is defined already. Keys
 * are defined one by one, as Go does when the server does not expand globs: understood by every
 * server. The rest of the config is kept as it came.
 */
export function withStepMetric(
  config: Readonly<Record<string, unknown>>,
  keys: Iterable<string>,
  stepMetric: string = TRAINING_STEP,
): Record<string, unknown> | undefined {
  const wandb = isObject(config._wandb) ? config._wandb : {};
  const value = isObject(wandb.value) ? wandb.value : {};
  const m: unknown[] = Array.isArray(value.m) ? [...value.m] : [];
  const indexOf = (name: string) => m.findIndex((e) => isObject(e) && e["1"] === name);
  let changed = false;
  let stepIndex = indexOf(stepMetric);
  if (stepIndex < 0) {
    m.push({ "1": stepMetric, "6": [3] });
    stepIndex = m.length - 1;
    changed = true;
  }
  for (const key of keys) {
    if (key === stepMetric || key.startsWith("_") || indexOf(key) >= 0) continue;
    m.push({ "1": key, "5": stepIndex + 1, "6": [1] });
    changed = true;
  }
  return changed ? { ...config, _wandb: { ...wandb, value: { ...value, m } } } : undefined;
}
