/**
 * `eval_results/query` in the fake, function by function as `wandb/weave`
 * `weave/trace_server/eval_results_helpers.py` computes it from an evaluation's calls:
 * `resolve_eval_root_ids`, `filter_predict_and_score_calls`, `extract_row_digest_from_example`,
 * `select_predict_call`, `extract_total_tokens`, `best_effort_scorer_call_ids`,
 * `_augment_scores_with_child_scorer_outputs`, `_build_trial`, `apply_row_selection`,
 * `_process_scorer_output` and `compute_summary_from_rows`.
 */
import type { FakeCallRecord } from "../types.js";
import { isRecord } from "../util.js";
import { dumpsSorted, strDigest } from "./digest.js";

/** The members of `EvalResultsQueryReq` the answer depends on, as sent (defaults applied here). */
export interface EvalResultsRequest {
  evaluation_call_ids?: string[] | null;
  evaluation_run_ids?: string[] | null;
  require_intersection?: boolean;
  include_raw_data_rows?: boolean;
  include_rows?: boolean;
  include_summary?: boolean;
  summary_require_intersection?: boolean | null;
  include_predict_and_score_children?: boolean;
  limit?: number | null;
  offset?: number;
}

type Trial = Record<string, unknown> & { scores: Record<string, unknown> };
type RowEvaluation = { evaluation_call_id: string; trials: Trial[] };
type Row = { row_digest: string; raw_data_row: unknown; evaluations: RowEvaluation[] };

const PREDICT_AND_SCORE = ["Evaluation.predict_and_score", "Evaluation.predictAndScore"];

/** `op_name_matches`: an op ref's name, or the op name itself, equals `name`. */
function opNameMatches(opName: string, name: string): boolean {
  const ref = /^weave:\/\/\/[^/]+\/[^/]+\/op\/([^:/]+):[^/]+$/.exec(opName);
  return (ref?.[1] ?? opName) === name;
}

export function resolveEvalRootIds(req: EvalResultsRequest): string[] {
  return [...new Set([...(req.evaluation_call_ids ?? []), ...(req.evaluation_run_ids ?? [])])];
}

export function extractRowDigestFromExample(example: unknown): string {
  if (typeof example === "string") {
    const ref = /\/attr\/rows\/id\/([^/]+)/.exec(example);
    return ref ? ref[1]! : strDigest(example);
  }
  return strDigest(dumpsSorted(example));
}

const metaOf = (call: FakeCallRecord) => {
  const meta = call.attributes["_weave_eval_meta"];
  return isRecord(meta) ? meta : {};
};
const weaveOf = (call: FakeCallRecord) => {
  const weave = call.attributes["weave"];
  return isRecord(weave) ? weave : {};
};
const markedScorer = (call: FakeCallRecord) => weaveOf(call)["score"] === "true" || Boolean(metaOf(call)["score"]);
const namedScorer = (call: FakeCallRecord) => /\.score|scorer/.test(call.op_name.toLowerCase());

function selectPredictCall(children: FakeCallRecord[], modelRef: unknown): FakeCallRecord | undefined {
  return children.find(
    (c) => !markedScorer(c) && (c.inputs["self"] === modelRef || /predict|invoke/.test(c.op_name.toLowerCase())),
  );
}

function extractTotalTokens(summary: unknown): number | null {
  const usage = isRecord(summary) ? summary["usage"] : undefined;
  if (!isRecord(usage)) return null;
  const counts = Object.values(usage).flatMap((u) =>
    isRecord(u) && typeof u["total_tokens"] === "number" ? [Math.trunc(u["total_tokens"])] : [],
  );
  return counts.length === 0 ? null : counts.reduce((a, b) => a + b, 0);
}

function buildTrial(pas: FakeCallRecord, children: FakeCallRecord[]): Trial {
  const output = isRecord(pas["output"]) ? pas["output"] : {};
  const scores: Record<string, unknown> = { ...(isRecord(output["scores"]) ? output["scores"] : {}) };
  // `_augment_scores_with_child_scorer_outputs`: keyed by the op's name, when not there yet.
  for (const child of children)
    if (markedScorer(child) || namedScorer(child)) {
      const key = child.op_name.split("/").at(-1)!.split(":")[0]!;
      if (key && !(key in scores)) scores[key] = child["output"] ?? null;
    }
  const predict = selectPredictCall(children, pas.inputs["model"]);
  let latency: number | null = null;
  if (predict !== undefined && typeof predict["ended_at"] === "string")
    latency = (Date.parse(predict["ended_at"]) - Date.parse(predict.started_at)) / 1000;
  else if (isRecord(output["model_latency"]) && typeof output["model_latency"]["mean"] === "number")
    latency = output["model_latency"]["mean"];
  // `best_effort_scorer_call_ids`: the first scorer child whose op name and the key contain one another.
  const scorers = children.filter((c) => markedScorer(c) || namedScorer(c));
  const scorerCallIds: Record<string, string> = {};
  for (const key of Object.keys(scores)) {
    const k = key.toLowerCase();
    const hit = scorers.find((c) => c.op_name.toLowerCase().includes(k) || k.includes(c.op_name.toLowerCase()));
    if (hit !== undefined) scorerCallIds[key] = hit.id;
  }
  return {
    predict_and_score_call_id: pas.id,
    predict_call_id: predict?.id ?? null,
    model_output: output["output"] ?? null,
    scores,
    model_latency_seconds: latency,
    total_tokens: extractTotalTokens(predict !== undefined ? predict["summary"] : pas["summary"]),
    scorer_call_ids: scorerCallIds,
  };
}

function applyRowSelection(rows: Row[], roots: string[], intersect: boolean, offset: number, limit: number | null) {
  const kept =
    intersect && roots.length > 1
      ? rows.filter((r) => roots.every((id) => r.evaluations.some((e) => e.evaluation_call_id === id)))
      : [...rows];
  kept.sort((a, b) => (a.row_digest === b.row_digest ? 0 : a.row_digest < b.row_digest ? -1 : 1));
  const start = Math.max(offset, 0);
  return { rows: kept.slice(start, limit === null ? undefined : start + limit), total: kept.length };
}

type Stats = Record<string, unknown> & {
  trial_count: number;
  numeric_count: number;
  numeric_mean: number | null;
  pass_true_count: number;
  pass_known_count: number;
};

/** `_process_scorer_output`: one statistic per leaf (dotted `path` under an object score). */
function processScorerOutput(value: unknown, key: string, path: string[], stats: Map<string, Stats>): void {
  const type =
    typeof value === "boolean"
      ? "binary"
      : typeof value === "number"
        ? "continuous"
        : typeof value === "string"
          ? "text"
          : null;
  if (type === null) {
    if (isRecord(value)) for (const [k, v] of Object.entries(value)) processScorerOutput(v, key, [...path, k], stats);
    return;
  }
  const dotted = path.length === 0 ? null : path.join(".");
  const id = JSON.stringify([key, dotted]);
  const s =
    stats.get(id) ??
    stats
      .set(id, {
        scorer_key: key,
        path: dotted,
        value_type: type,
        trial_count: 0,
        numeric_count: 0,
        numeric_mean: null,
        pass_true_count: 0,
        pass_known_count: 0,
        pass_rate: null,
        pass_signal_coverage: null,
      })
      .get(id)!;
  s.trial_count++;
  if (type === "binary") {
    s.pass_known_count++;
    if (value === true) s.pass_true_count++;
  } else if (type === "continuous") {
    const sum = (s.numeric_mean ?? 0) * s.numeric_count + (value as number);
    s.numeric_count++;
    s.numeric_mean = sum / s.numeric_count;
  }
}

function computeSummaryFromRows(rows: Row[], roots: Map<string, FakeCallRecord>, isoformat: (iso: string) => string) {
  const summaries = new Map<string, Record<string, unknown> & { trial_count: number }>();
  const statsOf = new Map<string, Map<string, Stats>>();
  for (const row of rows)
    for (const entry of row.evaluations) {
      const id = entry.evaluation_call_id;
      if (!summaries.has(id)) {
        const root = roots.get(id);
        const inputs = root?.inputs ?? {};
        summaries.set(id, {
          evaluation_call_id: id,
          trial_count: 0,
          scorer_stats: [],
          evaluation_ref: inputs["self"] || inputs["this"] || null,
          model_ref: inputs["model"] ?? null,
          display_name: root?.["display_name"] ?? null,
          trace_id: root?.trace_id ?? null,
          started_at: root ? isoformat(root.started_at) : null,
        });
        statsOf.set(id, new Map());
      }
      for (const trial of entry.trials) {
        summaries.get(id)!.trial_count++;
        for (const [key, value] of Object.entries(trial.scores)) processScorerOutput(value, key, [], statsOf.get(id)!);
      }
    }
  for (const [id, summary] of summaries) {
    const list = [...statsOf.get(id)!.values()];
    for (const s of list) {
      if (s.pass_known_count > 0) s["pass_rate"] = s.pass_true_count / s.pass_known_count;
      if (s.trial_count > 0) s["pass_signal_coverage"] = s.pass_known_count / s.trial_count;
    }
    summary["scorer_stats"] = list;
  }
  return { row_count: rows.length, evaluations: [...summaries.values()] };
}

/**
 * `eval_results_query` over a project's calls. `isoformat` writes a root's `started_at` as the
 * server does (Python's `datetime.isoformat()`).
 */
export function evalResultsQuery(
  req: EvalResultsRequest,
  calls: readonly FakeCallRecord[],
  isoformat: (iso: string) => string,
): Record<string, unknown> {
  const rootIds = resolveEvalRootIds(req);
  const rootSet = new Set(rootIds);
  const roots = new Map(calls.filter((c) => rootSet.has(c.id)).map((c) => [c.id, c]));
  const trials = calls.filter(
    (c) =>
      typeof c["parent_id"] === "string" &&
      rootSet.has(c["parent_id"]) &&
      PREDICT_AND_SCORE.some((n) => opNameMatches(c.op_name, n)),
  );
  const childrenOf = new Map<string, FakeCallRecord[]>();
  if (req.include_predict_and_score_children !== false) {
    const trialIds = new Set(trials.map((t) => t.id));
    for (const c of calls) {
      const parent = c["parent_id"];
      if (typeof parent === "string" && trialIds.has(parent))
        childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), c]);
    }
  }
  const includeRows = req.include_rows !== false;
  const raw = includeRows && req.include_raw_data_rows === true;
  const byDigest = new Map<string, Row>();
  for (const pas of trials) {
    const example = pas.inputs["example"] ?? null;
    const digest = extractRowDigestFromExample(example);
    const row =
      byDigest.get(digest) ??
      byDigest.set(digest, { row_digest: digest, raw_data_row: raw ? example : null, evaluations: [] }).get(digest)!;
    if (raw && row.raw_data_row === null && example !== null) row.raw_data_row = example;
    const evalId = pas["parent_id"] as string;
    let entry = row.evaluations.find((e) => e.evaluation_call_id === evalId);
    if (entry === undefined) row.evaluations.push((entry = { evaluation_call_id: evalId, trials: [] }));
    entry.trials.push(buildTrial(pas, childrenOf.get(pas.id) ?? []));
  }
  const all = [...byDigest.values()];
  const intersect = req.require_intersection === true;
  const page = includeRows
    ? applyRowSelection(all, rootIds, intersect, req.offset ?? 0, req.limit ?? null)
    : { rows: [], total: 0 };
  let summary: unknown = null;
  if (req.include_summary === true) {
    const summaryRows = applyRowSelection(all, rootIds, req.summary_require_intersection ?? intersect, 0, null).rows;
    summary = computeSummaryFromRows(summaryRows, roots, isoformat);
  }
  return { rows: page.rows, total_rows: page.total, summary, warnings: [] };
}
