import { APIConnectionTimeoutError, APIUserAbortError } from "../errors.js";
import { connectionError, type Transport, type TransportRequest, type TransportResponse } from "./types.js";

/** The part of `fetch` the SDK uses, so any standard implementation fits.
 *
 * @example
 * ```ts
 * new Inferloop({ fetch: (url, init) => globalThis.fetch(url, init) });
 * ```
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

const HEADERS_TIMEOUT = "headers-timeout";
const IDLE_TIMEOUT = "idle-timeout";

/**
 * Transport over a standard `fetch` (browsers, Deno, Bun, edge workers, or a `fetch` the caller
 * passed). `fetch` has no timeouts of its own, so one controller per request carries the
 * caller's abort, the headers timeout and the idle timeout; every timer and listener is
 * removed when the request ends, whichever way it ends.
 */
export class FetchTransport implements Transport {
  readonly #fetch: FetchLike;

  constructor(fetchImpl?: FetchLike) {
    const f = fetchImpl ?? (globalThis.fetch as FetchLike | undefined);
    if (!f) throw new Error("No fetch implementation: pass `fetch` to the Inferloop constructor.");
    // Unbound window.fetch throws "Illegal invocation" in browsers.
    this.#fetch = fetchImpl ?? ((url, init) => globalThis.fetch(url, init));
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const controller = new AbortController();
    const userSignal = request.signal;
    let reason: string | undefined;
    const abort = (why: string) => {
      reason ??= why;
      controller.abort();
    };
    const onUserAbort = () => abort("user");
    if (userSignal?.aborted) throw new APIUserAbortError();
    userSignal?.addEventListener("abort", onUserAbort, { once: true });

    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const headersTimer = setTimeout(() => abort(HEADERS_TIMEOUT), request.timeout);
    const cleanup = () => {
      clearTimeout(headersTimer);
      clearTimeout(idleTimer);
      userSignal?.removeEventListener("abort", onUserAbort);
    };
    const mapError = (err: unknown, phase: "request" | "body"): Error => {
      if (reason === HEADERS_TIMEOUT)
        return new APIConnectionTimeoutError(`No response headers within ${request.timeout} ms.`);
      if (reason === IDLE_TIMEOUT)
        return new APIConnectionTimeoutError(`No response data for ${request.idleTimeout} ms (idleTimeout).`);
      if (reason === "user" || userSignal?.aborted) return new APIUserAbortError(undefined, { cause: err });
      // Node's fetch (undici) keeps the socket error as `cause`; browsers give a bare TypeError.
      const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
      return connectionError(request.origin, code, phase === "body", err);
    };

    let res: Response;
    try {
      res = await this.#fetch(request.origin + request.path, {
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal: controller.signal,
      });
    } catch (err) {
      cleanup();
      throw mapError(err, "request");
    }
    clearTimeout(headersTimer);

    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });

    // One timer for the whole body: each chunk only stamps the time, and the timer re-arms
    // itself for whatever is left of the window, instead of a new timer per chunk.
    let lastData = Date.now();
    const armIdle = (ms: number) => {
      idleTimer = setTimeout(() => {
        const idle = Date.now() - lastData;
        if (idle >= request.idleTimeout) abort(IDLE_TIMEOUT);
        else armIdle(request.idleTimeout - idle);
      }, ms);
    };
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      cleanup();
    };
    const cancel = () => {
      if (!done) {
        finish();
        controller.abort();
      }
    };

    async function* iterate(): AsyncGenerator<Uint8Array> {
      if (!res.body) {
        finish();
        return;
      }
      const reader = res.body.getReader();
      armIdle(request.idleTimeout);
      try {
        for (;;) {
          const { done: end, value } = await reader.read();
          if (end) {
            finish();
            break;
          }
          lastData = Date.now();
          yield value;
        }
      } catch (err) {
        throw mapError(err, "body");
      } finally {
        if (!done) {
          // Early exit (break) or failure: release the stream before the controller goes.
          reader.cancel().catch(() => {});
          cancel();
        }
        finish();
      }
    }

    return {
      status: res.status,
      headers,
      body: { [Symbol.asyncIterator]: iterate },
      async text() {
        const decoder = new TextDecoder();
        let out = "";
        for await (const chunk of iterate()) out += decoder.decode(chunk, { stream: true });
        return out + decoder.decode();
      },
      cancel,
    };
  }
}
