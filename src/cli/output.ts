// Writing to stdout, stderr or a file with backpressure: a write waits while the stream's buffer
// is full, so a slow reader (a pipe, a disk) holds the producer back instead of memory growing.
import { once } from "node:events";
import type { Writable } from "node:stream";

// Lines are gathered into chunks of about this size: one write per chunk instead of per record.
const CHUNK = 64 * 1024;

/** A stream the command writes to, with the secrets of the environment kept out of it. */
export class Output {
  readonly #stream: Writable;
  readonly #redact: (text: string) => string;
  #pending = "";
  #closed = false;
  #error: Error | undefined;

  constructor(stream: Writable, redact: (text: string) => string = (t) => t) {
    this.#stream = stream;
    this.#redact = redact;
    // A reader that went away (`inferloop calls export | head`) ends the output, not the process.
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE") this.#closed = true;
      else this.#error ??= err;
    });
  }

  /** Whether the reader went away (EPIPE): the command may stop producing. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Whether it is a terminal (progress lines may then rewrite themselves). */
  get isTTY(): boolean {
    return (this.#stream as { isTTY?: boolean }).isTTY === true;
  }

  /** Writes a line now (diagnostics, progress), redacted. */
  async line(text: string): Promise<void> {
    await this.#write(`${this.#redact(text)}\n`);
  }

  /** Writes `text` as it is, now (streamed chat text). */
  async text(text: string): Promise<void> {
    await this.#write(text);
  }

  /** Writes one JSON document on a line, redacted. */
  async json(value: unknown): Promise<void> {
    await this.#write(`${this.#redact(JSON.stringify(value))}\n`);
  }

  /**
   * Adds a line to the current chunk and writes the chunk once it is full: for many records.
   * Call {@link flush} at the end.
   */
  async record(line: string): Promise<void> {
    this.#pending += `${line}\n`;
    if (this.#pending.length >= CHUNK) await this.flush();
  }

  /** Writes what {@link record} gathered. */
  async flush(): Promise<void> {
    const text = this.#pending;
    this.#pending = "";
    if (text !== "") await this.#write(text);
  }

  /** Flushes, ends the stream and waits until it is written (for files). */
  async end(): Promise<void> {
    await this.flush();
    if (this.#error) throw this.#error;
    if (this.#closed) return;
    this.#stream.end();
    await once(this.#stream, "finish");
  }

  async #write(text: string): Promise<void> {
    if (this.#error) throw this.#error;
    if (this.#closed) return;
    if (this.#stream.write(text)) return;
    try {
      await once(this.#stream, "drain");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EPIPE") throw err;
      this.#closed = true;
    }
  }
}
