const LF = 0x0a;
const CR = 0x0d;
// A line buffer that grew past this is dropped once its line is taken, so one huge line does
// not pin its memory for the rest of the stream.
const KEEP_CAPACITY = 1 << 16;

/**
 * Splits a byte stream at line ends and decodes only whole lines, each run of them with one
 * `TextDecoder.decode`. A line that spans chunks waits as raw bytes (in one growing buffer,
 * so a line split into a million 1-byte chunks costs linear time and no object per chunk) and
 * is decoded once when its end arrives: far cheaper than a streaming decode per chunk plus a
 * join of the pieces. Cutting after a CR or LF byte never splits a UTF-8 character (both are
 * ASCII), so the text is exactly what a streaming decoder would give.
 *
 * `push` returns the decoded text of the chunk up to and including its last line end (or
 * `""`), and keeps the rest; `end` returns whatever is left. A leading BOM is kept: the
 * caller decides what it means.
 */
export class LineBytes {
  readonly #cr: boolean;
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  #buf = new Uint8Array(0);
  #len = 0;

  /** `cr`: a lone CR ends a line too (SSE), not only LF (JSONL). */
  constructor(cr: boolean) {
    this.#cr = cr;
  }

  /** Bytes held for the line still arriving. */
  get pending(): number {
    return this.#len;
  }

  push(chunk: Uint8Array): string {
    let last = chunk.lastIndexOf(LF);
    if (this.#cr) {
      // Only the part after the last LF can hold a later CR.
      const cr = chunk.subarray(last + 1).lastIndexOf(CR);
      if (cr !== -1) last += 1 + cr;
    }
    if (last === -1) {
      this.#append(chunk);
      return "";
    }
    let text: string;
    if (this.#len === 0) text = this.#decoder.decode(chunk.subarray(0, last + 1));
    else {
      this.#append(chunk.subarray(0, last + 1));
      text = this.#take();
    }
    if (last + 1 < chunk.length) this.#append(chunk.subarray(last + 1));
    return text;
  }

  end(): string {
    return this.#len === 0 ? "" : this.#take();
  }

  #append(bytes: Uint8Array): void {
    const need = this.#len + bytes.length;
    if (need > this.#buf.length) {
      const grown = new Uint8Array(Math.max(need, this.#buf.length * 2, 256));
      grown.set(this.#buf.subarray(0, this.#len));
      this.#buf = grown;
    }
    this.#buf.set(bytes, this.#len);
    this.#len = need;
  }

  #take(): string {
    const text = this.#decoder.decode(this.#buf.subarray(0, this.#len));
    this.#len = 0;
    if (this.#buf.length > KEEP_CAPACITY) this.#buf = new Uint8Array(0);
    return text;
  }
}
