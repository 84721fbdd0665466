const LF = 0x0a;
const CR = 0x0d;
// Chunks smaller than this are copied into a shared piece, so a line split into a million
// 1-byte chunks holds a few pieces, not a million objects; larger ones are kept as they are.
const SMALL = 1024;
const PIECE = 16 * 1024;

type NodeBuffer = { from(b: ArrayBufferLike, offset: number, length: number): Uint8Array };
// Node's Buffer searches bytes with memchr, faster than the TypedArray methods; where there is
// none (browsers), the standard methods give the same answer.
const NodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
// Text that ends in a line end is decoded with `stream: true` all the same: it ends in an ASCII
// byte, so nothing is left pending and the text is the same, and Node's decoder with
// `ignoreBOM` takes a faster path in streaming mode (docs/performance.md).
const STREAM = { stream: true };

/**
 * Index of the last LF or CR byte in `chunk` before `end`, or -1.
 */
export function lastLineEndBefore(chunk: Uint8Array, end: number): number {
  return lastLineEnd(end >= chunk.length ? chunk : chunk.subarray(0, end));
}

/** Index of the last LF or CR byte in `chunk`, or -1. */
function lastLineEnd(chunk: Uint8Array): number {
  if (chunk.length < SMALL) {
    // A few bytes (a server that flushes byte by byte): a plain loop, with no view to create.
    for (let i = chunk.length - 1; i >= 0; i--) {
      const b = chunk[i];
      if (b === LF || b === CR) return i;
    }
    return -1;
  }
  const bytes = NodeBuffer ? NodeBuffer.from(chunk.buffer, chunk.byteOffset, chunk.length) : chunk;
  const lf = bytes.lastIndexOf(LF);
  // Only the part after the last LF can hold a later CR.
  const after = bytes.subarray(lf + 1).lastIndexOf(CR);
  return after === -1 ? lf : lf + 1 + after;
}

/**
 * Splits an SSE byte stream after its line ends (CR or LF bytes) and decodes only what ends
 * in one, so the parser is fed whole lines. The bytes of a line still arriving wait as bytes,
 * not text: a server that flushes one byte at a time costs a byte copy per chunk instead of
 * a decode and a parser feed, and a line that spans many chunks is decoded once, not piece by
 * piece. Cutting right after a CR or LF byte never splits a UTF-8 character (both are ASCII),
 * so the text is exactly what one streaming decoder would give.
 *
 * Chunks of 1 KiB or more are held, not copied, until their line ends: transports never reuse
 * a chunk they handed over (a stream's chunks belong to its reader).
 *
 * `push` returns the decoded text of the chunk up to and including its last line end (or
 * `""`), and keeps the rest; `end` returns whatever is left. A leading BOM is kept: the
 * parser decides what it means.
 */
export class LineBytes {
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  #pieces: Uint8Array[] = [];
  #small: Uint8Array | undefined;
  #smallLen = 0;
  #len = 0;

  /** Bytes held for the line still arriving. */
  get pending(): number {
    return this.#len;
  }

  push(chunk: Uint8Array): string {
    const last = lastLineEnd(chunk);
    if (last === -1) {
      this.#hold(chunk);
      return "";
    }
    const head = chunk.subarray(0, last + 1);
    let text: string;
    if (this.#len === 0) text = this.#decoder.decode(head, STREAM);
    else if (this.#len < head.length) {
      // The held start of a line is the smaller part (the usual case: the tail of the last
      // chunk): decode it on its own (streaming, as it may end inside a character) rather
      // than copy the whole chunk behind it.
      text = this.#take(true) + this.#decoder.decode(head, STREAM);
    } else {
      this.#hold(head);
      text = this.#take(false);
    }
    if (last + 1 < chunk.length) this.#hold(chunk.subarray(last + 1));
    return text;
  }

  end(): string {
    return this.#len === 0 ? "" : this.#take(false);
  }

  #hold(bytes: Uint8Array): void {
    this.#len += bytes.length;
    if (bytes.length >= SMALL) {
      this.#flushSmall();
      this.#pieces.push(bytes);
      return;
    }
    if (this.#small && this.#smallLen + bytes.length > this.#small.length) this.#flushSmall();
    this.#small ??= new Uint8Array(PIECE);
    this.#small.set(bytes, this.#smallLen);
    this.#smallLen += bytes.length;
  }

  #flushSmall(): void {
    if (!this.#small || this.#smallLen === 0) return;
    this.#pieces.push(this.#small.subarray(0, this.#smallLen));
    this.#small = undefined;
    this.#smallLen = 0;
  }

  /** Decode and drop every held byte; `stream`: more of the same line follows. */
  #take(stream: boolean): string {
    let text: string;
    if (this.#pieces.length === 0) {
      // Short line ends only: decode in place and keep the small buffer for the next ones.
      text = this.#decoder.decode(this.#small!.subarray(0, this.#smallLen), { stream });
      this.#smallLen = 0;
    } else {
      this.#flushSmall();
      const pieces = this.#pieces;
      let whole = pieces[0]!;
      if (pieces.length > 1) {
        whole = new Uint8Array(this.#len);
        let at = 0;
        for (const p of pieces) {
          whole.set(p, at);
          at += p.length;
        }
      }
      this.#pieces = [];
      text = this.#decoder.decode(whole, { stream });
    }
    this.#len = 0;
    return text;
  }
}
