/**
 * Two evaluations side by side, from their results: each scorer's value in both (a mean, or
 * the fraction true) with the difference, and each row's winner. Higher is better for every
 * score; rows line up by their digest, so the two runs must have scored rows of the same content.
 *
 * @module
 */
import type { EvalResultsTrial, EvaluationResults } from "../../wire/evaluations/types.js";

/** Which evaluation did better on a row. */
export type RowWinner = "baseline" | "candidate" | "tie";

/** One score of two evaluations. */
export interface ScorerComparison {
  /** The scorer (a member of an object score is `scorer.member`). */
  scorer: string;
  baseline: number | undefined;
  candidate: number | undefined;
  /** `candidate - baseline`. */
  difference: number | undefined;
}

/** One row of two evaluations. */
export interface RowComparison {
  row_digest: string;
  /** The row itself. */
  row: unknown;
  /** Each score of the row in both (a row's trials averaged; `true` counts 1). */
  scores: Record<string, { baseline: number | undefined; candidate: number | undefined }>;
  /** The evaluation with more scores higher on this row; undefined when one has no score for it. */
  winner: RowWinner | undefined;
}

/** What an evaluation of the comparison is. */
export interface ComparedEvaluation {
  id: string;
  model_ref: string | null;
  display_name: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// Each numeric leaf of a score by dotted path; true counts 1, false 0.
function leaves(prefix: string, value: unknown, out: Map<string, number>): void {
  if (typeof value === "boolean") out.set(prefix, value ? 1 : 0);
  else if (typeof value === "number" && Number.isFinite(value)) out.set(prefix, value);
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) leaves(`${prefix}.${k}`, v, out);
}

function rowScores(trials: readonly EvalResultsTrial[] | undefined): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const trial of trials ?? []) {
    const one = new Map<string, number>();
    for (const [key, value] of Object.entries(trial.scores ?? {})) leaves(key, value, one);
    for (const [key, v] of one) {
      const s = sums.get(key) ?? { sum: 0, n: 0 };
      sums.set(key, { sum: s.sum + v, n: s.n + 1 });
    }
  }
  return new Map([...sums].map(([k, s]) => [k, s.sum / s.n]));
}

const fixed = (n: number | undefined, signed = false) =>
  n === undefined ? "-" : `${signed && n > 0 ? "+" : ""}${n.toFixed(3)}`;

/**
 * The comparison of two evaluations (`client.evaluations.compare`). `format()` (and
 * `toString()`) prints it as a table.
 *
 * @example
 * ```ts
 * const comparison = await client.evaluations.compare({
 *   project_id: "acme/agents",
 *   baseline: "0198c2a1-5f3e-7a10-9b2c-4d5e6f708192",
 *   candidate: "0198c2b7-0a4d-7c21-8e3f-5a6b7c8d9e0f",
 * });
 * for (const s of comparison.scorers) console.log(s.scorer, s.difference);
 * console.log(comparison.wins.candidate, "rows better after training");
 * ```
 */
export class EvaluationComparison {
  readonly baseline: ComparedEvaluation;
  readonly candidate: ComparedEvaluation;
  /** Each scorer, in the baseline's order. */
  readonly scorers: ScorerComparison[];
  /** Each row either evaluation scored, by digest. */
  readonly rows: RowComparison[];
  /** How many rows each won (rows without a winner are not counted). */
  readonly wins: Record<RowWinner, number>;

  /** @internal Made by `compare`. */
  constructor(results: EvaluationResults, baselineId: string, candidateId: string) {
    const summaries = results.summary?.evaluations ?? [];
    const describe = (id: string): ComparedEvaluation => {
      const s = summaries.find((e) => e.evaluation_call_id === id);
      return { id, model_ref: s?.model_ref ?? null, display_name: s?.display_name ?? null };
    };
    this.baseline = describe(baselineId);
    this.candidate = describe(candidateId);
    const values = (id: string) => {
      const out = new Map<string, number>();
      for (const s of summaries.find((e) => e.evaluation_call_id === id)?.scorer_stats ?? []) {
        const value = s.value_type === "binary" ? s.pass_rate : s.value_type === "continuous" ? s.numeric_mean : null;
        if (typeof value === "number") out.set(s.path ? `${s.scorer_key}.${s.path}` : s.scorer_key, value);
      }
      return out;
    };
    const base = values(baselineId);
    const cand = values(candidateId);
    this.scorers = [...new Set([...base.keys(), ...cand.keys()])].map((scorer) => {
      const b = base.get(scorer);
      const c = cand.get(scorer);
      return { scorer, baseline: b, candidate: c, difference: b !== undefined && c !== undefined ? c - b : undefined };
    });
    this.wins = { baseline: 0, candidate: 0, tie: 0 };
    this.rows = results.rows.map((row) => {
      const of = (id: string) => rowScores(row.evaluations?.find((e) => e.evaluation_call_id === id)?.trials);
      const b = of(baselineId);
      const c = of(candidateId);
      const scores: RowComparison["scores"] = {};
      let better = 0;
      let worse = 0;
      let compared = 0;
      for (const key of new Set([...b.keys(), ...c.keys()])) {
        scores[key] = { baseline: b.get(key), candidate: c.get(key) };
        const [x, y] = [b.get(key), c.get(key)];
        if (x === undefined || y === undefined) continue;
        compared += 1;
        if (y > x) better += 1;
        else if (y < x) worse += 1;
      }
      const winner: RowWinner | undefined =
        compared === 0 ? undefined : better > worse ? "candidate" : worse > better ? "baseline" : "tie";
      if (winner !== undefined) this.wins[winner] += 1;
      return { row_digest: row.row_digest, row: row.raw_data_row ?? null, scores, winner };
    });
  }

  /**
   * The comparison as a table: one line per scorer (baseline, candidate, difference), then the
   * rows each won.
   *
   * @example
   * ```ts
   * const comparison = await client.evaluations.compare({
   *   project_id: "acme/agents",
   *   baseline: "0198c2a1-5f3e-7a10-9b2c-4d5e6f708192",
   *   candidate: "0198c2b7-0a4d-7c21-8e3f-5a6b7c8d9e0f",
   * });
   * console.log(comparison.format());
   * ```
   */
  format(): string {
    const name = (e: ComparedEvaluation) => e.display_name ?? e.id;
    const width = Math.max(6, ...this.scorers.map((s) => s.scorer.length));
    const lines = [
      `baseline:  ${name(this.baseline)}`,
      `candidate: ${name(this.candidate)}`,
      "",
      `${"scorer".padEnd(width)}  ${"baseline".padStart(9)}  ${"candidate".padStart(9)}  ${"difference".padStart(10)}`,
      ...this.scorers.map(
        (s) =>
          `${s.scorer.padEnd(width)}  ${fixed(s.baseline).padStart(9)}  ${fixed(s.candidate).padStart(9)}  ${fixed(s.difference, true).padStart(10)}`,
      ),
      "",
      `rows: candidate won ${this.wins.candidate}, baseline won ${this.wins.baseline}, tied ${this.wins.tie} (of ${this.rows.length})`,
    ];
    return lines.join("\n");
  }

  /**
   * The same table as {@link format}.
   *
   * @example
   * ```ts
   * const comparison = await client.evaluations.compare({
   *   project_id: "acme/agents",
   *   baseline: "0198c2a1-5f3e-7a10-9b2c-4d5e6f708192",
   *   candidate: "0198c2b7-0a4d-7c21-8e3f-5a6b7c8d9e0f",
   * });
   * console.log(`${comparison}`);
   * ```
   */
  toString(): string {
    return this.format();
  }
}
