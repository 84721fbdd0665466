import type { Dispatcher } from "undici";
import { assertSupportedNode } from "../pipeline/node-version.js";
import type { Transport } from "./types.js";
import { UndiciTransport } from "./undici.js";

/**
 * The transport used when the caller passes no `fetch`: undici in Node. The browser build
 * swaps this module for `default.browser.ts`, so undici never reaches a browser bundle, and
 * neither does the Node version check: the client's constructor runs it here, before undici
 * could fail on an older Node with an error that names neither.
 */
export function createDefaultTransport(options: { dispatcher?: Dispatcher | undefined }): Transport {
  assertSupportedNode();
  return new UndiciTransport(options);
}
