// Transport-free parts of `client.evaluations` that users import: its request and answer types.
export type { EvaluationCompareParams, EvaluationResultsParams } from "./request-schema.js";
export type * from "./types.js";
