// Transport-free parts of `client.models`: response types.
export type * from "./types.js";
