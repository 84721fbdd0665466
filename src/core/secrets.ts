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

  /** A deep copy of a JSON value with every string scrubbed. */
  value<T>(value: T): T {
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.value(v)) as T;
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.value(v);
      return out as T;
    }
    return value;
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
