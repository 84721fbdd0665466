import type { Dispatcher } from "undici";
import { APIConnectionTimeoutError, APIUserAbortError } from "../errors.js";
import { connectionError, type Transport, type TransportRequest, type TransportResponse } from "./types.js";

type UndiciModule = typeof import("undici");
// Loaded on first use, so `import "inferloop"` stays cheap for apps that never send.
let undiciModule: Promise<UndiciModule> | undefined;
const loadUndici = () => (undiciModule ??= import("undici"));

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === "string" ? code : undefined;
}

/** Translate whatever undici or the socket threw into the SDK's connection errors. */
function toSdkError(err: unknown, request: TransportRequest, phase: "request" | "body"): Error {
  if (request.signal?.aborted) return new APIUserAbortError(undefined, { cause: err });
  const code = errorCode(err);
  if (code === "UND_ERR_HEADERS_TIMEOUT")
    return new APIConnectionTimeoutError(`No response headers within ${request.timeout} ms.`);
  if (code === "UND_ERR_BODY_TIMEOUT")
    return new APIConnectionTimeoutError(`No response data for ${request.idleTimeout} ms (idleTimeout).`);
  return connectionError(request.origin, code, phase === "body", err);
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in raw) {
    const v = raw[k];
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/**
 * Node transport over undici's `dispatcher.request`: several times cheaper per call than
 * `fetch`, with keep-alive pooling. undici's own headers and body timeouts are set to exactly
 * the SDK's `timeout` and `idleTimeout`, so neither can cut in earlier (openai-node#2153).
 */
export class UndiciTransport implements Transport {
  #dispatcher: Dispatcher | undefined;

  constructor(options: { dispatcher?: Dispatcher | undefined } = {}) {
    this.#dispatcher = options.dispatcher;
  }

  async #getDispatcher(): Promise<Dispatcher> {
    if (this.#dispatcher) return this.#dispatcher;
    const { Agent } = await loadUndici();
    // `??=` again: two first requests may race here; the loser's agent is never used.
    return (this.#dispatcher ??= new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 }));
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const dispatcher = this.#dispatcher ?? (await this.#getDispatcher());
    let res: Dispatcher.ResponseData;
    try {
      res = await dispatcher.request({
        origin: request.origin,
        path: request.path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body ?? null,
        signal: request.signal ?? null,
        headersTimeout: request.timeout,
        bodyTimeout: request.idleTimeout,
      });
    } catch (err) {
      throw toSdkError(err, request, "request");
    }
    const body = res.body;
    return {
      status: res.statusCode,
      headers: flattenHeaders(res.headers),
      body: {
        async *[Symbol.asyncIterator]() {
          const signal = request.signal;
          try {
            for await (const chunk of body) {
              // undici ignores an abort once the whole response has arrived, though its data
              // may still wait unread in the body's buffer; fetch errors the body then, and so
              // does this transport: nothing more is handed over after the caller aborted.
              if (signal?.aborted) throw new APIUserAbortError();
              yield chunk as Uint8Array;
            }
          } catch (err) {
            throw toSdkError(err, request, "body");
          } finally {
            // Reached on break/return too: destroying an unfinished body aborts the request.
            if (!body.readableEnded) body.destroy();
          }
        },
      },
      async text() {
        try {
          return await body.text();
        } catch (err) {
          throw toSdkError(err, request, "body");
        }
      },
      cancel() {
        if (!body.readableEnded && !body.destroyed) {
          // undici's body emits a RequestAbortedError when destroyed before its end; with no
          // reader attached (a stream aborted before or between reads) nobody listens, and it
          // would surface as an uncaught exception. Abandoning the body is not a failure.
          body.on("error", () => {});
          body.destroy();
        }
      },
    };
  }
}
