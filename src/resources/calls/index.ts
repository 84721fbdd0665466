// Transport-free parts of `client.calls`: request schema, query expressions and their builder,
// record types and paging arithmetic.
export * from "./query-expression.js";
export * from "./query-builder.js";
export * from "./request-schema.js";
export * from "./paging.js";
export type * from "./types.js";
