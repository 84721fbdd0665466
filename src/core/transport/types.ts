import { APIConnectionError } from "../errors/errors.js";

/**
 * The one small interface between the request pipeline and the network. Two implementations:
 * undici in Node (fast, keep-alive pool, native timeouts) and standard `fetch` everywhere else.
 * Implementations throw only the SDK's connection errors (`APIConnectionError`,
 * `APIConnectionTimeoutError`, `APIUserAbortError`), both from `send` and from the body.
 */
export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
}

export interface TransportRequest {
  method: string;
  /** Scheme, host and port, e.g. `http://127.0.0.1:8080`. */
  origin: string;
  /** Path and query, starting with `/`. */
  path: string;
  headers: Record<string, string>;
  body: string | PiecewiseBody | StreamedBody | undefined;
  signal: AbortSignal | undefined;
  /** ms until the response headers arrive. */
  timeout: number;
  /** ms allowed between two chunks of the body. */
  idleTimeout: number;
  /**
   * Ask for a compressed body (JSON and JSONL answers). A transport that decodes bodies itself
   * sends `accept-encoding` unless the caller set one; SSE streams are never asked to compress,
   * since a compressing proxy may hold events back to fill its blocks.
   */
  compress: boolean;
}

/**
 * A body too large to build as one string: its text in pieces (strings, or UTF-8 bytes of
 * whole characters), made again by each call of `pieces()` (so every attempt sends the same
 * bytes). A transport may send it piece by piece or join it.
 */
export interface PiecewiseBody {
  pieces(): Iterable<string | Uint8Array>;
}

/**
 * A byte body of known length read from a source as it is sent (an upload to a signed storage
 * URL): the bytes are never all in memory. `stream()` starts over for each attempt; `blob()`,
 * when the source can give one, is what a `fetch` transport sends (a streamed fetch body needs
 * `duplex: "half"`, which not every runtime has), else it gathers the stream into a Blob.
 */
export interface StreamedBody {
  length: number;
  stream(): AsyncIterable<Uint8Array>;
  blob?(): Promise<Blob>;
}

/** Whether a request body is a {@link StreamedBody}. */
export function isStreamedBody(body: TransportRequest["body"]): body is StreamedBody {
  return typeof body === "object" && "stream" in body;
}

/** The whole text of a {@link PiecewiseBody}, for a transport that sends strings. */
export function joinPieces(body: PiecewiseBody): string {
  const decoder = new TextDecoder();
  let text = "";
  for (const piece of body.pieces()) text += typeof piece === "string" ? piece : decoder.decode(piece);
  return text;
}

/** What {@link TransportResponse.text} read: the text, and whether it is the whole body. */
export interface BodyText {
  text: string;
  /** `false` when the body was longer than asked for: the rest was not read and the request
   * is closed. */
  complete: boolean;
}

export interface TransportResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body as it arrives, decoded from any `content-encoding`. Ending the iteration early
   * (break/return) releases the request. */
  body: AsyncIterable<Uint8Array>;
  /** At most `maxBytes` bytes of the body (after decompression) decoded as UTF-8. A longer
   * body is not read further: memory stays near `maxBytes` whatever the server sends. */
  text(maxBytes: number): Promise<BodyText>;
  /** Abandon the body: the connection is closed or returned to the pool, timers are cleared. */
  cancel(): void;
  /**
   * The reader has all it needs and the server has said it is done (an SSE stream's `[DONE]`):
   * once the reader leaves the body, the rest is read and dropped rather than the request
   * aborted, so the connection can serve the next request. Optional: without it, leaving
   * closes the request as `cancel` does.
   */
  finish?(): void;
}

/** Errors known to have been raised before any byte of the request left this machine. */
const unsent = new WeakSet<object>();

/** Mark an error as "the server never saw this request" (refused connection, DNS failure). */
export function markUnsent<E extends object>(error: E): E {
  unsent.add(error);
  return error;
}

/** True when the request provably never reached the server, so even a non-idempotent
 * operation may be sent again. */
export function wasUnsent(error: unknown): boolean {
  return typeof error === "object" && error !== null && unsent.has(error);
}

/** Network error codes that mean no connection was made, so nothing was sent. */
export const UNSENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_NONAME",
  "UND_ERR_CONNECT_TIMEOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/**
 * The `APIConnectionError` for a request that got no complete response: its message names
 * what could not be reached and the cause. `origin` is the scheme, host and port only (the
 * client splits the base URL into `URL.origin` and a path), so no credentials, path or query
 * string can get in. A failure to connect with a code from {@link UNSENT_CODES} is marked
 * unsent; `inBody`: it broke while the body was read.
 */
export function connectionError(origin: string, code: unknown, inBody: boolean, cause: unknown): APIConnectionError {
  const detail = typeof code === "string" ? ` (${code})` : "";
  const unsent = !inBody && UNSENT_CODES.has(code as string);
  const error = new APIConnectionError(
    unsent
      ? `Could not connect to ${origin}${detail}.`
      : `Connection to ${origin} ${inBody ? "lost mid-response" : "failed before a response"}${detail}.`,
    { cause },
  );
  return unsent ? markUnsent(error) : error;
}

/**
 * Read at most `maxBytes` of a body, then stop: the shared way to read a bounded body for
 * transports without a faster path. Leaving the loop early closes the request (see `body`).
 */
export async function readCapped(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<BodyText> {
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for await (const chunk of body) {
    const room = maxBytes - bytes;
    if (chunk.byteLength > room) {
      text += decoder.decode(chunk.subarray(0, room), { stream: true });
      return { text: text + decoder.decode(), complete: false };
    }
    bytes += chunk.byteLength;
    text += decoder.decode(chunk, { stream: true });
  }
  return { text: text + decoder.decode(), complete: true };
}
