import { FetchTransport } from "./fetch.js";
import type { Transport } from "./types.js";

/** Browser and edge build: the standard `fetch` is the only transport. A `dispatcher` is a
 * Node-only concept and is ignored here. */
export function createDefaultTransport(_options: { dispatcher?: unknown }): Transport {
  return new FetchTransport();
}
