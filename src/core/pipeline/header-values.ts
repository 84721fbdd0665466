import { RequestValidationError } from "../errors/errors.js";

// RFC 9110 field names are tokens; values may not hold control characters (C0 but the tab, and
// DEL): CR, LF and NUL would end the header (or the request) early, and undici refuses all of
// them with a bare "invalid argument" error that names neither the option nor the header, and
// that error used to count as retryable.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
const BAD_VALUE =
  "contains a control character (NUL, CR, LF, DEL or another below U+0020 but the tab), which cannot be sent in a header (a trailing newline from a file?): remove it";
/**
 * Whether `s` holds a control character a header value cannot carry: C0 but the tab, and DEL.
 * @example
 * ```ts
 * hasControlCharacter("acme/bot\n"); // true
 * hasControlCharacter("acme/bot"); // false
 * ```
 */
export function hasControlCharacter(s: string): boolean {
  return CONTROL.test(s);
}
// Header values are Latin-1 (ISO-8859-1) bytes; fetch refuses anything above U+00FF with a
// bare TypeError that undici reports as a connection error, and the request used to be retried.
/**
 * Whether every character of `s` is Latin-1 (at most U+00FF), as a header value must be.
 */
export function isLatin1(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return false;
  return true;
}
const NOT_LATIN1 =
  "contains characters outside Latin-1 (ISO-8859-1), which a header cannot carry (a smart quote or other character pasted in?): remove them, or percent-encode the value";

/** What is wrong with each entry, as `[what, problem]` pairs. Values are never quoted: they
 * may be secrets. `named` entries are header names to check as tokens too. Entries listed in
 * `encoded` are base64-encoded before sending (Basic credentials), so any text works there. */
function problems(
  entries: Record<string, unknown> | undefined,
  named: boolean,
  prefix: string,
  encoded: readonly string[] = [],
): string[][] {
  const out: string[][] = [];
  for (const [key, value] of Object.entries(entries ?? {})) {
    if (value == null) continue;
    const what = `${prefix}${key.slice(0, 60)}`;
    if (named && !TOKEN.test(key)) out.push([what, "is not a valid header name"]);
    else if (typeof value !== "string") out.push([what, "must be a string"]);
    else if (CONTROL.test(value)) out.push([what, BAD_VALUE]);
    else if (!encoded.includes(key) && !isLatin1(value)) out.push([what, NOT_LATIN1]);
  }
  return out;
}

/**
 * Refuse, at construction, a client option that would become an unsendable header value
 * (`apiKey`, `username`, `password`, `project`) or an invalid `defaultHeaders` entry, and a
 * `username` holding a colon, which Basic auth cannot carry (RFC 7617: the first colon ends the
 * user id). Thrown as `RequestValidationError` naming the option, never quoting its value.
 */
export function checkClientHeaders(
  values: Record<string, string | undefined>,
  defaultHeaders: Record<string, string | null | undefined> | undefined,
): void {
  const found = [
    ...problems(values, false, "", ["username", "password"]),
    ...problems(defaultHeaders, true, "defaultHeaders."),
  ];
  if (values["username"]?.includes(":"))
    found.push(["username", "contains a colon, which Basic auth cannot carry (RFC 7617): use a user name without one"]);
  const [first] = found;
  if (first) throw new RequestValidationError([{ path: first[0]!, message: first[1]! }], "client option");
}

/**
 * Refuse, before anything is sent, request headers and an idempotency key that cannot be sent.
 * Thrown as `RequestValidationError`, so nothing is sent and nothing is retried.
 */
export function checkRequestHeaders(
  headers: Record<string, string | null | undefined> | undefined,
  idempotencyKey: string | undefined,
  operation: string,
): void {
  if (headers === undefined && idempotencyKey === undefined) return;
  const found = [...problems(headers, true, "headers."), ...problems({ idempotencyKey }, false, "")];
  if (found.length)
    throw new RequestValidationError(
      found.map(([path, message]) => ({ path: path!, message: message! })),
      `${operation} request`,
    );
}
