/**
 * What Weave's trace server answers to the routes an evaluation writes and reads: objects,
 * tables, files (`wandb/weave` `weave/trace_server/trace_server_interface.py`) and
 * `POST /v2/{entity}/{project}/eval_results/query` (its `EvalResults*` models).
 *
 * @module
 */

/** `POST /obj/create`: the new version's digest (content-addressed: the same value, the same digest). */
export interface WeaveObjectCreated {
  digest: string;
  object_id?: string | null;
  [key: string]: unknown;
}

/** `POST /table/create`: the table's digest and each row's, in row order. */
export interface WeaveTableCreated {
  digest: string;
  row_digests: string[];
  [key: string]: unknown;
}

/** `POST /file/create`: the stored file's digest. */
export interface WeaveFileCreated {
  digest: string;
  [key: string]: unknown;
}

/** `POST /obj/read`: one version of an object. */
export interface WeaveObjectRead {
  obj: {
    project_id: string;
    object_id: string;
    digest: string;
    val: unknown;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** `POST /table/query`: a page of a table's rows with their digests. */
export interface WeaveTableRows {
  rows: Array<{ digest: string; val: unknown; original_index?: number | null }>;
  [key: string]: unknown;
}

/** A call's start, as `/call/start` and `/call/upsert_batch` take it (`StartedCallSchemaForInsert`). */
export interface StartedCallInsert {
  project_id: string;
  id: string;
  trace_id: string;
  parent_id?: string | null;
  op_name: string;
  display_name?: string | null;
  started_at: string;
  attributes: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

/** A call's end (`EndedCallSchemaForInsert`): an `exception` marks it failed. */
export interface EndedCallInsert {
  project_id: string;
  id: string;
  ended_at: string;
  output?: unknown;
  exception?: string | null;
  summary: Record<string, unknown>;
}

/** One item of `POST /call/upsert_batch`. */
export type CallBatchItem =
  | { mode: "start"; req: { start: StartedCallInsert } }
  | { mode: "end"; req: { end: EndedCallInsert } };

/** One scored prediction of a row (`EvalResultsTrial`). */
export interface EvalResultsTrial {
  predict_and_score_call_id: string;
  predict_call_id?: string | null;
  model_output?: unknown;
  /** Each scorer's value, by scorer name. */
  scores?: Record<string, unknown>;
  model_latency_seconds?: number | null;
  total_tokens?: number | null;
  total_cost?: number | null;
  scorer_call_ids?: Record<string, string>;
  [key: string]: unknown;
}

/** One evaluation's trials of a row (`EvalResultsRowEvaluation`). */
export interface EvalResultsRowEvaluation {
  evaluation_call_id: string;
  trials?: EvalResultsTrial[];
  [key: string]: unknown;
}

/** One dataset row across the evaluations asked for (`EvalResultsRow`). */
export interface EvalResultsRow {
  /** Rows of two evaluations with the same content have the same digest: that is how they line up. */
  row_digest: string;
  /** The row itself. */
  raw_data_row?: unknown;
  evaluations?: EvalResultsRowEvaluation[];
  [key: string]: unknown;
}

/** Statistics of one score (or one leaf of an object score, `path`) of one evaluation. */
export interface EvalResultsScorerStats {
  scorer_key: string;
  /** The dotted path of a leaf of an object score; null for a plain value. */
  path?: string | null;
  /** `binary` (booleans: `pass_rate`), `continuous` (numbers: `numeric_mean`) or `text`. */
  value_type?: "binary" | "continuous" | "text" | null;
  trial_count?: number;
  numeric_count?: number;
  numeric_mean?: number | null;
  pass_true_count?: number;
  pass_known_count?: number;
  pass_rate?: number | null;
  pass_signal_coverage?: number | null;
  [key: string]: unknown;
}

/** One evaluation's summary (`EvalResultsEvaluationSummary`). */
export interface EvalResultsEvaluationSummary {
  evaluation_call_id: string;
  trial_count?: number;
  scorer_stats?: EvalResultsScorerStats[];
  evaluation_ref?: string | null;
  model_ref?: string | null;
  display_name?: string | null;
  trace_id?: string | null;
  started_at?: string | null;
  [key: string]: unknown;
}

/** The summaries of the evaluations asked for (`EvalResultsSummaryRes`). */
export interface EvalResultsSummary {
  row_count?: number;
  evaluations?: EvalResultsEvaluationSummary[];
  [key: string]: unknown;
}

/** What `client.evaluations.results` resolves to: Weave's `EvalResultsQueryRes`. */
export interface EvaluationResults {
  /** One per dataset row, sorted by `row_digest`. */
  rows: EvalResultsRow[];
  total_rows: number;
  summary?: EvalResultsSummary | null;
  warnings?: string[];
  [key: string]: unknown;
}
