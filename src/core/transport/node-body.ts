import type { Readable } from "node:stream";
import { signalAbortError } from "../pipeline/abort.js";

const DONE: IteratorResult<Uint8Array> = { done: true, value: undefined };

/**
 * The chunks of a Node response body, read in its documented paused mode (`'readable'` and
 * `read()`, as Node's own async iterator of a stream does). Unlike that iterator, a reader that
 * leaves early after calling {@link NodeBodyChunks.finish} does not destroy a body whose end
 * has already arrived: a stream that stops at its end marker (SSE `[DONE]`) usually stops just
 * before the body's own end, and destroying it there would build and throw away an abort error
 * and close a connection the next request could use. A body whose end has not arrived is
 * closed at once, as when the reader leaves early: waiting for a server that holds the
 * connection open after its end marker would keep a pooled connection busy per stream.
 *
 * `fail` maps the stream's error (or the caller's abort) to the SDK's; `release` closes the
 * request (idempotent). Nothing is handed over after the caller's signal aborted.
 */
export class NodeBodyChunks implements AsyncIterator<Uint8Array> {
  readonly #body: Readable;
  readonly #signal: AbortSignal | undefined;
  readonly #fail: (err: unknown) => Error;
  readonly #release: () => void;
  #wake: (() => void) | undefined;
  #ended = false;
  #error: unknown;
  #closed = false;
  #finishing = false;

  readonly #onReadable = (): void => this.#wake?.();
  readonly #onEnd = (): void => {
    this.#ended = true;
    this.#wake?.();
  };
  readonly #onError = (err: unknown): void => {
    this.#error ??= err;
    this.#wake?.();
  };
  readonly #onClose = (): void => {
    // Closed without an end or an error (destroyed quietly): the body was cut off.
    if (!this.#ended) this.#error ??= new Error("The response body was closed before its end.");
    this.#wake?.();
  };

  constructor(body: Readable, signal: AbortSignal | undefined, fail: (err: unknown) => Error, release: () => void) {
    this.#body = body;
    this.#signal = signal;
    this.#fail = fail;
    this.#release = release;
    body.on("readable", this.#onReadable);
    body.on("end", this.#onEnd);
    body.on("error", this.#onError);
    body.on("close", this.#onClose);
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    for (;;) {
      if (this.#closed) return DONE;
      // undici ignores an abort once the whole response has arrived, though its data may still
      // wait unread in the body's buffer; fetch errors the body then, and so does this reader.
      if (this.#signal?.aborted) throw this.#stop(signalAbortError(this.#signal));
      if (this.#error !== undefined) throw this.#stop(this.#error);
      const chunk = this.#body.destroyed ? null : (this.#body.read() as Uint8Array | null);
      if (chunk !== null) return { done: false, value: chunk };
      if (this.#ended) {
        this.#close(false);
        return DONE;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    this.#close(this.#finishing);
    return DONE;
  }

  /**
   * The reader has all it needs and the server is done (it sent its end marker): when the reader
   * leaves, the rest of the body already received is read and dropped so the connection can be
   * used again; a body whose end has not arrived by then is closed.
   */
  finish(): void {
    this.#finishing = true;
  }

  #stop(err: unknown): Error {
    this.#close(false);
    return this.#fail(err);
  }

  #close(gently: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    // A read still waiting (closed from elsewhere) ends instead of waiting for ever.
    this.#wake?.();
    const body = this.#body;
    body.off("readable", this.#onReadable);
    body.off("end", this.#onEnd);
    body.off("close", this.#onClose);
    // The error listener stays: an error after this point (the body destroyed below, a reset
    // while the rest is dropped) has nobody else to hear it, and must not be uncaught.
    if (!gently || this.#ended || body.destroyed) {
      this.#release();
      return;
    }
    // Still in paused mode: what has arrived is read and dropped, the end included if it came.
    let settled = false;
    const drop = (): void => {
      while (body.read() !== null);
    };
    const settle = (): void => {
      settled = true;
      body.off("readable", drop);
      body.off("end", settle);
      body.off("close", settle);
    };
    body.once("end", settle);
    body.once("close", settle);
    body.on("readable", drop);
    drop();
    // A body whose end had already arrived emits 'end' in the tick the read above scheduled,
    // before this one: it goes back to the pool. Any other is closed now, not after a wait.
    process.nextTick(() => {
      if (settled) return;
      settle();
      this.#release();
    });
  }
}
