// How a large body keeps a part written as JSON text until it is sent, in the form that holds
// it in the least memory without costing the caller's heap full GCs.
//
// V8 keeps a string whose characters are all Latin-1 (ASCII first of all) at one byte per
// character, and a string with any other character at two bytes per character, whole. The
// socket encodes a string to UTF-8 as it writes it. UTF-8 bytes held as a Uint8Array would be
// the smallest form, but they live in V8's external memory, whose growth V8 answers with full
// mark-compacts of the caller's whole heap (for a training job's trajectories, see
// docs/performance.md), so they are the last resort.

const utf8 = new TextEncoder();

/** The code units a JSON text may hold only as escapes to stay Latin-1. */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;
const EACH_BEYOND_LATIN1 = /[\u0100-\uffff]/g;

/** `\uXXXX`: the same JSON value in six ASCII characters (a pair of surrogates is two escapes,
 * as JSON allows; JSON.stringify already escapes a lone one). */
const escapeUnit = (unit: string): string => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** How much more memory than its UTF-8 a text form may hold and still be preferred to the
 * UTF-8 bytes (which cost full GCs instead). */
const SLACK = 1.25;

/** Entries of a long list written by one `JSON.stringify` when a text is written in parts. */
const SLICE = 256;

const joined = (parts: string[]): string => (parts.length === 1 ? parts[0]! : parts.join(""));

/** Characters re-encoded at a time by {@link oneByteJoined}. */
const CHUNK = 64 * 1024;
let scratch: Buffer | undefined;

/**
 * `parts` joined, all Latin-1, as a string V8 keeps at one byte a character. V8 writes the
 * result of a `replace` on a two-bytes-a-character string, and the join of such results, at
 * two bytes a character whatever the characters (docs/performance.md, "Text past Latin-1");
 * a string read back from Latin-1 bytes is one byte a
 * character. Chunk by chunk through one reused buffer, so no part of the text goes to V8's
 * external memory.
 */
function oneByteJoined(parts: string[]): string {
  scratch ??= Buffer.allocUnsafe(CHUNK);
  const out: string[] = [];
  for (const part of parts)
    for (let i = 0; i < part.length; i += CHUNK) {
      const n = scratch.write(i === 0 && part.length <= CHUNK ? part : part.slice(i, i + CHUNK), "latin1");
      out.push(scratch.toString("latin1", 0, n));
    }
  return joined(out);
}

/** The JSON text whose parts are `parts` in the form that holds it in the least memory, and
 * whether it has characters past Latin-1. */
function compacted(parts: string[]): { piece: string | Uint8Array; beyondLatin1: boolean } {
  let chars = 0;
  let bytes = 0;
  for (const part of parts) {
    chars += part.length;
    bytes += Buffer.byteLength(part);
  }
  if (bytes === chars || !parts.some((part) => BEYOND_LATIN1.test(part)))
    return { piece: joined(parts), beyondLatin1: false };
  // Each code unit past Latin-1 adds one or two bytes to the UTF-8: with few added bytes there
  // are at most as few units to escape (6 characters each instead of 1).
  if ((bytes - chars) * 5 < chars) {
    const escaped = parts.map((part) => part.replace(EACH_BEYOND_LATIN1, escapeUnit));
    let length = 0;
    for (const part of escaped) length += part.length;
    if (length <= bytes * SLACK) return { piece: oneByteJoined(escaped), beyondLatin1: true };
  }
  const text = joined(parts);
  return { piece: 2 * chars <= bytes * SLACK ? text : utf8.encode(text), beyondLatin1: true };
}

/**
 * `JSON.stringify(value)` in parts that each stay small (a long list a slice of entries at a
 * time), for a plain JSON value (as `toJSONValue` copies it: no `toJSON` functions, no
 * `undefined`): V8 allocates a small string where a collection of young objects frees it as
 * soon as it is dropped, whereas the one large string of a whole text waits for a full GC.
 */
function writeInParts(value: unknown, out: string[]): void {
  if (typeof value !== "object" || value === null) {
    out.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    out.push("[");
    if (value.length > SLICE) {
      for (let i = 0; i < value.length; i += SLICE) {
        const slice = JSON.stringify(value.slice(i, i + SLICE));
        out.push(i === 0 ? slice.slice(1, -1) : `,${slice.slice(1, -1)}`);
      }
    } else {
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.push(",");
        writeInParts(value[i], out);
      }
    }
    out.push("]");
  } else {
    let first = true;
    out.push("{");
    for (const key of Object.keys(value)) {
      out.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      writeInParts((value as Record<string, unknown>)[key], out);
    }
    out.push("}");
  }
}

/**
 * Writes the large parts of one body as JSON text, each in the form a large body holds it
 * until it is sent: the same JSON value (what the server parses), though not always the same
 * characters. In Node:
 *
 * - all Latin-1: the text as it is (one byte a character);
 * - a few characters past Latin-1 in mostly ASCII text (a Chinese word or an emoji here and
 *   there, the U+FFFD of a token cut inside a UTF-8 sequence; a token logprob entry is mostly
 *   ASCII whatever its token): those written as `\uXXXX` escapes, which keeps the text one byte
 *   a character; the body grows by 3 bytes per such character (4 per character outside the
 *   BMP);
 * - mostly such characters (Chinese prose): the text as it is, whose two bytes a character are
 *   then no more than its UTF-8;
 * - in between, where both would hold over 1.25 times its UTF-8: its UTF-8 bytes.
 *
 * Once a part has had characters past Latin-1, the next ones are written in small parts first
 * (the parts of one body tend to be alike), so that their two-bytes-a-character text is freed
 * early instead of piling up until a full GC. Elsewhere (no `Buffer`: the fetch transport,
 * which joins the body into one string) each text is `JSON.stringify`'s as it is.
 */
export class CompactJSONWriter {
  #inParts = false;

  /**
   * The JSON text of `value`, a plain JSON value (as `toJSONValue` copies it).
   */
  write(value: unknown): string | Uint8Array {
    if (typeof Buffer !== "function") return JSON.stringify(value);
    let parts: string[];
    if (this.#inParts) {
      parts = [];
      writeInParts(value, parts);
    } else {
      parts = [JSON.stringify(value)];
    }
    const { piece, beyondLatin1 } = compacted(parts);
    this.#inParts = beyondLatin1;
    return piece;
  }
}
