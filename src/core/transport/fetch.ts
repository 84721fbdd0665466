import { APIConnectionTimeoutError, APIUserAbortError, InferloopError } from "../errors/errors.js";
import { signalAbortError } from "../pipeline/abort.js";
import {
  connectionError,
  isStreamedBody,
  joinPieces,
  readCapped,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "./types.js";

/** The part of `fetch` the SDK uses, so any standard implementation fits.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

const HEADERS_TIMEOUT = "headers-timeout";
const IDLE_TIMEOUT = "idle-timeout";

/** Settle `promise` in the background: its loser's outcome must not become an unhandled rejection. */
function ignore(promise: Promise<unknown>): void {
  promise.catch(() => {});
}

/**
 * Transport over a standard `fetch` (browsers, Deno, Bun, edge workers, or a `fetch` the caller
 * passed). `fetch` has no timeouts of its own, so one controller per request carries the
 * caller's abort, the headers timeout and the idle timeout; every timer and listener is
 * removed when the request ends, whichever way it ends.
 *
 * Every wait (for the headers, for each piece of the body) also races the controller, so a
 * `fetch` that ignores its `signal` still gives up on time. Redirects are not followed
 * (`redirect: "manual"`): the pipeline reports them, as with the Node transport, and never
 * sends the body or the credentials to another address.
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
    // Streamed request bodies need `duplex: "half"`, which not every fetch supports: a body in
    // pieces is joined, and a streamed one sent as a Blob (a browser may keep a large one on disk).
    const body = isStreamedBody(request.body)
      ? await (request.body.blob?.() ?? gatherBlob(request.body.stream()))
      : typeof request.body === "object"
        ? joinPieces(request.body)
        : (request.body ?? null);
    const controller = new AbortController();
    const userSignal = request.signal;
    let reason: string | undefined;
    const mapError = (err: unknown, phase: "request" | "body" = "request"): Error => {
      if (reason === HEADERS_TIMEOUT)
        return new APIConnectionTimeoutError(`No response headers within ${request.timeout} ms.`);
      if (reason === IDLE_TIMEOUT)
        return new APIConnectionTimeoutError(`No response data for ${request.idleTimeout} ms (idleTimeout).`);
      if (reason === "user" || userSignal?.aborted) return signalAbortError(userSignal, err);
      // Node's fetch (undici) keeps the socket error as `cause`; browsers give a bare TypeError.
      // A refused connection or a failed DNS lookup means nothing was sent (connectionError).
      const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
      return connectionError(request.origin, code, phase === "body", err);
    };
    // Rejects once the controller aborts, whatever the fetch does with its signal.
    let rejectAborted: (err: Error) => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      rejectAborted = reject;
    });
    ignore(aborted);
    const abort = (why: string) => {
      reason ??= why;
      controller.abort();
      rejectAborted(mapError(undefined));
    };
    const onUserAbort = () => abort("user");
    if (userSignal?.aborted) throw signalAbortError(userSignal);
    userSignal?.addEventListener("abort", onUserAbort, { once: true });

    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const headersTimer = setTimeout(() => abort(HEADERS_TIMEOUT), request.timeout);
    const cleanup = () => {
      clearTimeout(headersTimer);
      clearTimeout(idleTimer);
      userSignal?.removeEventListener("abort", onUserAbort);
    };

    let res: Response;
    const pending = this.#fetch(request.origin + request.path, {
      method: request.method,
      headers: request.headers,
      body,
      signal: controller.signal,
      redirect: "manual",
    });
    try {
      res = await Promise.race([pending, aborted]);
    } catch (err) {
      cleanup();
      // A fetch that ignored the abort may still answer later: drop that answer unread.
      pending.then(
        (late) => late.body?.cancel().catch(() => {}),
        () => {},
      );
      throw mapError(err, "request");
    }
    clearTimeout(headersTimer);

    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });

    // The idle clock runs only while a read waits for the server: a consumer that pauses
    // between reads is not the server going quiet. One timer for the whole body: it re-arms
    // itself for whatever is left of the window instead of a new timer per chunk, and lapses
    // while nobody reads (the next read arms it again), so an abandoned body holds no timer.
    let waitingSince: number | undefined;
    const armIdle = (ms: number) => {
      idleTimer = setTimeout(() => {
        idleTimer = undefined;
        if (waitingSince === undefined) return;
        const idle = Date.now() - waitingSince;
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
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    let cancelled = false;
    const cancel = () => {
      if (done) return;
      cancelled = true;
      finish();
      controller.abort();
      rejectAborted(new APIUserAbortError());
      // Cancelling the reader settles a pending read at once, even under a fetch that
      // ignores its signal (it is the stream, not the fetch, that answers the read).
      if (reader) ignore(reader.cancel());
      else if (res.body && !res.body.locked) ignore(res.body.cancel());
    };
    // Timeouts and the caller's abort end a pending read the same way.
    controller.signal.addEventListener("abort", () => reader && ignore(reader.cancel()), { once: true });

    async function* iterate(): AsyncGenerator<Uint8Array> {
      if (!res.body || done) {
        finish();
        return;
      }
      const r = (reader = res.body.getReader());
      try {
        for (;;) {
          waitingSince = Date.now();
          if (idleTimer === undefined) armIdle(request.idleTimeout);
          const { done: end, value } = await r.read();
          waitingSince = undefined;
          // A read ended by cancel() or an abort says `done`: that is a failure, not the end.
          if (reason !== undefined) throw mapError(undefined);
          if (cancelled) throw new APIUserAbortError();
          if (end) {
            finish();
            break;
          }
          yield value;
        }
      } catch (err) {
        throw reason === undefined && err instanceof InferloopError ? err : mapError(err, "body");
      } finally {
        waitingSince = undefined;
        if (!done) {
          // Early exit (break) or failure: release the stream before the controller goes.
          ignore(r.cancel());
          cancel();
        }
        finish();
      }
    }

    return {
      // A browser hides a manual redirect behind an opaque response of status 0.
      status: res.type === "opaqueredirect" ? 0 : res.status,
      headers,
      body: { [Symbol.asyncIterator]: iterate },
      text: (maxBytes) => readCapped({ [Symbol.asyncIterator]: iterate }, maxBytes),
      cancel,
    };
  }
}

async function gatherBlob(stream: AsyncIterable<Uint8Array>): Promise<Blob> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of stream) parts.push(chunk as Uint8Array<ArrayBuffer>);
  return new Blob(parts);
}
