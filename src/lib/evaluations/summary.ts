/**
 * The summary of a run, kept as running aggregates (a count and a sum per score), so a run of
 * any number of rows holds no row's scores once it is written. Summarized as Weave's loggers do
 * (`wandb/weave` `sdks/node/src/evaluationLogger.ts`, `generateAutoSummary`; `weave/flow/scorer.py`,
 * `auto_summarize`, for object scores): numbers `{ mean }`, booleans `{ true_count,
 * true_fraction }`, objects member by member; a score whose type changes from row to row, and
 * text, are left out.
 *
 * @module
 */
import type { EvaluationSummary, ScorerSummary } from "./types.js";

interface Leaf {
  path: string[];
  kind: "number" | "boolean" | "mixed";
  count: number;
  sum: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Running aggregates of the scores of the rows written so far. */
export class ScoreAggregates {
  readonly #leaves = new Map<string, Leaf>();

  /** Adds one row's scores (by scorer name). */
  add(scores: Record<string, unknown>): void {
    for (const [name, value] of Object.entries(scores)) this.#add([name], value);
  }

  #add(path: string[], value: unknown): void {
    if (isObject(value)) {
      for (const [key, v] of Object.entries(value)) this.#add([...path, key], v);
      return;
    }
    const kind = typeof value === "boolean" ? "boolean" : typeof value === "number" ? "number" : undefined;
    if (kind === undefined || (kind === "number" && !Number.isFinite(value))) return;
    const id = path.join("\u0000");
    let leaf = this.#leaves.get(id);
    if (leaf === undefined) this.#leaves.set(id, (leaf = { path, kind, count: 0, sum: 0 }));
    if (leaf.kind !== kind) leaf.kind = "mixed";
    leaf.count += 1;
    leaf.sum += Number(value);
  }

  /** The summary of the rows added so far. */
  summary(): EvaluationSummary {
    const out: Record<string, unknown> = {};
    for (const leaf of this.#leaves.values()) {
      if (leaf.kind === "mixed") continue;
      const value: ScorerSummary =
        leaf.kind === "boolean"
          ? { true_count: leaf.sum, true_fraction: leaf.sum / leaf.count }
          : { mean: leaf.sum / leaf.count };
      let at = out;
      for (const key of leaf.path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
      at[leaf.path.at(-1)!] = value;
    }
    return out as EvaluationSummary;
  }
}

/**
 * Each score of a summary as one number (a mean, or a true fraction), by dotted path:
 * `{ exact: 0.67, "judge.relevance": 0.8 }`.
 *
 * @example
 * ```ts
 * summaryValues({ exact: { true_count: 2, true_fraction: 0.67 } }); // { exact: 0.67 }
 * ```
 */
export function summaryValues(summary: EvaluationSummary): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (prefix: string, value: unknown) => {
    if (!isObject(value)) return;
    if (typeof value["mean"] === "number") out[prefix] = value["mean"];
    else if (typeof value["true_fraction"] === "number") out[prefix] = value["true_fraction"];
    else for (const [k, v] of Object.entries(value)) walk(`${prefix}.${k}`, v);
  };
  for (const [name, value] of Object.entries(summary)) walk(name, value);
  return out;
}
