import { ResponseParseError, ResponseTooLargeError } from "./errors.js";
import { LineBytes } from "./line-bytes.js";

/**
 * Decode a JSONL (NDJSON) byte stream: lines split on `\n` (a `\r` before it is dropped),
 * blank lines skipped, a last line without newline parsed at the end, multi-byte characters
 * kept whole across chunks. Yields the records parsed from each chunk as one array, as soon
 * as the chunk arrives, so memory holds at most one chunk's records plus one partial line.
 *
 * A line that is not JSON throws {@link ResponseParseError} naming its line number; the
 * records before it have already been yielded, and the line's content is never included.
 *
 * `maxLineSize` bounds one line: a longer line fails with `ResponseTooLargeError` as soon as
 * it is that long (in bytes while it arrives, in decoded characters once whole, which for
 * UTF-8 is never more), without holding more of it.
 */
export async function* decodeJSONLBatches<T = unknown>(
  bytes: AsyncIterable<Uint8Array>,
  maxLineSize = Number.POSITIVE_INFINITY,
): AsyncGenerator<T[]> {
  // Whole lines only, each run of them decoded once: a line that spans chunks waits as raw
  // bytes, so a huge line costs one decode and one JSON.parse, in linear time.
  const lines = new LineBytes(false);
  let lineNo = 0;
  let first = true;
  const tooLarge = () => new ResponseTooLargeError(`Line ${lineNo + 1} of the JSONL response`, maxLineSize);
  const parseLine = (raw: string, out: T[]) => {
    if (raw.length > maxLineSize) throw tooLarge();
    lineNo++;
    const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (line.length === 0) return;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      if (line.trim().length === 0) return;
      throw new ResponseParseError(`Line ${lineNo} of the JSONL response is not valid JSON.`, { line: lineNo });
    }
  };
  // Every line of `text` but an unterminated last one (only the final flush has one).
  const parseText = (text: string, out: T[]) => {
    if (first) {
      first = false;
      // A BOM is dropped at the start of the stream only, as a streaming decoder would.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf("\n", start)) !== -1) {
      parseLine(text.slice(start, nl), out);
      start = nl + 1;
    }
    if (start < text.length) parseLine(text.slice(start), out);
  };

  for await (const chunk of bytes) {
    const text = lines.push(chunk);
    const out: T[] = [];
    try {
      if (text) parseText(text, out);
      if (lines.pending > maxLineSize) throw tooLarge();
    } catch (err) {
      // The good records of this chunk come before the bad line: hand them over first.
      if (out.length) yield out;
      throw err;
    }
    if (out.length) yield out;
  }
  const last = lines.end();
  if (last) {
    const out: T[] = [];
    parseText(last, out);
    if (out.length) yield out;
  }
}

/** {@link decodeJSONLBatches}, one record at a time. */
export async function* decodeJSONL<T = unknown>(
  bytes: AsyncIterable<Uint8Array>,
  maxLineSize?: number,
): AsyncGenerator<T> {
  for await (const batch of decodeJSONLBatches<T>(bytes, maxLineSize)) yield* batch;
}
