/**
 * Reads the beginning of a JSON text as far as it goes, for showing structured output while it
 * streams in. Strings cut off are kept as far as they arrived; a number, `true`, `false` or
 * `null` cut off, and an object key still waiting for its value, are left out (a half number
 * would show a value the model never wrote).
 *
 * @module
 */

/** Nothing usable was read at this position. */
const NONE: unique symbol = Symbol("none");
type Read = unknown | typeof NONE;

/**
 * The value of a JSON prefix, or `undefined` when not even its start can be read yet. Complete
 * JSON gives what `JSON.parse` gives.
 *
 * @example
 * ```ts
 * parsePartialJSON('{"city":"Par'); // { city: "Par" }
 * parsePartialJSON('{"temps":[21, 2'); // { temps: [21] }
 * ```
 */
export function parsePartialJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // The common case while streaming: read what is there by hand.
  }
  try {
    const value = new PrefixReader(text).value();
    return value === NONE ? undefined : value;
  } catch {
    // Not JSON at all (a model that ignored the format): nothing to show.
    return undefined;
  }
}

class PrefixReader {
  #i = 0;
  readonly #s: string;
  constructor(s: string) {
    this.#s = s;
  }

  #space(): void {
    while (this.#i < this.#s.length && " \t\n\r".includes(this.#s[this.#i]!)) this.#i++;
  }

  /** Whether the text ended (so whatever is open stays open). */
  #end(): boolean {
    this.#space();
    return this.#i >= this.#s.length;
  }

  value(): Read {
    if (this.#end()) return NONE;
    const c = this.#s[this.#i]!;
    if (c === "{") return this.#object();
    if (c === "[") return this.#array();
    if (c === '"') return this.#string().value;
    return this.#scalar();
  }

  #object(): Read {
    this.#i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      if (this.#end()) return out;
      if (this.#s[this.#i] === "}") {
        this.#i++;
        return out;
      }
      if (this.#s[this.#i] === ",") this.#i++;
      if (this.#end()) return out;
      const key = this.#string();
      if (!key.closed || this.#end()) return out;
      if (this.#s[this.#i] !== ":") throw new SyntaxError("expected ':'");
      this.#i++;
      const v = this.value();
      if (v === NONE) return out;
      out[key.value] = v;
    }
  }

  #array(): Read {
    this.#i++;
    const out: unknown[] = [];
    for (;;) {
      if (this.#end()) return out;
      if (this.#s[this.#i] === "]") {
        this.#i++;
        return out;
      }
      if (this.#s[this.#i] === ",") this.#i++;
      const v = this.value();
      if (v === NONE) return out;
      out.push(v);
    }
  }

  #string(): { value: string; closed: boolean } {
    const s = this.#s;
    if (s[this.#i] !== '"') throw new SyntaxError("expected a string");
    let j = this.#i + 1;
    while (j < s.length && s[j] !== '"') j += s[j] === "\\" ? 2 : 1;
    if (j < s.length) {
      const value = JSON.parse(s.slice(this.#i, j + 1)) as string;
      this.#i = j + 1;
      return { value, closed: true };
    }
    // Cut off: drop a half escape sequence (`\`, `\u00`), then read the rest as a string.
    let body = s.slice(this.#i + 1);
    this.#i = s.length;
    for (let k = 0; k < body.length; k++) {
      if (body[k] !== "\\") continue;
      const length = body[k + 1] === "u" ? 6 : 2;
      if (k + length > body.length) {
        body = body.slice(0, k);
        break;
      }
      k += length - 1;
    }
    return { value: JSON.parse(`"${body}"`) as string, closed: false };
  }

  #scalar(): Read {
    const rest = this.#s.slice(this.#i);
    const m = /^-?[0-9.eE+-]+|^true|^false|^null/.exec(rest);
    if (!m) {
      if (["true", "false", "null"].some((word) => word.startsWith(rest))) return NONE;
      throw new SyntaxError("unexpected character");
    }
    this.#i += m[0].length;
    // A scalar at the very end may continue in the next chunk (`1` of `12`, `tru`): not yet.
    if (this.#i >= this.#s.length) return NONE;
    return JSON.parse(m[0]) as unknown;
  }
}
