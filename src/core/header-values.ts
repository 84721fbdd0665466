import { InferloopError, RequestValidationError } from "./errors.js";

// RFC 9110 field names are tokens; values may not hold CR, LF or NUL, which would end the
// header (or the request) early. undici refuses both with a bare "invalid argument" error that
// names neither the option nor the header, and that error used to count as retryable.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BREAKING = /[\r\n\0]/;

const VALUE_PROBLEM =
  "contains a line break (CR, LF) or NUL, which cannot be sent in an HTTP header; check for a trailing newline where the value is read from a file or the environment";

/** What is wrong with one header, or `undefined`. The value is never quoted: it may be a secret. */
function headerProblem(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return "is not a valid HTTP header name";
  if (typeof value !== "string") return `must be a string, got ${value === null ? "null" : typeof value}`;
  if (BREAKING.test(value)) return VALUE_PROBLEM;
  return undefined;
}

/**
 * Refuse, at construction, a client option that would become an unsendable header value
 * (`apiKey`, `username`, `password`, `project`) or an invalid `defaultHeaders` entry.
 */
export function checkClientHeaders(
  values: Record<string, string | undefined>,
  defaultHeaders: Record<string, string | null | undefined> | undefined,
): void {
  for (const [option, value] of Object.entries(values)) {
    if (value !== undefined && BREAKING.test(value)) throw new InferloopError(`\`${option}\` ${VALUE_PROBLEM}.`);
  }
  for (const [name, value] of Object.entries(defaultHeaders ?? {})) {
    if (value === null || value === undefined) continue;
    const problem = headerProblem(name, value);
    if (problem) throw new InferloopError(`\`defaultHeaders\` entry "${name.slice(0, 60)}" ${problem}.`);
  }
}

/**
 * Refuse, before anything is sent, request headers and an idempotency key that cannot be sent.
 * Thrown as `RequestValidationError`, so nothing is sent and nothing is retried.
 */
export function checkRequestHeaders(
  headers: Record<string, string | null | undefined> | undefined,
  idempotencyKey: string | undefined,
): void {
  const issues: { path: string; message: string }[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === null || value === undefined) continue;
    const problem = headerProblem(name, value);
    if (problem) issues.push({ path: `headers.${name.slice(0, 60)}`, message: problem });
  }
  if (typeof idempotencyKey === "string" && BREAKING.test(idempotencyKey))
    issues.push({ path: "idempotencyKey", message: VALUE_PROBLEM });
  if (issues.length) throw new RequestValidationError(issues, "request options");
}
