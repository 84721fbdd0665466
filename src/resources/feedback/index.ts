// Transport-free parts of `client.feedback` that users import: the types.
export type * from "./request-types.js";
export type * from "./types.js";
