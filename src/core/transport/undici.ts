import { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { APIConnectionTimeoutError, InferloopError } from "../errors/errors.js";
import { signalAbortError } from "../pipeline/abort.js";
import { acceptEncoding, decode, decodeError, decoderFor } from "./decompress.js";
import { NodeBodyChunks } from "./node-body.js";
import {
  connectionError,
  isStreamedBody,
  type PiecewiseBody,
  readCapped,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "./types.js";

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
  if (request.signal?.aborted) return signalAbortError(request.signal, err);
  if (err instanceof InferloopError) return err;
  const decoding = decodeError(err);
  if (decoding) return decoding;
  const code = errorCode(err);
  if (code === "UND_ERR_HEADERS_TIMEOUT")
    return new APIConnectionTimeoutError(`No response headers within ${request.timeout} ms.`);
  if (code === "UND_ERR_BODY_TIMEOUT")
    return new APIConnectionTimeoutError(`No response data for ${request.idleTimeout} ms (idleTimeout).`);
  return connectionError(request.origin, code, phase === "body", err);
}

/** A body that fails at its first read (one this client cannot decode). */
function failed(err: Error, release: () => void): AsyncIterator<Uint8Array> {
  return {
    async next() {
      release();
      throw err;
    },
  };
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in raw) {
    const v = raw[k];
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

const PIECE_BYTES = 64 * 1024;

function byteLength(body: PiecewiseBody): number {
  let n = 0;
  for (const piece of body.pieces()) n += typeof piece === "string" ? Buffer.byteLength(piece) : piece.byteLength;
  return n;
}

/**
 * The pieces as undici writes them to the socket: small strings gathered into about 64 KiB (not
 * a socket write per tiny piece), large ones and bytes handed over as they are. Strings stay
 * strings, which the socket encodes as it writes them: a Buffer made of each would put the
 * whole body in V8's external memory, whose growth V8 answers with full GCs of the caller's
 * whole heap.
 */
function* gatheredPieces(body: PiecewiseBody): Generator<string | Uint8Array> {
  let pending = "";
  for (const piece of body.pieces()) {
    if (typeof piece === "string" && piece.length < PIECE_BYTES) {
      pending += piece;
      if (pending.length < PIECE_BYTES) continue;
    }
    if (pending !== "") yield pending;
    pending = "";
    if (typeof piece !== "string" || piece.length >= PIECE_BYTES) yield piece;
  }
  if (pending !== "") yield pending;
}

/**
 * Node transport over undici's `dispatcher.request`: cheaper per call than `fetch`, which
 * builds WHATWG request, response and stream objects for every call; with keep-alive pooling. undici's own headers and body timeouts are set to exactly
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
    let headers = request.headers;
    if (request.compress && headers["accept-encoding"] === undefined)
      headers = { ...headers, "accept-encoding": acceptEncoding() };
    // The length up front: a body in pieces then goes out like any other, not chunked, which
    // some proxies and servers refuse.
    const streamed = isStreamedBody(request.body) ? request.body : undefined;
    if (typeof request.body === "object")
      headers = {
        ...headers,
        "content-length": String(streamed ? streamed.length : byteLength(request.body as PiecewiseBody)),
      };
    let res: Dispatcher.ResponseData;
    try {
      res = await dispatcher.request({
        origin: request.origin,
        path: request.path,
        method: request.method as Dispatcher.HttpMethod,
        headers,
        // In object mode, which hands each piece to undici as it is (a byte stream would make
        // a Buffer of each string).
        body: streamed
          ? Readable.from(streamed.stream(), { objectMode: false })
          : typeof request.body === "object"
            ? Readable.from(gatheredPieces(request.body as PiecewiseBody), { objectMode: true })
            : (request.body ?? null),
        signal: request.signal ?? null,
        headersTimeout: request.timeout,
        bodyTimeout: request.idleTimeout,
      });
    } catch (err) {
      throw toSdkError(err, request, "request");
    }
    const raw = res.body;
    const responseHeaders = flattenHeaders(res.headers);
    // A body in an encoding this client cannot decode fails when it is read, not here: the
    // status and headers still reach the caller (an error status needs no body).
    let body: Readable = raw;
    let undecodable: unknown;
    try {
      const decoder = decoderFor(responseHeaders["content-encoding"]);
      if (decoder) body = decode(raw, decoder);
    } catch (err) {
      undecodable = err;
    }
    const length = Number(responseHeaders["content-length"]);
    const release = () => {
      for (const s of [body, raw]) {
        if (!s.readableEnded && !s.destroyed) {
          // undici's body emits a RequestAbortedError when destroyed before its end; with no
          // reader attached (a stream aborted before or between reads) nobody listens, and it
          // would surface as an uncaught exception. Abandoning the body is not a failure.
          s.on("error", () => {});
          s.destroy();
        }
      }
    };
    const fail = (err: unknown) => toSdkError(err, request, "body");
    let reader: NodeBodyChunks | undefined;
    const iterable: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        if (undecodable) return failed(fail(undecodable), release);
        reader = new NodeBodyChunks(body, request.signal, fail, release);
        return reader;
      },
    };
    return {
      status: res.statusCode,
      headers: responseHeaders,
      body: iterable,
      async text(maxBytes) {
        // Fast path: a plain body whose declared length fits is read by undici in one go
        // (undici fails a body longer than its content-length).
        if (body === raw && !undecodable && Number.isSafeInteger(length) && length <= maxBytes) {
          try {
            return { text: await raw.text(), complete: true };
          } catch (err) {
            throw toSdkError(err, request, "body");
          }
        }
        return readCapped(iterable, maxBytes);
      },
      cancel: release,
      finish: () => reader?.finish(),
    };
  }
}
