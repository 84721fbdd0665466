import { ResponseParseError, ResponseTooLargeError } from "../errors/errors.js";

/**
 * Decode a JSONL (NDJSON) byte stream: lines split on `\n` (a `\r` before it is dropped),
 * blank lines skipped, a last line without newline parsed at the end, multi-byte characters
 * kept whole across chunks. Yields the records parsed from each chunk as one array, as soon
 * as the chunk arrives, so memory holds at most one chunk's records plus one partial line.
 *
 * A line that is not JSON throws {@link ResponseParseError} naming its line number; the
 * records before it have already been yielded, and the line's content is never included.
 *
 * `maxLineSize` bounds one line (in decoded characters): a longer line fails with
 * `ResponseTooLargeError` as soon as it is that long, without holding more of it.
 */
export async function* decodeJSONLBatches<T = unknown>(
  bytes: AsyncIterable<Uint8Array>,
  maxLineSize = Number.POSITIVE_INFINITY,
): AsyncGenerator<T[]> {
  const decoder = new TextDecoder();
  // Pieces of a line that spans chunks. Only the new text is searched for newlines, and the
  // pieces are joined once, so a huge line costs linear time, not quadratic.
  const pending: string[] = [];
  let pendingSize = 0;
  let lineNo = 0;
  const tooLarge = () => new ResponseTooLargeError(`Line ${lineNo + 1} of the JSONL response`, maxLineSize);
  const hold = (piece: string) => {
    pending.push(piece);
    pendingSize += piece.length;
    if (pendingSize > maxLineSize) throw tooLarge();
  };
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
  const takeLine = (tail: string) => {
    if (pending.length === 0) return tail;
    pending.push(tail);
    const line = pending.join("");
    pending.length = 0;
    pendingSize = 0;
    return line;
  };

  for await (const chunk of bytes) {
    const text = decoder.decode(chunk, { stream: true });
    let nl = text.indexOf("\n");
    if (nl === -1) {
      if (text.length) hold(text);
      continue;
    }
    const out: T[] = [];
    try {
      parseLine(takeLine(text.slice(0, nl)), out);
      let start = nl + 1;
      while ((nl = text.indexOf("\n", start)) !== -1) {
        parseLine(text.slice(start, nl), out);
        start = nl + 1;
      }
      if (start < text.length) hold(text.slice(start));
    } catch (err) {
      // The good records of this chunk come before the bad line: hand them over first.
      if (out.length) yield out;
      throw err;
    }
    if (out.length) yield out;
  }
  const last = takeLine(decoder.decode());
  if (last.length) {
    const out: T[] = [];
    parseLine(last, out);
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
