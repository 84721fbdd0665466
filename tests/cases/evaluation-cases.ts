/**
 * How Weave records an evaluation and reads it back, as cases shared by the fake's tests
 * (`tests/testing/evaluation-cases.test.ts`, raw HTTP) and the SDK's
 * (`tests/integration/evaluations.test.ts`, `client.evaluations` against the fake). Each case
 * names the Weave source it follows (`wandb/weave`), so it can be checked again when Weave changes.
 *
 * - {@link EVAL_RECORDS}: the calls of two evaluations of one dataset, as Weave's imperative
 *   loggers write them (`Evaluation.evaluate` > `Evaluation.predict_and_score` > `Model.predict`
 *   and `<scorer>.score`), with a failed prediction and a score added after its row was written.
 * - {@link EVAL_RESULTS_CASES}: what `POST /v2/{entity}/{project}/eval_results/query` answers
 *   for them. The row digests were computed with Python (`hashlib.sha256` of
 *   `json.dumps(row, sort_keys=True)`, Weave's URL-safe base64), not with the code under test.
 * - {@link WORKED_EXAMPLE}: the tree a 3-row, 2-scorer run writes.
 */
import type { FakeCallRecord } from "../../src/testing/index.js";

const HELPERS =
  "weave/trace_server/eval_results_helpers.py (eval_results_query, _build_trial, compute_summary_from_rows)";
const LOGGER = "sdks/node/src/evaluationLogger.ts (EvaluationLogger, ScoreLogger); weave/evaluation/eval_imperative.py";

/** The project of the records. */
export const EVAL_PROJECT = "acme/evals";
/** The two evaluations: the base model's and the tuned one's, on the same Evaluation. */
export const EVAL_A = "0195b000-0000-7000-8000-0000000000a0";
export const EVAL_B = "0195b000-0000-7000-8000-0000000000b0";
const EVALUATION = `weave:///${EVAL_PROJECT}/object/qa:EVd1`;
const MODEL_A = `weave:///${EVAL_PROJECT}/object/base:MOa1`;
const MODEL_B = `weave:///${EVAL_PROJECT}/object/tuned:MOb1`;
const op = (name: string) => `weave:///${EVAL_PROJECT}/op/${name}:OP${name.length}`;

/** The dataset rows, and their digests as Weave computes them. */
export const ROWS = {
  r1: { question: "2+2?", answer: "4" },
  r2: { question: "3*3?", answer: "9" },
  r3: { question: "Capital of France?", answer: "Paris" },
  r4: { question: "1+1?", answer: "2" },
} as const;
export const DIGESTS = {
  r1: "uuURdeE2KrPYMCoguJzuY3YaVup2myeRPo8OrzMGxxU",
  r2: "2h11pWfsncIUxL8tT3cNfHJOMaczrzYPdNuCuN5D5Jc",
  r3: "PIXbfOyYS5RaLRwoa93ubdpjM0DNmQOVAHl5mdzx9jw",
  r4: "9ADvD1Mow2wf6CS8WMMXXCeVflWa03Nhbhxjsr5hEQ0",
} as const;
type RowName = keyof typeof ROWS;

const MARKER = { _weave_eval_meta: { imperative: true } };
const SCORE_MARKER = { _weave_eval_meta: { imperative: true, score: true } };

function record(
  id: string,
  parent: string | null,
  opName: string,
  at: [number, number],
  fields: Partial<FakeCallRecord>,
): FakeCallRecord {
  const time = (s: number) => new Date(Date.UTC(2026, 2, 1, 10, 0, 0) + s * 1000).toISOString();
  return {
    id,
    project_id: EVAL_PROJECT,
    op_name: opName,
    display_name: null,
    trace_id: `trace-${(parent ?? id).slice(-2)}`,
    parent_id: parent,
    thread_id: null,
    turn_id: null,
    started_at: time(at[0]),
    ended_at: time(at[1]),
    attributes: MARKER,
    inputs: {},
    output: null,
    exception: null,
    summary: {},
    wb_user_id: null,
    wb_run_id: null,
    wb_run_step: null,
    wb_run_step_end: null,
    deleted_at: null,
    ...fields,
  } as FakeCallRecord;
}

const USAGE = { "Qwen/Qwen3-8B": { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13, requests: 1 } };

/** One row of an evaluation: its predict_and_score call and the calls under it. */
function trial(
  root: string,
  model: string,
  n: number,
  row: RowName,
  result: { output: string; scores: { exact: boolean; overlap: number } } | { error: string },
): FakeCallRecord[] {
  const pas = `${root.slice(0, -2)}${n}1`;
  const start = n * 2;
  const example = ROWS[row];
  if ("error" in result)
    return [
      record(pas, root, op("Evaluation.predict_and_score"), [start, start + 1], {
        inputs: { self: EVALUATION, model, example },
        exception: result.error,
      }),
      record(`${pas.slice(0, -1)}2`, pas, op("Model.predict"), [start, start + 0.5], {
        inputs: { self: model, inputs: example },
        exception: result.error,
      }),
    ];
  return [
    record(pas, root, op("Evaluation.predict_and_score"), [start, start + 1], {
      inputs: { self: EVALUATION, model, example },
      output: { output: result.output, scores: result.scores, model_latency: 0.5 },
    }),
    record(`${pas.slice(0, -1)}2`, pas, op("Model.predict"), [start, start + 0.5], {
      inputs: { self: model, inputs: example },
      output: result.output,
      summary: { usage: USAGE },
    }),
    record(`${pas.slice(0, -1)}3`, pas, op("exact.score"), [start + 0.6, start + 0.7], {
      attributes: SCORE_MARKER,
      inputs: { self: `weave:///${EVAL_PROJECT}/object/exact:SCe1`, output: result.output },
      output: result.scores.exact,
    }),
    record(`${pas.slice(0, -1)}4`, pas, op("overlap.score"), [start + 0.7, start + 0.8], {
      attributes: SCORE_MARKER,
      inputs: { self: `weave:///${EVAL_PROJECT}/object/overlap:SCo1`, output: result.output },
      output: result.scores.overlap,
    }),
  ];
}

/**
 * Evaluation A (model `base`) scored r1, r2, r3; B (model `tuned`) scored r1 (and a judge's
 * `politeness` was added under it later, a scorer child not in `output.scores`), r2 (its
 * prediction failed) and r4.
 */
export const EVAL_RECORDS: readonly FakeCallRecord[] = [
  record(EVAL_A, null, op("Evaluation.evaluate"), [0, 20], {
    display_name: "base on qa",
    inputs: { self: EVALUATION, model: MODEL_A },
  }),
  ...trial(EVAL_A, MODEL_A, 1, "r1", { output: "4", scores: { exact: true, overlap: 1 } }),
  ...trial(EVAL_A, MODEL_A, 2, "r2", { output: "6", scores: { exact: false, overlap: 0 } }),
  ...trial(EVAL_A, MODEL_A, 3, "r3", { output: "Paris is", scores: { exact: false, overlap: 0.5 } }),
  record(`${EVAL_A.slice(0, -2)}99`, EVAL_A, op("Evaluation.summarize"), [19, 19.5], {
    inputs: { self: EVALUATION },
    output: { exact: { true_count: 1, true_fraction: 1 / 3 }, overlap: { mean: 0.5 } },
  }),
  record(EVAL_B, null, op("Evaluation.evaluate"), [30, 50], {
    display_name: "tuned on qa",
    inputs: { self: EVALUATION, model: MODEL_B },
  }),
  ...trial(EVAL_B, MODEL_B, 16, "r1", { output: "4", scores: { exact: true, overlap: 1 } }),
  record(`${EVAL_B.slice(0, -2)}165`, `${EVAL_B.slice(0, -2)}161`, op("politeness"), [40, 41], {
    attributes: SCORE_MARKER,
    inputs: { self: `weave:///${EVAL_PROJECT}/object/politeness:SCp1`, output: "4" },
    output: 0.75,
  }),
  ...trial(EVAL_B, MODEL_B, 17, "r2", { error: "RuntimeError: boom" }),
  ...trial(EVAL_B, MODEL_B, 18, "r4", { output: "2", scores: { exact: true, overlap: 1 } }),
];

/** The scores of one trial, as `eval_results/query` returns them. */
type Scores = Record<string, unknown>;

/** One expected statistic: `[scorer_key, path, value_type, trial_count, pass_rate or numeric_mean]`. */
export type ExpectedStat = [string, string | null, "binary" | "continuous" | "text", number, number];

export interface EvalResultsCase {
  name: string;
  body: Record<string, unknown>;
  total_rows: number;
  /** The rows in order: digest, and each evaluation's trials' scores. */
  rows: Array<{ row: RowName; evaluations: Record<string, Scores[]>; raw?: boolean }>;
  /** Per evaluation: its trial count and its statistics (in any order). */
  summary?: Record<string, { trial_count: number; stats: ExpectedStat[] }>;
  /** The summary's row count. */
  row_count?: number;
  why: string;
  source: string;
}

// `<scorer>.score` children add each score again under their op name: Weave's TypeScript
// logger names score ops so, and the reader adds a scorer child's output under its op's name.
const A1 = { exact: true, overlap: 1, "exact.score": true, "overlap.score": 1 };
const A2 = { exact: false, overlap: 0, "exact.score": false, "overlap.score": 0 };
const A3 = { exact: false, overlap: 0.5, "exact.score": false, "overlap.score": 0.5 };
const B1 = { ...A1, politeness: 0.75 };
const B2 = {};
const B4 = A1;

/** The rows of both evaluations, by digest. */
const BOTH: EvalResultsCase["rows"] = [
  { row: "r2", evaluations: { [EVAL_A]: [A2], [EVAL_B]: [B2] } },
  { row: "r4", evaluations: { [EVAL_B]: [B4] } },
  { row: "r3", evaluations: { [EVAL_A]: [A3] } },
  { row: "r1", evaluations: { [EVAL_A]: [A1], [EVAL_B]: [B1] } },
];

const SUMMARY_A: { trial_count: number; stats: ExpectedStat[] } = {
  trial_count: 3,
  stats: [
    ["exact", null, "binary", 3, 1 / 3],
    ["exact.score", null, "binary", 3, 1 / 3],
    ["overlap", null, "continuous", 3, 0.5],
    ["overlap.score", null, "continuous", 3, 0.5],
  ],
};
const SUMMARY_B: { trial_count: number; stats: ExpectedStat[] } = {
  trial_count: 3,
  stats: [
    ["exact", null, "binary", 2, 1],
    ["exact.score", null, "binary", 2, 1],
    ["overlap", null, "continuous", 2, 1],
    ["overlap.score", null, "continuous", 2, 1],
    ["politeness", null, "continuous", 1, 0.75],
  ],
};

export const EVAL_RESULTS_CASES: readonly EvalResultsCase[] = [
  {
    name: "one evaluation",
    body: { evaluation_call_ids: [EVAL_A] },
    total_rows: 3,
    rows: [
      { row: "r2", evaluations: { [EVAL_A]: [A2] } },
      { row: "r3", evaluations: { [EVAL_A]: [A3] } },
      { row: "r1", evaluations: { [EVAL_A]: [A1] } },
    ],
    why: "a row per predict_and_score child of the root, keyed by the digest of its example, sorted by digest; no summary unless asked",
    source: HELPERS,
  },
  {
    name: "two evaluations line up by row content",
    body: { evaluation_call_ids: [EVAL_A, EVAL_B] },
    total_rows: 4,
    rows: BOTH,
    why: "the same example in both runs is one row; a failed prediction is a trial without scores; a scorer child not in output.scores is added",
    source: HELPERS,
  },
  {
    name: "evaluation_run_ids merge with evaluation_call_ids",
    body: { evaluation_call_ids: [EVAL_A], evaluation_run_ids: [EVAL_B, EVAL_A] },
    total_rows: 4,
    rows: BOTH,
    why: "resolve_eval_root_ids: both lists, de-duplicated in order",
    source: HELPERS,
  },
  {
    name: "require_intersection",
    body: { evaluation_call_ids: [EVAL_A, EVAL_B], require_intersection: true },
    total_rows: 2,
    rows: [
      { row: "r2", evaluations: { [EVAL_A]: [A2], [EVAL_B]: [B2] } },
      { row: "r1", evaluations: { [EVAL_A]: [A1], [EVAL_B]: [B1] } },
    ],
    why: "only rows every evaluation has",
    source: HELPERS,
  },
  {
    name: "limit and offset page the grouped rows",
    body: { evaluation_call_ids: [EVAL_A, EVAL_B], limit: 2, offset: 1 },
    total_rows: 4,
    rows: [
      { row: "r4", evaluations: { [EVAL_B]: [B4] } },
      { row: "r3", evaluations: { [EVAL_A]: [A3] } },
    ],
    why: "paging applies after grouping and sorting; total_rows counts every row",
    source: HELPERS,
  },
  {
    name: "what client.evaluations.results asks",
    body: { evaluation_call_ids: [EVAL_A, EVAL_B], include_summary: true, include_raw_data_rows: true },
    total_rows: 4,
    rows: BOTH.map((r) => ({ ...r, raw: true })),
    row_count: 4,
    summary: { [EVAL_A]: SUMMARY_A, [EVAL_B]: SUMMARY_B },
    why: "the summary counts each trial, and per score leaf: booleans' pass rate, numbers' mean",
    source: HELPERS,
  },
  {
    name: "rows intersected, summary over every row",
    body: {
      evaluation_call_ids: [EVAL_A, EVAL_B],
      require_intersection: true,
      include_summary: true,
      summary_require_intersection: false,
    },
    total_rows: 2,
    rows: [
      { row: "r2", evaluations: { [EVAL_A]: [A2], [EVAL_B]: [B2] } },
      { row: "r1", evaluations: { [EVAL_A]: [A1], [EVAL_B]: [B1] } },
    ],
    row_count: 4,
    summary: { [EVAL_A]: SUMMARY_A, [EVAL_B]: SUMMARY_B },
    why: "summary_require_intersection overrides require_intersection for the summary",
    source: HELPERS,
  },
  {
    name: "summary only",
    body: { evaluation_call_ids: [EVAL_B], include_rows: false, include_summary: true },
    total_rows: 0,
    rows: [],
    row_count: 3,
    summary: { [EVAL_B]: SUMMARY_B },
    why: "include_rows false: no rows, total_rows 0; the summary is still computed",
    source: HELPERS,
  },
];

/** What the summary of each evaluation says of its root (`fetch_eval_root_metadata`). */
export const ROOT_METADATA = {
  [EVAL_A]: { evaluation_ref: EVALUATION, model_ref: MODEL_A, display_name: "base on qa" },
  [EVAL_B]: { evaluation_ref: EVALUATION, model_ref: MODEL_B, display_name: "tuned on qa" },
} as const;

/** Latency and tokens of A's r1 trial: from its predict call (`select_predict_call`). */
export const TRIAL_A1 = { model_latency_seconds: 0.5, total_tokens: 13, model_output: "4" } as const;

/**
 * The tree a 3-row, 2-scorer run writes (the research notes' worked example, grown to three
 * rows and two scorers): the op each call is named by, its parent's op, the inputs it carries,
 * its marker, and what its output holds.
 */
export const WORKED_EXAMPLE = {
  dataset: [
    { prompt: "echo 4", answer: "4" },
    { prompt: "echo 9", answer: "9" },
    { prompt: "echo Paris", answer: "Lyon" },
  ],
  /** Each scorer: exact answer (boolean), and a number. */
  expected: {
    /** `{ true_count, true_fraction }` for the boolean scorer, `{ mean }` for the number. */
    summary: { exact: { true_count: 2, true_fraction: 2 / 3 }, chars: { mean: (1 + 1 + 5) / 3 } },
    calls: [
      { op: "Evaluation.evaluate", parent: null, count: 1, inputs: ["self", "model"], marker: MARKER },
      {
        op: "Evaluation.predict_and_score",
        parent: "Evaluation.evaluate",
        count: 3,
        inputs: ["self", "model", "example"],
        marker: MARKER,
      },
      {
        op: "Model.predict",
        parent: "Evaluation.predict_and_score",
        count: 3,
        inputs: ["self", "inputs"],
        marker: MARKER,
      },
      {
        op: "exact.score",
        parent: "Evaluation.predict_and_score",
        count: 3,
        inputs: ["self", "output"],
        marker: SCORE_MARKER,
      },
      {
        op: "chars.score",
        parent: "Evaluation.predict_and_score",
        count: 3,
        inputs: ["self", "output"],
        marker: SCORE_MARKER,
      },
      { op: "Evaluation.summarize", parent: "Evaluation.evaluate", count: 1, inputs: ["self"], marker: MARKER },
    ],
    /** The objects published: `_type`, `_class_name` and `_bases` as Weave's clients write them. */
    objects: [
      { class: "Dataset", bases: ["Object", "BaseModel"] },
      { class: "Model", bases: ["Object", "BaseModel"] },
      { class: "exact", bases: ["Scorer", "Object", "BaseModel"] },
      { class: "chars", bases: ["Scorer", "Object", "BaseModel"] },
      { class: "Evaluation", bases: ["Object", "BaseModel"] },
    ],
  },
  source: LOGGER,
} as const;
