/** What stands in for a secret wherever one would have been printed. */
export const REDACTED = "[redacted]";

/**
 * Removes the client's secrets (API key, password, the encoded Basic value) from any text
 * before it becomes part of an error or a log line. A server may echo a credential back in
 * its error text, so messages and bodies are scrubbed, not only our own headers.
 */
export class Redactor {
  readonly #secrets: string[];

  constructor(secrets: (string | undefined)[]) {
    // Longest first, so a secret that contains another is removed whole. Very short values
    // would scrub ordinary words, so they are left alone (no real key is that short).
    this.#secrets = [...new Set(secrets.filter((s): s is string => !!s && s.length >= 4))].sort(
      (a, b) => b.length - a.length,
    );
  }

  /** The text with every known secret replaced. */
  text(value: string): string {
    let out = value;
    for (const s of this.#secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    // Any Authorization-looking value, whoever's it is.
    return out.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g, `$1 ${REDACTED}`);
  }

  /**
   * A deep copy of a JSON value with every string scrubbed. Iterative, so a body nested
   * 50 000 levels deep (which `JSON.parse` accepts) costs time, not the stack; and a
   * `__proto__` key is defined as an own property, so it stays data instead of choosing the
   * copy's prototype.
   */
  value<T>(value: T): T {
    const scrub = (v: unknown): unknown => (typeof v === "string" ? this.text(v) : v);
    if (typeof value !== "object" || value === null) return scrub(value) as T;
    const root: unknown = Array.isArray(value) ? [] : {};
    const stack: Array<[from: object, into: Record<string, unknown>]> = [[value, root as Record<string, unknown>]];
    while (stack.length > 0) {
      const [from, into] = stack.pop()!;
      for (const key of Object.keys(from)) {
        const v = (from as Record<string, unknown>)[key];
        let copy: unknown = scrub(v);
        if (typeof v === "object" && v !== null) {
          copy = Array.isArray(v) ? [] : {};
          stack.push([v, copy as Record<string, unknown>]);
        }
        if (key === "__proto__")
          Object.defineProperty(into, key, { value: copy, writable: true, enumerable: true, configurable: true });
        else into[key] = copy;
      }
    }
    return root as T;
  }

  /**
   * Scrub an error and its `cause` chain in place: each message and stack has the secrets
   * replaced, the causes (errors of other libraries) lose any object they carry, and a cause
   * that is not an `Error` (a custom fetch may reject with the request, headers and all) is
   * replaced by a plain `Error` saying what it was. Returns its argument.
   */
  error<E>(err: E): E {
    const setCause = (on: Error, cause: unknown) =>
      Object.defineProperty(on, "cause", { value: cause, writable: true, configurable: true });
    let parent: Error | undefined;
    let current: unknown = err;
    for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
      try {
        this.#scrubError(current, parent !== undefined);
      } catch {
        // A frozen error from elsewhere cannot be scrubbed, so it is not passed on.
        if (parent) setCause(parent, new Error(`${current.name} (dropped: it could not be scrubbed of secrets)`));
        break;
      }
      const cause: unknown = current.cause;
      if (cause === undefined) break;
      if (!(cause instanceof Error)) {
        setCause(current, new Error(typeof cause === "string" ? this.text(cause) : `a non-Error ${typeof cause}`));
        break;
      }
      parent = current;
      current = cause;
    }
    return err;
  }

  #scrubError(e: Error, foreign: boolean): void {
    const set = (key: "message" | "stack", value: string | undefined) => {
      if (typeof value !== "string") return;
      const clean = this.text(value);
      if (clean !== value) Object.defineProperty(e, key, { value: clean, writable: true, configurable: true });
    };
    set("message", e.message);
    set("stack", e.stack);
    if (!foreign) return;
    // Anything else a foreign error carries (a request, its headers, a config) may hold a
    // secret too: strings are scrubbed, objects dropped.
    for (const key of Object.keys(e)) {
      const v: unknown = Reflect.get(e, key);
      if (key === "cause" || key === "code" || key === "errno" || key === "syscall") continue;
      if (typeof v === "string") Reflect.set(e, key, this.text(v));
      else if (typeof v === "object" && v !== null && !(v instanceof Error)) Reflect.deleteProperty(e, key);
    }
  }

  /** Header values safe to log: credentials are hidden whatever they are. */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      out[k] = /^(authorization|proxy-authorization|cookie|x-api-key)$/i.test(k) ? REDACTED : this.text(v);
    }
    return out;
  }

  /** Never print the secrets when the redactor itself is inspected. */
  toJSON(): string {
    return "Redactor";
  }
}
