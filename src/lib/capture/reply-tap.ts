import { ChatCompletionAccumulator } from "../../wire/chat/stream/accumulate.js";
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  normalizeChunk,
  normalizeCompletion,
} from "../../wire/chat/types.js";

/** Reads a copy of a chat reply's bytes as they pass, and builds the completion at the end. */
export interface ReplyTap {
  push(bytes: Uint8Array): void;
  /** Whether the reply is whole already (a stream past `[DONE]`, which clients may cancel at). */
  readonly whole: boolean;
  /** The completion; throws when the reply was not one (an error event, bad JSON). */
  end(): ChatCompletion;
}

/** A JSON reply: its bytes, parsed once the body has ended. */
export class JSONReplyTap implements ReplyTap {
  readonly #decoder = new TextDecoder();
  #text = "";
  readonly whole = false;

  push(bytes: Uint8Array): void {
    this.#text += this.#decoder.decode(bytes, { stream: true });
  }

  end(): ChatCompletion {
    this.#text += this.#decoder.decode();
    const completion = JSON.parse(this.#text) as ChatCompletion;
    if (!Array.isArray(completion?.choices)) throw new Error("the reply is not a chat completion");
    return normalizeCompletion(completion);
  }
}

/**
 * A server-sent-events reply: `data:` events decoded as they arrive and accumulated, so the
 * copy never holds more than one unfinished event.
 */
export class SSEReplyTap implements ReplyTap {
  readonly #decoder = new TextDecoder();
  readonly #accumulator = new ChatCompletionAccumulator();
  #buffer = "";
  #data: string[] = [];
  #done = false;
  #error: string | undefined;

  get whole(): boolean {
    return this.#done;
  }

  push(bytes: Uint8Array): void {
    this.#buffer += this.#decoder.decode(bytes, { stream: true });
    this.#lines();
  }

  end(): ChatCompletion {
    this.#buffer += `${this.#decoder.decode()}\n\n`;
    this.#lines();
    if (this.#error !== undefined) throw new Error(`the stream carried an error event: ${this.#error}`);
    if (!this.#done) throw new Error("the stream ended before [DONE]");
    return this.#accumulator.finish();
  }

  #lines(): void {
    let start = 0;
    for (;;) {
      const nl = this.#buffer.indexOf("\n", start);
      if (nl < 0) break;
      let line = this.#buffer.slice(start, nl);
      start = nl + 1;
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line === "") this.#dispatch();
      else if (line.startsWith("data:")) this.#data.push(line.slice(line[5] === " " ? 6 : 5));
    }
    this.#buffer = this.#buffer.slice(start);
  }

  #dispatch(): void {
    if (this.#data.length === 0) return;
    const data = this.#data.join("\n");
    this.#data = [];
    if (data === "[DONE]") {
      this.#done = true;
      return;
    }
    if (this.#error !== undefined) return;
    try {
      const event = JSON.parse(data) as ChatCompletionChunk & { error?: { message?: string } };
      if (event.error != null) this.#error = event.error.message ?? JSON.stringify(event.error);
      else this.#accumulator.add(normalizeChunk(event));
    } catch (err) {
      this.#error = err instanceof Error ? err.message : String(err);
    }
  }
}
