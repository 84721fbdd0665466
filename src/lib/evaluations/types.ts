import type { ChatCompletionCreateParamsNonStreaming } from "../../wire/chat/request-schema.js";

/** A dataset row: any JSON object. A chat model reads `messages` (a chat) or `prompt` (one user message). */
export type EvaluationRow = Record<string, unknown>;

/**
 * What a scorer returns: a number (averaged: `{ mean }`), a boolean (`{ true_fraction,
 * true_count }`), or an object of those (summarized member by member).
 */
export type ScoreValue = number | boolean | { [key: string]: ScoreValue | string | null };

/** What a scorer is called with: the row, the model's output, and a signal that aborts with the run. */
export interface ScorerInput<Row extends EvaluationRow = EvaluationRow, Output = unknown> {
  row: Row;
  output: Output;
  signal: AbortSignal;
}

/** A scorer: a function of the row and the output. It may be async (a judge). */
export type Scorer<Row extends EvaluationRow = EvaluationRow, Output = unknown> = (
  input: ScorerInput<Row, Output>,
) => ScoreValue | PromiseLike<ScoreValue>;

/** A model as a function: called once per row; resolves to the output the scorers read. */
export type EvaluationModelFunction<Row extends EvaluationRow = EvaluationRow, Output = unknown> = (
  row: Row,
  context: { signal: AbortSignal },
) => Output | PromiseLike<Output>;

/**
 * The model evaluated: chat parameters (every row is a chat call with them, the row's
 * `messages` or `prompt` as the messages; the output is the reply's text), a chat model name
 * (a checkpoint such as `wandb-artifact:///acme/agents/agent:step3`), or a function of the row.
 */
export type EvaluationModel<Row extends EvaluationRow = EvaluationRow, Output = unknown> =
  | string
  | Omit<ChatCompletionCreateParamsNonStreaming, "messages" | "stream">
  | EvaluationModelFunction<Row, Output>;

/** Progress of a run, after each row is written. */
export interface EvaluationProgress {
  /** Rows written so far. */
  done: number;
  /** Of those, rows whose prediction or a scorer threw. */
  failed: number;
  /** Rows in the dataset, when known (undefined for a dataset read from Weave). */
  total: number | undefined;
}

/** What `client.evaluations.run` takes. */
export interface EvaluationRunParams<Row extends EvaluationRow = EvaluationRow, Output = unknown> {
  /** The Weave project, `"<entity>/<project>"`. */
  project_id: string;
  /** The evaluation's name: runs of one name, dataset and scorers share one Evaluation object. */
  name: string;
  /** The rows, or a dataset already in Weave (`{ ref: "weave:///<entity>/<project>/object/<name>:<digest>" }`). */
  dataset: readonly Row[] | { ref: string };
  model: EvaluationModel<Row, Output>;
  /** The scorers, by name (the name keys the summary and Weave's metrics). */
  scorers: Record<string, Scorer<Row, Output>>;
  /** Predictions in flight at once (default 8). */
  concurrency?: number;
  /** Aborts the run: the evaluation is ended as failed, and the run rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
  /** Called after each row is written. */
  onProgress?: (progress: EvaluationProgress) => void;
}

/** A numeric score's summary: its mean over the rows that have it. */
export interface MeanSummary {
  mean: number;
}

/** A boolean score's summary. */
export interface TrueFractionSummary {
  true_fraction: number;
  true_count: number;
}

/** One scorer's summary, as Weave's loggers write it; an object score has one per member. */
export type ScorerSummary = MeanSummary | TrueFractionSummary | { [key: string]: ScorerSummary };

/** The summary of a run, by scorer name. */
export type EvaluationSummary = Record<string, ScorerSummary>;

/** What `client.evaluations.run` resolves to. */
export interface EvaluationRun {
  /** The evaluation's id: its `Evaluation.evaluate` call's id. */
  id: string;
  /** The Evaluation object (`weave:///.../object/<name>:<digest>`): the same for runs of one definition. */
  evaluationRef: string;
  /** The Model object evaluated. */
  modelRef: string;
  summary: EvaluationSummary;
  /** Rows written. */
  rows: number;
  /** Rows whose prediction or a scorer threw (each recorded on its row). */
  failed: number;
}

/** `model.trainLoop`'s `evaluation`: Weave evaluations of the checkpoints it trains. */
export interface LoopEvaluationOptions<Row extends EvaluationRow = EvaluationRow> {
  dataset: readonly Row[] | { ref: string };
  scorers: Record<string, Scorer<Row, string | null>>;
  /** Evaluate every this many trained steps (default 1). */
  every?: number;
  /** Evaluate the checkpoint the loop starts from, the baseline (default true). */
  atStart?: boolean;
  concurrency?: number;
  /** Default `<model name>-eval`. */
  name?: string;
  /** Default the model's own project. */
  project_id?: string;
  /** Chat parameters of every prediction besides the model (`temperature`, `max_completion_tokens`...). */
  params?: Omit<ChatCompletionCreateParamsNonStreaming, "messages" | "stream" | "model">;
}

/** One scorer of a step against the baseline: higher is better. */
export interface ScorerDelta {
  baseline: number | undefined;
  candidate: number | undefined;
  /** `candidate - baseline`. */
  difference: number | undefined;
}

/** The evaluation of a trained step, against the baseline. */
export interface StepEvaluation {
  /** The evaluation's id. */
  id: string;
  step: number;
  /** The checkpoint evaluated. */
  modelName: string;
  summary: EvaluationSummary;
  /** The evaluation compared against: the starting checkpoint's (or the first one evaluated). */
  baseline: { id: string; step: number; summary: EvaluationSummary };
  /** Each scorer (each member of an object score, dotted) compared with the baseline. */
  scorers: Record<string, ScorerDelta>;
}
