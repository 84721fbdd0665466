import { InferloopError, RequestValidationError } from "./errors.js";

// RFC 9110 field names are tokens; values may not hold CR, LF or NUL, which would end the
// header (or the request) early. undici refuses both with a bare "invalid argument" error that
// names neither the option nor the header, and that error used to count as retryable.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BREAKING = /[\r\n\0]/;
const BAD_VALUE = "contains CR, LF or NUL, which cannot be sent in a header (a trailing newline from a file?)";

/** What is wrong with each entry, as `[what, problem]` pairs. Values are never quoted: they
 * may be secrets. `named` entries are header names to check as tokens too. */
function problems(entries: Record<string, unknown> | undefined, named: boolean, prefix: string): string[][] {
  const out: string[][] = [];
  for (const [key, value] of Object.entries(entries ?? {})) {
    if (value == null) continue;
    const what = `${prefix}${key.slice(0, 60)}`;
    if (named && !TOKEN.test(key)) out.push([what, "is not a valid header name"]);
    else if (typeof value !== "string") out.push([what, "must be a string"]);
    else if (BREAKING.test(value)) out.push([what, BAD_VALUE]);
  }
  return out;
}

/**
 * Refuse, at construction, a client option that would become an unsendable header value
 * (`apiKey`, `username`, `password`, `project`) or an invalid `defaultHeaders` entry.
 */
export function checkClientHeaders(
  values: Record<string, string | undefined>,
  defaultHeaders: Record<string, string | null | undefined> | undefined,
): void {
  const [first] = [...problems(values, false, ""), ...problems(defaultHeaders, true, "defaultHeaders.")];
  if (first) throw new InferloopError(`\`${first[0]}\` ${first[1]}.`);
}

/**
 * Refuse, before anything is sent, request headers and an idempotency key that cannot be sent.
 * Thrown as `RequestValidationError`, so nothing is sent and nothing is retried.
 */
export function checkRequestHeaders(
  headers: Record<string, string | null | undefined> | undefined,
  idempotencyKey: string | undefined,
): void {
  const found = [...problems(headers, true, "headers."), ...problems({ idempotencyKey }, false, "")];
  if (found.length)
    throw new RequestValidationError(
      found.map(([path, message]) => ({ path: path!, message: message! })),
      "request options",
    );
}
