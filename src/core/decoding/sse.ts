import { createParser } from "eventsource-parser";
import { ResponseTooLargeError } from "../errors/errors.js";
import { LineBytes, lastLineEndBefore } from "./line-bytes.js";

/**
 * Bytes decoded and parsed at a time. A network read can hold 64 KiB; decoded and parsed at
 * once, its text and all its events are alive together until the last is used, so each
 * young-generation GC of a long stream finds far more alive than the plain reader keeps, and V8
 * answers by growing the young generation, which raises the stream's peak RSS.
 * Cut at line ends into pieces of this size, a piece's text and events die while the next is
 * read. Not smaller: each piece is one more wait of the event deadline and one more step of the
 * readers above, which many short streams pay for (docs/performance.md has the measurements).
 */
const PIECE = 32 * 1024;

/** One server-sent event: `event` is `null` for the default (unnamed) type.
 */
export interface SSEEvent {
  event: string | null;
  data: string;
}

/**
 * Decode a byte stream into server-sent events by the WHATWG rules (eventsource-parser does
 * the framing: CR, LF and CRLF, comments, multi-line data, a BOM at the start). Only whole
 * lines are decoded (see `LineBytes`), so a multi-byte character split across chunks stays
 * whole. A block that never gets its closing blank line is not dispatched. Events decoded
 * from one chunk are yielded together, without waiting for more bytes.
 */
export async function* decodeSSE(bytes: AsyncIterable<Uint8Array>, maxEventSize?: number): AsyncGenerator<SSEEvent> {
  for await (const batch of decodeSSEBatches(bytes, maxEventSize)) yield* batch;
}

/**
 * {@link decodeSSE}, one non-empty array per chunk of bytes: the events that chunk completed.
 * Hot paths (a chat stream) iterate the arrays, so an event costs no async step of its own.
 *
 * `maxEventSize` bounds what is held for one event: the line still arriving (in bytes) and
 * the data lines already complete (in decoded characters, which for UTF-8 is never more than
 * their bytes), each on its own. An endless event fails with `ResponseTooLargeError` instead
 * of growing memory. Comments and unknown fields are dropped as they pass.
 */
export async function* decodeSSEBatches(
  bytes: AsyncIterable<Uint8Array>,
  maxEventSize?: number,
): AsyncGenerator<SSEEvent[]> {
  let ready: SSEEvent[] = [];
  let overflow = false;
  const limit = maxEventSize ?? Number.POSITIVE_INFINITY;
  const parser = createParser({
    onEvent(e) {
      // The parser bounds only what it buffers; a whole line fed at once never passes through
      // that buffer, so an oversized event is caught here too, however its bytes were cut.
      if (e.data.length > limit) overflow = true;
      else ready.push({ event: e.event ? e.event : null, data: e.data });
    },
    onError(e) {
      if (e.type === "max-buffer-size-exceeded") overflow = true;
    },
    maxBufferSize: maxEventSize,
  });
  // The parser gets whole lines only; it strips the leading BOM itself, and LineBytes keeps
  // it, so a second BOM still spoils the first line.
  const lines = new LineBytes();
  for await (const chunk of bytes) {
    for (let start = 0; start < chunk.length; ) {
      let end = chunk.length;
      if (end - start > PIECE) {
        const cut = lastLineEndBefore(chunk, start + PIECE);
        // No line end in the window: a long line, taken whole to the end of the read.
        if (cut >= start) end = cut + 1;
      }
      const text = lines.push(start === 0 && end === chunk.length ? chunk : chunk.subarray(start, end));
      start = end;
      if (text) parser.feed(text);
      if (overflow || lines.pending > limit) {
        // The events completed before the oversized one are handed over first.
        if (ready.length) yield ready;
        throw new ResponseTooLargeError("One event of the stream", maxEventSize ?? 0);
      }
      if (ready.length) {
        const batch = ready;
        ready = [];
        yield batch;
      }
    }
  }
  const tail = lines.end();
  if (tail) parser.feed(tail);
  if (ready.length) yield ready;
}
