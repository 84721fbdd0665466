/**
 * The msw adapter: the fake service's behaviour as msw request handlers, for unit tests that
 * intercept `fetch` instead of opening a port. This is the only file that imports `msw`
 * (a peer the user installs), so `inferloop/testing` users of the node server never load it.
 */

import type { HttpHandler } from "msw";
import { http } from "msw";
import type { FakeServiceOptions } from "./options.js";
import { handle, parseJsonBody } from "./router.js";
import type { FakeState } from "./state.js";
import { createFakeState } from "./state.js";
import type { BodyPart } from "./types.js";
import { ConnectionReset } from "./types.js";

/**
 * Options of {@link createHandlers}.
 */
export interface CreateHandlersOptions {
  /**
   * Only requests under this origin (and path prefix) are answered. Default: any origin, so
   * the client's `baseURL` can be anything.
   */
  baseUrl?: string;
}

// Structural, not `instanceof`: the state may come from another bundle copy (ESM vs CJS entry).
function isFakeState(value: unknown): value is FakeState {
  return (
    typeof value === "object" &&
    value !== null &&
    "credentials" in value &&
    "faults" in value &&
    typeof (value as FakeState).reset === "function"
  );
}

function toStream(body: AsyncIterable<BodyPart>): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
      } catch (error) {
        controller.error(error instanceof ConnectionReset ? new TypeError("fake service: connection reset") : error);
      }
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
}

/**
 * msw (v3) request handlers with the same behaviour as {@link startFakeService}: pass a
 * state (from `createFakeState`) to inspect or prepare it from the test, or options to make
 * a fresh one. A reset fault before headers becomes `Response.error()` (a network error);
 * a reset mid-body errors the body stream.
 *
 * @example
 * ```ts
 * import { setupServer } from "msw/node";
 * const state = createFakeState();
 * const server = setupServer(...createHandlers(state, { baseUrl: "http://fake.test" }));
 * server.listen();
 * ```
 */
export function createHandlers(
  stateOrOptions?: FakeState | FakeServiceOptions,
  options: CreateHandlersOptions = {},
): HttpHandler[] {
  const state = isFakeState(stateOrOptions) ? stateOrOptions : createFakeState(stateOrOptions);
  const base = options.baseUrl === undefined ? undefined : new URL(options.baseUrl);
  const prefix = base === undefined ? "" : base.pathname.replace(/\/$/, "");

  const matches = (request: Request): boolean => {
    const url = new URL(request.url);
    if (base === undefined) return true;
    return url.origin === base.origin && (prefix === "" || url.pathname.startsWith(`${prefix}/`));
  };

  const handler = http.all(
    ({ request }) => matches(request),
    async ({ request }) => {
      const url = new URL(request.url);
      const bytes =
        request.method === "GET" || request.method === "HEAD"
          ? new Uint8Array()
          : new Uint8Array(await request.arrayBuffer());
      const body = new TextDecoder("utf-8").decode(bytes);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      const plan = await handle(
        {
          method: request.method,
          path: url.pathname.slice(prefix.length) || "/",
          query: url.search,
          headers,
          body,
          bytes,
          json: parseJsonBody(body),
          signal: request.signal,
        },
        state,
      );
      if (plan.kind === "reset") return Response.error();
      const nullBody = plan.status === 204 || plan.status === 304;
      // Chunked framing lets a mid-body reset reach the client as an error: msw's socket-level
      // interception would otherwise read a close-delimited body and see a clean end.
      const responseHeaders: Record<string, string> = nullBody
        ? plan.headers
        : { "transfer-encoding": "chunked", ...plan.headers };
      let stream = nullBody ? null : toStream(plan.body);
      // The web platform compresses gzip and deflate only; other encodings are sent as is.
      if (stream && (plan.encoding === "gzip" || plan.encoding === "deflate")) {
        stream = stream.pipeThrough(
          new CompressionStream(plan.encoding) as ReadableWritablePair<Uint8Array, Uint8Array>,
        );
        responseHeaders["content-encoding"] = plan.encoding;
      }
      return new Response(stream, { status: plan.status, headers: responseHeaders });
    },
  );
  return [handler];
}
