import type { Transport } from "./types.js";
import { FetchTransport } from "./fetch.js";

/** Browser and edge build: the standard `fetch` is the only transport. A `dispatcher` is a
 * Node-only concept and is ignored here. */
export function createDefaultTransport(_options: { dispatcher?: unknown }): Transport {
  return new FetchTransport();
}
