import type { Dispatcher } from "undici";
import type { Transport } from "./types.js";
import { UndiciTransport } from "./undici.js";

/**
 * The transport used when the caller passes no `fetch`: undici in Node. The browser build
 * swaps this module for `default.browser.ts`, so undici never reaches a browser bundle.
 */
export function createDefaultTransport(options: { dispatcher?: Dispatcher | undefined }): Transport {
  return new UndiciTransport(options);
}
