/**
 * `model.trainLoop`'s `evaluation`: the checkpoint the loop starts from (the baseline) and every
 * `every`-th trained step, each evaluated as a Weave evaluation whose model is the checkpoint's
 * name (`model.inferenceName(step)`), so Weave lists one Model per step; each step's evaluation
 * is compared with the baseline's.
 *
 * @module
 */
import { optionNameIssues } from "../../core/checks/option-checks.js";
import { RequestValidationError, type ValidationIssue } from "../../core/errors/errors.js";
import type { RunExtras } from "./run.js";
import { checkRunParams } from "./run.js";
import { summaryValues } from "./summary.js";
import type {
  EvaluationRun,
  EvaluationRunParams,
  EvaluationSummary,
  LoopEvaluationOptions,
  ScorerDelta,
  StepEvaluation,
} from "./types.js";

const WHAT = "trainLoop options";
const OPTION_NAMES = ["dataset", "scorers", "every", "atStart", "concurrency", "name", "project_id", "params"] as const;

/** What the loop calls, with the checkpoint to evaluate. */
export interface LoopEvaluationContext {
  step: number;
  modelName: string;
  signal: AbortSignal;
}

/** @internal The evaluations of a training loop. */
export interface LoopEvaluation {
  /** Evaluates the starting checkpoint, when `atStart`. */
  atStart(context: LoopEvaluationContext): Promise<unknown> | undefined;
  /** Evaluates a trained step, when one is due. */
  afterStep(context: LoopEvaluationContext): Promise<StepEvaluation> | undefined;
}

/** Runs one evaluation (`runEvaluation` with a model's chat). */
export type RunEvaluation = (params: EvaluationRunParams, extras: RunExtras) => Promise<EvaluationRun>;

/** What a loop's model gives its evaluations. */
export interface LoopEvaluationTarget {
  project_id: string;
  name: string;
  modelProps(step: number): Record<string, unknown>;
}

/** Each score of `candidate` against `baseline` (dotted paths for object scores). */
export function scoreDeltas(baseline: EvaluationSummary, candidate: EvaluationSummary): Record<string, ScorerDelta> {
  const b = summaryValues(baseline);
  const c = summaryValues(candidate);
  const out: Record<string, ScorerDelta> = {};
  for (const key of new Set([...Object.keys(b), ...Object.keys(c)])) {
    const [x, y] = [b[key], c[key]];
    out[key] = { baseline: x, candidate: y, difference: x !== undefined && y !== undefined ? y - x : undefined };
  }
  return out;
}

/**
 * Checks `options` at once (`RequestValidationError`, paths under `evaluation.`) and returns
 * the loop's evaluations.
 */
export function loopEvaluation(
  run: RunEvaluation,
  target: LoopEvaluationTarget,
  options: LoopEvaluationOptions,
): LoopEvaluation {
  const o = options as Partial<LoopEvaluationOptions> | null;
  const issues: ValidationIssue[] = [];
  if (typeof o !== "object" || o === null)
    throw new RequestValidationError(
      [{ path: "evaluation", message: "must be { dataset, scorers, every?, atStart? }" }],
      WHAT,
    );
  if (o.every !== undefined && !(Number.isSafeInteger(o.every) && o.every >= 1))
    issues.push({ path: "evaluation.every", message: `must be an integer >= 1, got ${String(o.every)}` });
  if (o.atStart !== undefined && typeof o.atStart !== "boolean")
    issues.push({ path: "evaluation.atStart", message: "must be true or false" });
  if (o.params !== undefined && (typeof o.params !== "object" || o.params === null || "model" in o.params))
    issues.push({
      path: "evaluation.params",
      message: "must be chat parameters without model (the checkpoint is the model)",
    });
  for (const i of optionNameIssues(o, OPTION_NAMES, "known")) issues.push({ ...i, path: `evaluation.${i.path}` });
  const params = (modelName: string, signal?: AbortSignal): EvaluationRunParams => ({
    project_id: o.project_id ?? target.project_id,
    name: o.name ?? target.name,
    dataset: o.dataset!,
    scorers: o.scorers as EvaluationRunParams["scorers"],
    model: { ...o.params, model: modelName },
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(signal !== undefined ? { signal } : {}),
  });
  try {
    checkRunParams(params("checkpoint"));
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    issues.push(...err.issues.map((i) => ({ ...i, path: `evaluation.${i.path}` })));
  }
  if (issues.length > 0) throw new RequestValidationError(issues, WHAT);

  const every = o.every ?? 1;
  const evaluate = ({ step, modelName, signal }: LoopEvaluationContext) =>
    run(params(modelName, signal), { modelProps: target.modelProps(step) });
  let baseline: Promise<{ step: number; run: EvaluationRun }> | undefined;
  return {
    atStart(context) {
      if (o.atStart === false) return undefined;
      baseline = evaluate(context).then((r) => ({ step: context.step, run: r }));
      return baseline;
    },
    afterStep(context) {
      if (context.step % every !== 0) return undefined;
      const evaluated = evaluate(context);
      // Without a starting evaluation, the first step evaluated is the baseline.
      baseline ??= evaluated.then((r) => ({ step: context.step, run: r }));
      const base = baseline;
      return evaluated.then(async (r) => {
        const b = await base;
        return {
          id: r.id,
          step: context.step,
          modelName: context.modelName,
          summary: r.summary,
          baseline: { id: b.run.id, step: b.step, summary: b.run.summary },
          scorers: scoreDeltas(b.run.summary, r.summary),
        };
      });
    },
  };
}
