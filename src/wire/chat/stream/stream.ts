import { readJSONEventBatches, streamEventError } from "../../../core/decoding/event-stream.js";
import { decodeJSONLBatches } from "../../../core/decoding/jsonl.js";
import { decodeSSEBatches } from "../../../core/decoding/sse.js";
import { streamChunks } from "../../../core/decoding/stream-chunks.js";
import { APIConnectionError, InferloopError } from "../../../core/errors/errors.js";
import { Redactor } from "../../../core/errors/secrets.js";
import { abortError } from "../../../core/pipeline/abort.js";
import { asyncDispose } from "../../../core/pipeline/dispose.js";
import { withEventDeadline } from "../../../core/pipeline/event-deadline.js";
import type { APIResponse } from "../../../core/pipeline/http-client.js";
import { checkChunk } from "../response-checks.js";
import { type ChatCompletion, type ChatCompletionChunk, normalizeChunk } from "../types.js";
import { ChatCompletionAccumulator } from "./accumulate.js";

/** Status and headers of the response a stream came from. */
export interface StreamResponseInfo {
  status: number;
  headers: Headers;
}

interface StreamSource {
  /** The caller's signal: once it aborts, no further chunk is handed over. */
  signal?: AbortSignal | undefined;
  /** Chunks in arrays (one per network read), so a chunk costs no async step of its own. */
  chunks: AsyncIterable<ChatCompletionChunk[]>;
  cancel: () => void;
  /** Made on first access of `response`: a `Headers` object per stream costs more than most
   * of a short stream's chunks, and few callers look. */
  response: () => StreamResponseInfo;
  requestId: string | undefined;
}

/**
 * A streamed chat completion. Iterate it for typed chunks until the server's `[DONE]`; ask
 * for `finalCompletion()` to get the accumulated `ChatCompletion`; `textStream()` for the
 * text of choice 0; `toReadableStream()` to relay it (as NDJSON) to a browser.
 *
 * It never ends quietly on a failure: an error event rejects with the `APIError` for its
 * code, a stream cut off before `[DONE]` with `APIConnectionError`, a stall longer than
 * `idleTimeout` with `APIConnectionTimeoutError`. Leaving the loop early (`break`) or
 * calling `abort()` closes the HTTP request.
 *
 * @example
 * ```ts
 * const stream = await client.chat.completions.create({ model, messages, stream: true });
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? "");
 * const completion = await stream.finalCompletion();
 * console.log(completion.usage);
 * ```
 */
export class ChatCompletionStream implements AsyncIterable<ChatCompletionChunk>, AsyncDisposable {
  readonly #responseInfo: () => StreamResponseInfo;
  #response: StreamResponseInfo | undefined;
  /**
   * `x-request-id` of the response; `undefined` from a vLLM server not started with
   * `--enable-request-id-headers` (each chunk's `id` still carries the request id).
   */
  readonly requestId: string | undefined;

  readonly #source: AsyncIterator<ChatCompletionChunk[]>;
  readonly #cancel: () => void;
  readonly #signal: AbortSignal | undefined;
  // The current batch from the source and the position of the next chunk in it.
  #batch: ChatCompletionChunk[] = [];
  #pos = 0;
  readonly #accumulator = new ChatCompletionAccumulator();
  #iterated = false;
  #ended = false;
  #aborted = false;
  #abortReason: unknown;
  #failure: unknown;
  #final: Promise<ChatCompletion> | undefined;

  /** @internal Use `client.chat.completions.create({ ..., stream: true })`. */
  constructor(source: StreamSource) {
    this.#source = source.chunks[Symbol.asyncIterator]();
    this.#cancel = source.cancel;
    this.#signal = source.signal;
    this.#responseInfo = source.response;
    this.requestId = source.requestId;
  }

  /** Status and headers of the HTTP response.
   *
   * @example
   * ```ts
   * console.log(stream.response.status, stream.response.headers.get("content-type"));
   * ```
   */
  get response(): StreamResponseInfo {
    return (this.#response ??= this.#responseInfo());
  }

  /** @internal Wraps a successful SSE response (in the class it is called on: subclasses add readers). */
  static fromResponse<S extends ChatCompletionStream>(
    this: new (
      source: StreamSource,
    ) => S,
    res: APIResponse,
    redactor: Redactor,
    signal?: AbortSignal,
  ): S {
    const events = withEventDeadline(
      decodeSSEBatches(res.body, res.limits.maxBufferBytes),
      res.limits,
      () => res.cancel(),
      "data event",
    );
    const finish = () => res.finish?.();
    async function* chunks(): AsyncGenerator<ChatCompletionChunk[]> {
      let n = 0;
      try {
        for await (const batch of readJSONEventBatches<ChatCompletionChunk>(events, res.headers, redactor, finish)) {
          for (let i = 0; i < batch.length; i++) {
            try {
              normalizeChunk(checkChunk(batch[i], ++n));
            } catch (err) {
              // The good chunks before the unreadable one are delivered first, as they arrived.
              if (i > 0) {
                res.span?.chunks(batch.slice(0, i));
                yield batch.slice(0, i);
              }
              throw err;
            }
          }
          res.span?.chunks(batch);
          yield batch;
        }
        res.span?.end();
      } catch (err) {
        // An error event inside the stream: the body itself was fine, the operation was not.
        res.span?.fail(err);
        // A failure mid-stream carries the transport's own error as its cause: scrubbed too.
        throw redactor.error(err);
      }
    }
    return new this({
      chunks: chunks(),
      cancel: () => res.cancel(),
      signal,
      response: () => ({ status: res.status, headers: new Headers(res.headers) }),
      requestId: res.requestId,
    });
  }

  /**
   * Read back a stream written by {@link toReadableStream} (NDJSON, one chunk per line), for
   * example on the browser side of a relay. An error line rejects with its `APIError`; a
   * stream that ends before every choice has its `finish_reason` (the relay's connection was
   * cut) rejects with `APIConnectionError`.
   *
   * @example
   * ```ts
   * const res = await fetch("/api/chat", { method: "POST", body: JSON.stringify({ messages }) });
   * const relayed = ChatCompletionStream.fromReadableStream(res.body!);
   * for await (const text of relayed.textStream()) document.body.append(text);
   * ```
   */
  static fromReadableStream(readable: ReadableStream<Uint8Array>): ChatCompletionStream {
    const noRedaction = new Redactor([]);
    let n = 0;
    // NDJSON has no end marker: a relay cut between two lines would end the stream as if it
    // were complete. Every choice ends with a chunk carrying its finish_reason; these have not.
    const unfinished = new Set<number>();
    async function* chunks(): AsyncGenerator<ChatCompletionChunk[]> {
      for await (const lines of decodeJSONLBatches<ChatCompletionChunk & { error?: unknown }>(streamChunks(readable))) {
        const out: ChatCompletionChunk[] = [];
        for (const line of lines) {
          n++;
          let chunk: ChatCompletionChunk;
          try {
            if (line && typeof line === "object" && line.error != null) throw streamEventError(line, {}, noRedaction);
            chunk = normalizeChunk(checkChunk(line, n));
          } catch (err) {
            // The chunks before the bad line are delivered first, as they arrived.
            if (out.length) yield out;
            throw err;
          }
          for (const c of chunk.choices) {
            if (c.finish_reason == null) unfinished.add(c.index);
            else unfinished.delete(c.index);
          }
          out.push(chunk);
        }
        if (out.length) yield out;
      }
      if (n === 0 || unfinished.size > 0)
        throw new APIConnectionError(
          "The relayed stream ended before the last chunk of every choice (the one with its finish_reason): the relay's response was cut off.",
        );
    }
    return newStream({
      chunks: chunks(),
      cancel: () => void readable.cancel().catch(() => {}),
      response: () => ({ status: 200, headers: new Headers({ "content-type": "application/x-ndjson" }) }),
      requestId: undefined,
    });
  }

  /** The next buffered chunk, accumulated on the way, or `undefined` when the batch is used
   * up; shared by every way of reading the stream. Synchronous: most chunks need no await. */
  #take(): ChatCompletionChunk | undefined {
    if (this.#pos >= this.#batch.length) return undefined;
    // The caller's signal stops delivery at once, even of chunks already decoded.
    if (this.#signal?.aborted) {
      this.abort(this.#signal.reason);
      return undefined;
    }
    const chunk = this.#batch[this.#pos++]!;
    // Every chunk of a source was checked by checkChunk, indices included.
    this.#accumulator._addChecked(chunk);
    return chunk;
  }

  /** Load the next batch from the source: `false` at the end; throws the stream's failure. */
  async #fill(): Promise<boolean> {
    if (this.#ended) {
      if (this.#failure !== undefined) throw this.#failure;
      return false;
    }
    if (this.#signal?.aborted) this.abort(this.#signal.reason);
    if (this.#aborted) {
      // abort() while no read was pending: the next read rejects, as a pending one does.
      this.#ended = true;
      this.#failure = abortError(this.#abortReason);
      throw this.#failure;
    }
    try {
      const r = await this.#source.next();
      if (r.done) {
        this.#ended = true;
        return false;
      }
      this.#batch = r.value;
      this.#pos = 0;
      return true;
    } catch (err) {
      this.#ended = true;
      this.#failure = this.#aborted ? abortError(this.#abortReason, err) : err;
      this.#cancel();
      throw this.#failure;
    }
  }

  /**
   * Typed chunks in order until `[DONE]`. A stream can be iterated once.
   *
   * @example
   * ```ts
   * for await (const chunk of stream) console.log(chunk.choices[0]?.delta);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<ChatCompletionChunk> {
    if (this.#iterated) throw new InferloopError("This stream is already being read; a stream can be iterated once.");
    this.#iterated = true;
    let finished = false;
    try {
      for (;;) {
        const chunk = this.#take();
        if (chunk !== undefined) yield chunk;
        else if (!(await this.#fill())) break;
      }
      finished = true;
    } finally {
      // `break` or `return` in the caller's loop: close the request now, not at GC time.
      if (!finished && !this.#ended) this.abort();
    }
  }

  /**
   * The whole completion, accumulated from every chunk (all choices by index: content,
   * reasoning, tool calls, logprobs, token ids, finish and stop reasons, usage). Reads the rest
   * of the stream if the caller has not.
   *
   * @example
   * ```ts
   * const completion = await stream.finalCompletion();
   * console.log(completion.choices[0]?.message.content, completion.usage?.total_tokens);
   * ```
   */
  finalCompletion(): Promise<ChatCompletion> {
    return (this.#final ??= (async () => {
      this.#iterated = true;
      for (;;) {
        while (this.#take() !== undefined);
        if (!(await this.#fill())) break;
      }
      if (this.#aborted) throw abortError(this.#abortReason);
      return this.#accumulator.finish();
    })());
  }

  /**
   * The text deltas of choice 0, as they arrive.
   *
   * @example
   * ```ts
   * for await (const text of stream.textStream()) process.stdout.write(text);
   * ```
   */
  async *textStream(): AsyncGenerator<string> {
    for await (const chunk of this) {
      const choices = chunk.choices;
      for (let i = 0; i < choices.length; i++) {
        const c = choices[i]!;
        if (c.index === 0 && c.delta?.content) yield c.delta.content;
      }
    }
  }

  /**
   * A web `ReadableStream` of NDJSON (one chunk per line), for relaying to a browser. A failure
   * is written as a last `{"error":{...}}` line, so the reader on the other side
   * ({@link ChatCompletionStream.fromReadableStream}) fails the same way.
   *
   * @example
   * ```ts
   * // In a server route, relaying to the browser:
   * const stream = await client.chat.completions.create({ model, messages, stream: true });
   * const res = new Response(stream.toReadableStream(), { headers: { "content-type": "application/x-ndjson" } });
   * ```
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    const iterator = this[Symbol.asyncIterator]();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const r = await iterator.next();
          if (r.done) controller.close();
          else controller.enqueue(encoder.encode(`${JSON.stringify(r.value)}\n`));
        } catch (err) {
          const e = err as { message?: string; status?: number; name?: string };
          const error = { message: e.message ?? "stream failed", type: e.name, code: e.status ?? 500 };
          controller.enqueue(encoder.encode(`${JSON.stringify({ error })}\n`));
          controller.close();
        }
      },
      async cancel() {
        await iterator.return?.(undefined);
      },
    });
  }

  /**
   * Close the HTTP request when an `await using` block ends (same as {@link abort}; nothing
   * happens if the stream was read to its end).
   *
   * @example
   * ```ts
   * {
   *   await using stream = await client.chat.completions.create({ model, messages, stream: true });
   *   for await (const chunk of stream) if (chunk.choices[0]?.delta.content?.includes("STOP")) break;
   * } // the request is closed here, whichever way the block was left
   * ```
   */
  async [asyncDispose](): Promise<void> {
    this.abort();
  }

  /**
   * Stop the stream and close the HTTP request. A pending read rejects with
   * `APIUserAbortError`, whose `cause` is `reason` when one is given (a `TimeoutError`
   * reason, as `AbortSignal.timeout()` gives, makes it `APIConnectionTimeoutError`).
   *
   * @example
   * ```ts
   * setTimeout(() => stream.abort(new Error("user pressed stop")), 1_000);
   * ```
   */
  abort(reason?: unknown): void {
    if (this.#ended) return;
    if (!this.#aborted) this.#abortReason = reason;
    this.#aborted = true;
    // Chunks already decoded from the socket's buffer are dropped too: none is delivered after
    // abort(), and the loop does not end quietly as if the stream were complete.
    this.#batch = [];
    this.#pos = 0;
    this.#cancel();
  }
}

// Outside the class body, like `newClient` in client.ts: a class that names itself inside its own
// body is emitted by esbuild as `class _ChatCompletionStream`, the name logs would show.
function newStream(source: StreamSource): ChatCompletionStream {
  return new ChatCompletionStream(source);
}
