import { type ListsEveryKey, optionNameIssues } from "../../core/checks/option-checks.js";
import { RequestValidationError, type ValidationIssue } from "../../core/errors/errors.js";
import type { CursorList } from "../../core/lists/cursor-list.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { Checkpoint, CheckpointDeleteResponse } from "../../wire/trainable-models/types.js";

/**
 * Which checkpoints `model.pruneCheckpoints` keeps (the latest step always).
 */
export interface PruneCheckpointsOptions {
  /** The newest steps to keep (default 1). */
  keepLatest?: number;
  /** The best steps by `metric` to keep (default 1 when `metric` is given, else 0). */
  keepBest?: number;
  /** The checkpoint metric that ranks steps, e.g. `"reward"`. */
  metric?: string;
  /** `"max"` (default): higher is better; `"min"`: lower (a loss). */
  mode?: "max" | "min";
  /** Only say what would be deleted; delete nothing. */
  dryRun?: boolean;
}

/**
 * Why a checkpoint was kept: `"latest"`, the newest step, always kept (the model's un-suffixed
 * name serves it); `"keepLatest"`, among the `keepLatest` newest; `"best"`, among the
 * `keepBest` best by `metric`; `"in use"`, still sampled or evaluated by a running
 * `trainLoop`.
 */
export type CheckpointKeepReason = "latest" | "keepLatest" | "best" | "in use";

/**
 * What `model.pruneCheckpoints` kept and deleted (with `dryRun`: would delete), in step order,
 * and why each kept step was kept (`{ keepLatest: 0, keepBest: 2 }` keeps three steps when the
 * latest is not among the two best: `reasons` says `["latest"]` for it and `["best"]` for each
 * of the others).
 */
export interface PruneCheckpointsResult {
  kept: number[];
  deleted: number[];
  /** Every reason each kept step was kept, by step. */
  reasons: Record<number, CheckpointKeepReason[]>;
}

const isCount = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

const PRUNE_OPTION_NAMES = ["keepLatest", "keepBest", "metric", "mode", "dryRun"] as const;
const pruneListWhole: ListsEveryKey<PruneCheckpointsOptions, typeof PRUNE_OPTION_NAMES> = true;
void pruneListWhole;

/**
 * @internal The problems of pruning options, each path after `prefix` (`"retention."` for a
 * training loop's): a misspelt name is one too, since an option dropped silently (`metrics`
 * for `metric`) would delete the checkpoints it was meant to keep.
 */
export function pruneOptionIssues(options: PruneCheckpointsOptions, prefix = ""): ValidationIssue[] {
  if (typeof options !== "object" || options === null)
    return [{ path: prefix.replace(/\.$/, ""), message: "must be an object of pruning options" }];
  const { keepLatest = 1, metric, mode = "max" } = options;
  const keepBest = options.keepBest ?? (metric === undefined ? 0 : 1);
  const issues = optionNameIssues(options, PRUNE_OPTION_NAMES, "known");
  if (!isCount(keepLatest))
    issues.push({ path: "keepLatest", message: `must be an integer >= 0, got ${String(keepLatest)}` });
  if (!isCount(keepBest))
    issues.push({ path: "keepBest", message: `must be an integer >= 0, got ${String(keepBest)}` });
  if (metric !== undefined && (typeof metric !== "string" || metric === ""))
    issues.push({ path: "metric", message: 'must be the name of a checkpoint metric, such as "reward"' });
  if (metric === undefined && isCount(keepBest) && keepBest > 0)
    issues.push({
      path: "metric",
      message: `keepBest: ${keepBest} needs the checkpoint metric to rank by: pass metric (e.g. "reward")`,
    });
  if (mode !== "max" && mode !== "min")
    issues.push({ path: "mode", message: `must be "max" or "min", got ${JSON.stringify(mode)}` });
  return issues.map((i) => ({ ...i, path: prefix + i.path }));
}

function checkOptions(options: PruneCheckpointsOptions): Required<Omit<PruneCheckpointsOptions, "metric">> & {
  metric: string | undefined;
} {
  const issues = pruneOptionIssues(options);
  if (issues.length > 0) throw new RequestValidationError(issues, "pruneCheckpoints options");
  const { keepLatest = 1, metric, mode = "max", dryRun = false } = options;
  const keepBest = options.keepBest ?? (metric === undefined ? 0 : 1);
  return { keepLatest, keepBest, metric, mode, dryRun };
}

/**
 * @internal The steps to keep and to delete among `checkpoints`: the newest `keepLatest`, the
 * best `keepBest` by `metric` (ties: the newer step; steps without the metric are not ranked),
 * the latest, and every step in `inUse` (checkpoints a running loop still samples).
 */
export function chooseCheckpoints(
  checkpoints: readonly Checkpoint[],
  options: PruneCheckpointsOptions,
  inUse: Iterable<number> = [],
): PruneCheckpointsResult {
  const { keepLatest, keepBest, metric, mode } = checkOptions(options);
  const byStep = [...checkpoints].sort((a, b) => a.step - b.step);
  const steps = byStep.map((c) => c.step);
  const keep = new Map<number, CheckpointKeepReason[]>();
  const add = (step: number, reason: CheckpointKeepReason) => {
    // A step in use that is no checkpoint (already deleted) has nothing to keep.
    if (!steps.includes(step)) return;
    const reasons = keep.get(step);
    if (reasons === undefined) keep.set(step, [reason]);
    else if (!reasons.includes(reason)) reasons.push(reason);
  };
  const latest = byStep.at(-1);
  if (latest !== undefined) add(latest.step, "latest");
  for (const c of byStep.slice(Math.max(0, byStep.length - keepLatest))) add(c.step, "keepLatest");
  if (metric !== undefined && keepBest > 0) {
    const sign = mode === "max" ? 1 : -1;
    const ranked = byStep
      .filter((c) => typeof c.metrics?.[metric] === "number" && Number.isFinite(c.metrics[metric]))
      .sort((a, b) => sign * (b.metrics[metric]! - a.metrics[metric]!) || b.step - a.step);
    for (const c of ranked.slice(0, keepBest)) add(c.step, "best");
  }
  for (const step of inUse) add(step, "in use");
  const kept = steps.filter((s) => keep.has(s));
  return {
    kept,
    deleted: steps.filter((s) => !keep.has(s)),
    reasons: Object.fromEntries(kept.map((s) => [s, keep.get(s)!])),
  };
}

/** What pruning needs of `trainableModels.checkpoints`: list them all, delete some. */
export interface CheckpointLists {
  list(modelId: string, params: { limit?: number }, options?: RequestOptions): CursorList<Checkpoint>;
  delete(modelId: string, params: { steps: number[] }, options?: RequestOptions): PromiseLike<CheckpointDeleteResponse>;
}

/**
 * @internal `model.pruneCheckpoints`, with the steps a running loop still samples kept too.
 * Options are checked before anything is sent.
 */
export async function pruneCheckpoints(
  checkpoints: CheckpointLists,
  modelId: string,
  options: PruneCheckpointsOptions,
  requestOptions?: RequestOptions,
  inUse: Iterable<number> = [],
): Promise<PruneCheckpointsResult> {
  const { dryRun } = checkOptions(options);
  const all = await checkpoints.list(modelId, { limit: 100 }, requestOptions).toArray();
  const chosen = chooseCheckpoints(all, options, inUse);
  if (dryRun || chosen.deleted.length === 0) return chosen;
  const { not_found_steps } = await checkpoints.delete(modelId, { steps: chosen.deleted }, requestOptions);
  // A step another process deleted meanwhile was not deleted by this call.
  const gone = new Set(Array.isArray(not_found_steps) ? not_found_steps : []);
  return { ...chosen, deleted: chosen.deleted.filter((s) => !gone.has(s)) };
}
