// Transport-free parts of `client.evaluations` that users import: what `results` takes and
// answers (the write routes' bodies are the SDK's own business).
export type { EvaluationCompareParams, EvaluationResultsParams } from "./request-schema.js";
export type {
  EvalResultsEvaluationSummary,
  EvalResultsRow,
  EvalResultsRowEvaluation,
  EvalResultsScorerStats,
  EvalResultsSummary,
  EvalResultsTrial,
  EvaluationResults,
} from "./types.js";
