// Transport-free parts of `client.calls` that users import: request schemas, query expressions
// and record types. Values by name, so wiring helpers (paging arithmetic, key lists) stay
// internal.

export type * from "./query-expression.js";
export { operandSchema, operationSchema, queryExpressionSchema } from "./query-expression.js";
export type * from "./request-schema.js";
export {
  callsFilterSchema,
  callsQueryOptionsSchema,
  callsQueryParamsSchema,
  callsSortBySchema,
} from "./request-schema.js";
export type * from "./types.js";
