/**
 * Evaluation results from the calls an evaluation wrote, grouped by dataset row as Weave's
 * `eval_results/query` groups them (`wandb/weave` `weave/trace_server/eval_results_helpers.py`):
 * the SDK's reading when the server has no such route, and the fake's answer to it.
 *
 * @module
 */
import type {
  EvalResultsEvaluationSummary,
  EvalResultsRow,
  EvalResultsRowEvaluation,
  EvalResultsScorerStats,
  EvalResultsTrial,
  EvaluationResults,
} from "../../wire/evaluations/types.js";

/** The members of a call record the grouping reads. */
export interface EvaluationCall {
  id: string;
  op_name: string;
  trace_id: string;
  parent_id?: string | null | undefined;
  display_name?: string | null | undefined;
  started_at: string;
  ended_at?: string | null | undefined;
  attributes: Record<string, unknown>;
  inputs: Record<string, unknown>;
  output?: unknown;
  summary?: unknown;
}

/** The request members that shape the answer (Weave's defaults when absent). */
export interface EvalResultsOptions {
  include_rows?: boolean | undefined;
  include_summary?: boolean | undefined;
  include_raw_data_rows?: boolean | undefined;
  include_predict_and_score_children?: boolean | undefined;
  require_intersection?: boolean | undefined;
  summary_require_intersection?: boolean | null | undefined;
  limit?: number | null | undefined;
  offset?: number | undefined;
}

const TRIAL_OPS = ["Evaluation.predict_and_score", "Evaluation.predictAndScore"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The name of an op ref (`weave:///e/p/op/<name>:<digest>`), or the op name itself. */
export function opNameOf(opName: string): string {
  const m = /^weave:\/\/\/[^/]+\/[^/]+\/op\/([^:]+):/.exec(opName);
  return m?.[1] ?? opName;
}

function isScorerCall(call: EvaluationCall): boolean {
  const weave = call.attributes["weave"];
  const meta = call.attributes["_weave_eval_meta"];
  return (isObject(weave) && weave["score"] === "true") || (isObject(meta) && Boolean(meta["score"]));
}

const looksLikeScorer = (call: EvaluationCall) => {
  const name = call.op_name.toLowerCase();
  return name.includes(".score") || name.includes("scorer");
};

// The key a scorer child adds its output under: its op name without the ref and the digest.
const scorerKeyOf = (opName: string) => opName.slice(opName.lastIndexOf("/") + 1).split(":")[0]!;

function predictCallOf(children: readonly EvaluationCall[], modelRef: unknown): EvaluationCall | undefined {
  for (const call of children) {
    if (isScorerCall(call)) continue;
    if (call.inputs["self"] === modelRef) return call;
    const name = call.op_name.toLowerCase();
    if (name.includes("predict") || name.includes("invoke")) return call;
  }
  return undefined;
}

function totalTokens(summary: unknown): number | null {
  const usage = isObject(summary) ? summary["usage"] : undefined;
  if (!isObject(usage)) return null;
  let total = 0;
  let found = false;
  for (const u of Object.values(usage)) {
    const tokens = isObject(u) ? u["total_tokens"] : undefined;
    if (typeof tokens === "number") {
      total += Math.trunc(tokens);
      found = true;
    }
  }
  return found ? total : null;
}

function scorerCallIds(scores: Record<string, unknown>, children: readonly EvaluationCall[]): Record<string, string> {
  const scorers = children.filter((c) => isScorerCall(c) || looksLikeScorer(c));
  const out: Record<string, string> = {};
  for (const key of Object.keys(scores)) {
    const k = key.toLowerCase();
    const match = scorers.find((c) => c.op_name.toLowerCase().includes(k) || k.includes(c.op_name.toLowerCase()));
    if (match !== undefined) out[key] = match.id;
  }
  return out;
}

function trialOf(pas: EvaluationCall, children: readonly EvaluationCall[]): EvalResultsTrial {
  const output = isObject(pas.output) ? pas.output : {};
  const scores: Record<string, unknown> = isObject(output["scores"]) ? { ...output["scores"] } : {};
  // A score logged after the row was written (a scorer child, not in `output.scores`) counts too.
  for (const child of children) {
    if (!isScorerCall(child) && !looksLikeScorer(child)) continue;
    const key = scorerKeyOf(child.op_name);
    if (key !== "" && !(key in scores)) scores[key] = child.output ?? null;
  }
  const predict = predictCallOf(children, pas.inputs["model"]);
  let latency: number | null = null;
  if (predict?.started_at && predict.ended_at)
    latency = (Date.parse(predict.ended_at) - Date.parse(predict.started_at)) / 1000;
  else if (isObject(output["model_latency"]) && typeof output["model_latency"]["mean"] === "number")
    latency = output["model_latency"]["mean"];
  return {
    predict_and_score_call_id: pas.id,
    predict_call_id: predict?.id ?? null,
    model_output: output["output"] ?? null,
    scores,
    model_latency_seconds: latency,
    total_tokens: totalTokens(predict ? predict.summary : pas.summary),
    scorer_call_ids: scorerCallIds(scores, children),
  };
}

function selectRows(
  rows: EvalResultsRow[],
  roots: readonly string[],
  intersection: boolean,
  offset: number,
  limit: number | null | undefined,
): { rows: EvalResultsRow[]; total: number } {
  let selected = rows;
  if (intersection && roots.length > 1)
    selected = rows.filter((r) => roots.every((id) => r.evaluations!.some((e) => e.evaluation_call_id === id)));
  selected.sort((a, b) => (a.row_digest < b.row_digest ? -1 : a.row_digest > b.row_digest ? 1 : 0));
  const start = Math.max(offset, 0);
  return { rows: selected.slice(start, limit == null ? undefined : start + limit), total: selected.length };
}

function emptyStats(scorer_key: string, path: string | null, value_type: "binary" | "continuous" | "text") {
  return {
    scorer_key,
    path,
    value_type,
    trial_count: 0,
    numeric_count: 0,
    numeric_mean: null as number | null,
    pass_true_count: 0,
    pass_known_count: 0,
    pass_rate: null as number | null,
    pass_signal_coverage: null as number | null,
  };
}

type Stats = ReturnType<typeof emptyStats>;

function addScore(value: unknown, key: string, path: string[], stats: Map<string, Stats>): void {
  const kind =
    typeof value === "boolean"
      ? "binary"
      : typeof value === "number"
        ? "continuous"
        : typeof value === "string"
          ? "text"
          : undefined;
  if (kind === undefined) {
    if (isObject(value)) for (const [k, v] of Object.entries(value)) addScore(v, key, [...path, k], stats);
    return;
  }
  const dotted = path.length > 0 ? path.join(".") : null;
  const id = `${key}\u0000${dotted ?? ""}`;
  let s = stats.get(id);
  if (s === undefined) stats.set(id, (s = emptyStats(key, dotted, kind)));
  s.trial_count += 1;
  if (typeof value === "boolean") {
    s.pass_known_count += 1;
    if (value) s.pass_true_count += 1;
  } else if (typeof value === "number") {
    const total = (s.numeric_mean ?? 0) * s.numeric_count;
    s.numeric_count += 1;
    s.numeric_mean = (total + value) / s.numeric_count;
  }
}

/** What a root call says of its evaluation, for the summary (`fetch_eval_root_metadata`). */
export type RootMetadata = Pick<
  EvalResultsEvaluationSummary,
  "evaluation_ref" | "model_ref" | "display_name" | "trace_id" | "started_at"
>;

/** The summary metadata of a root call. `startedAt` writes its time as the server does. */
export function rootMetadata(root: EvaluationCall, startedAt: (iso: string) => string = (s) => s): RootMetadata {
  const inputs = root.inputs;
  return {
    evaluation_ref: (inputs["self"] || inputs["this"] || null) as string | null,
    model_ref: (inputs["model"] ?? null) as string | null,
    display_name: root.display_name ?? null,
    trace_id: root.trace_id,
    started_at: startedAt(root.started_at),
  };
}

function summaryOf(rows: readonly EvalResultsRow[], roots: ReadonlyMap<string, RootMetadata>) {
  const evaluations = new Map<string, EvalResultsEvaluationSummary & { trial_count: number }>();
  const stats = new Map<string, Map<string, Stats>>();
  for (const row of rows)
    for (const entry of row.evaluations ?? []) {
      const id = entry.evaluation_call_id;
      let summary = evaluations.get(id);
      if (summary === undefined) {
        const meta = roots.get(id);
        summary = {
          evaluation_call_id: id,
          trial_count: 0,
          scorer_stats: [],
          evaluation_ref: meta?.evaluation_ref ?? null,
          model_ref: meta?.model_ref ?? null,
          display_name: meta?.display_name ?? null,
          trace_id: meta?.trace_id ?? null,
          started_at: meta?.started_at ?? null,
        };
        evaluations.set(id, summary);
        stats.set(id, new Map());
      }
      for (const trial of entry.trials ?? []) {
        summary.trial_count += 1;
        for (const [key, value] of Object.entries(trial.scores ?? {})) addScore(value, key, [], stats.get(id)!);
      }
    }
  for (const [id, summary] of evaluations) {
    const list: EvalResultsScorerStats[] = [...stats.get(id)!.values()];
    for (const s of list as Stats[]) {
      if (s.pass_known_count > 0) s.pass_rate = s.pass_true_count / s.pass_known_count;
      if (s.trial_count > 0) s.pass_signal_coverage = s.pass_known_count / s.trial_count;
    }
    summary.scorer_stats = list;
  }
  return { row_count: rows.length, evaluations: [...evaluations.values()] };
}

/**
 * Groups an evaluation's calls into Weave's `EvalResultsQueryRes`. `calls` are the calls under
 * the roots (at least their children and grandchildren); `rowDigest` gives a trial's row digest
 * (see `rowDigestSource`); `roots` the summary metadata of each root.
 */
export function groupEvalResults(
  rootIds: readonly string[],
  calls: Iterable<EvaluationCall>,
  rowDigest: (trial: EvaluationCall) => string,
  roots: ReadonlyMap<string, RootMetadata>,
  options: EvalResultsOptions = {},
): EvaluationResults {
  const rootSet = new Set(rootIds);
  const trials: EvaluationCall[] = [];
  const rest: EvaluationCall[] = [];
  for (const call of calls) {
    if (call.parent_id != null && rootSet.has(call.parent_id) && TRIAL_OPS.includes(opNameOf(call.op_name)))
      trials.push(call);
    else rest.push(call);
  }
  const children = new Map<string, EvaluationCall[]>();
  if (options.include_predict_and_score_children !== false) {
    const trialIds = new Set(trials.map((t) => t.id));
    for (const call of rest)
      if (call.parent_id != null && trialIds.has(call.parent_id)) {
        const list = children.get(call.parent_id) ?? [];
        list.push(call);
        children.set(call.parent_id, list);
      }
  }
  const raw = options.include_rows !== false && options.include_raw_data_rows === true;
  const byDigest = new Map<string, EvalResultsRow & { evaluations: EvalResultsRowEvaluation[] }>();
  for (const trial of trials) {
    const digest = rowDigest(trial);
    let row = byDigest.get(digest);
    const example = trial.inputs["example"] ?? null;
    if (row === undefined)
      byDigest.set(digest, (row = { row_digest: digest, raw_data_row: raw ? example : null, evaluations: [] }));
    else if (raw && row.raw_data_row == null) row.raw_data_row = example;
    let entry = row.evaluations.find((e) => e.evaluation_call_id === trial.parent_id);
    if (entry === undefined) row.evaluations.push((entry = { evaluation_call_id: trial.parent_id!, trials: [] }));
    entry.trials!.push(trialOf(trial, children.get(trial.id) ?? []));
  }
  const all = [...byDigest.values()];
  const page =
    options.include_rows === false
      ? { rows: [], total: 0 }
      : selectRows([...all], rootIds, options.require_intersection === true, options.offset ?? 0, options.limit);
  let summary: EvaluationResults["summary"] = null;
  if (options.include_summary === true) {
    const intersection = options.summary_require_intersection ?? options.require_intersection === true;
    summary = summaryOf(selectRows([...all], rootIds, intersection, 0, null).rows, roots);
  }
  return { rows: page.rows, total_rows: page.total, summary, warnings: [] };
}
