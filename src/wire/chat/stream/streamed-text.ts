// How many pieces are joined at a time: small enough that the pieces are still young when
// they are joined (and die there), large enough that the runs kept are few.
const RUN = 256;

/**
 * Text appended one piece per chunk. `text += piece` would keep a rope: two objects per chunk
 * that all outlive the young generation, so V8 grows it (raising a long stream's peak RSS, see
 * docs/performance.md) and copies them all to the old one. Here the
 * pieces are joined every {@link RUN}, so only the joined runs survive.
 */
export class StreamedText {
  #runs: string[] = [];
  #pieces: string[] = [];

  constructor(first: string) {
    this.#pieces.push(first);
  }

  add(piece: string): void {
    const pieces = this.#pieces;
    pieces.push(piece);
    if (pieces.length === RUN) {
      this.#runs.push(pieces.join(""));
      pieces.length = 0;
    }
  }

  /** The whole text so far; more can still be added. */
  text(): string {
    if (this.#pieces.length > 0) {
      this.#runs.push(this.#pieces.join(""));
      this.#pieces.length = 0;
    }
    const runs = this.#runs;
    if (runs.length > 1) this.#runs = [runs.join("")];
    return this.#runs[0] ?? "";
  }
}

/** Append `piece` to `into`, starting it if it is the first piece. */
export function appendText(into: StreamedText | undefined, piece: string): StreamedText {
  if (into === undefined) return new StreamedText(piece);
  into.add(piece);
  return into;
}
