import { createParser } from "eventsource-parser";
import { ResponseTooLargeError } from "./errors.js";

/** One server-sent event: `event` is `null` for the default (unnamed) type.
 *
 * @example
 * ```ts
 * for await (const ev of decodeSSE(bytes)) if (ev.event === null) console.log(ev.data);
 * ```
 */
export interface SSEEvent {
  event: string | null;
  data: string;
}

/**
 * Decode a byte stream into server-sent events by the WHATWG rules (eventsource-parser does
 * the framing: CR, LF and CRLF, comments, multi-line data, a BOM at the start). Bytes are
 * decoded with a streaming TextDecoder, so a multi-byte character split across chunks stays
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
 * `maxEventSize` bounds the text held for one event (its data lines and the line still
 * arriving, in decoded characters): an endless event fails with `ResponseTooLargeError`
 * instead of growing memory. Comments and unknown fields are dropped as they pass.
 */
export async function* decodeSSEBatches(
  bytes: AsyncIterable<Uint8Array>,
  maxEventSize?: number,
): AsyncGenerator<SSEEvent[]> {
  let ready: SSEEvent[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent(e) {
      ready.push({ event: e.event ? e.event : null, data: e.data });
    },
    onError(e) {
      if (e.type === "max-buffer-size-exceeded") overflow = true;
    },
    maxBufferSize: maxEventSize,
  });
  // The parser strips the leading BOM itself; letting the decoder strip it too would eat a
  // second one, which must instead spoil the first line.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  for await (const chunk of bytes) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (overflow) {
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
  const tail = decoder.decode();
  if (tail) parser.feed(tail);
  if (ready.length) yield ready;
}
