// Transport-free parts of `client.feedback` that users import: its types (request types pass
// through whole, so a new one needs no line here).
export type * from "./request-schema.js";
export type * from "./types.js";
