import { kindOf } from "../decoding/response-checks.js";
import { RequestValidationError, type ValidationIssue } from "../errors/errors.js";
import type { ClientOptions, RequestOptions } from "../pipeline/options.js";
import { closestName } from "./closest-name.js";

/** Every option of `new Inferloop(...)`, at run time (the compiler checks the list is whole). */
export const CLIENT_OPTION_NAMES = [
  "apiKey",
  "username",
  "password",
  "baseURL",
  "traceBaseURL",
  "trainingBaseURL",
  "wandbBaseURL",
  "project",
  "timeout",
  "idleTimeout",
  "eventTimeout",
  "maxBufferBytes",
  "maxRetries",
  "defaultHeaders",
  "fetch",
  "dispatcher",
  "logger",
  "logLevel",
  "extraBody",
  "telemetry",
] as const satisfies readonly (keyof ClientOptions)[];

/** Every option a single request takes (the compiler checks the list is whole). */
export const REQUEST_OPTION_NAMES = [
  "signal",
  "timeout",
  "idleTimeout",
  "eventTimeout",
  "maxBufferBytes",
  "maxRetries",
  "headers",
  "idempotencyKey",
  "extraBody",
] as const satisfies readonly (keyof RequestOptions)[];

/**
 * `true` when the list `L` names every key of `T`, else `never`: assigning `true` to it is then a
 * compile error, so a runtime list of option names cannot fall behind its interface.
 */
export type ListsEveryKey<T, L extends readonly unknown[]> = Exclude<keyof T, L[number]> extends never ? true : never;
const wholeLists: [
  ListsEveryKey<ClientOptions, typeof CLIENT_OPTION_NAMES>,
  ListsEveryKey<RequestOptions, typeof REQUEST_OPTION_NAMES>,
] = [true, true];
void wholeLists;

/**
 * How one numeric option is checked: a finite number at or above `min`, and a whole number
 * when `integer` is set. One row per option, so an option added later (a new timeout, a size
 * cap) needs one line here and is then checked alike in the constructor and per request.
 */
interface NumericRule {
  min: number;
  integer?: boolean;
  /** What the value means, for the message. */
  unit: string;
}

/** Every numeric option a client or a single request accepts. */
export const NUMERIC_OPTIONS: Readonly<Record<string, NumericRule>> = {
  timeout: { min: 0, unit: "milliseconds" },
  idleTimeout: { min: 0, unit: "milliseconds" },
  maxRetries: { min: 0, integer: true, unit: "retries" },
  eventTimeout: { min: 0, unit: "milliseconds" },
  maxBufferBytes: { min: 0, integer: true, unit: "bytes" },
};

// Characters a header value cannot carry (CR, LF, NUL and the other controls but tab).
function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return true;
  }
  return false;
}

function describeValue(value: unknown): string {
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 20))}`;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return kindOf(value);
}

function numericIssue(name: string, value: unknown, rule: NumericRule): ValidationIssue | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value >= rule.min) {
    if (!rule.integer || Number.isInteger(value)) return undefined;
  }
  const kind = rule.integer ? "a whole number" : "a finite number";
  return {
    path: name,
    message: `must be ${kind} >= ${rule.min} (${rule.unit}), got ${describeValue(value)}`,
    code: "invalid_option",
  };
}

function isAbortSignal(value: unknown): boolean {
  if (typeof AbortSignal !== "undefined" && value instanceof AbortSignal) return true;
  // A signal from another realm or polyfill: what the SDK calls on it is all that matters.
  const s = value as { aborted?: unknown; addEventListener?: unknown; removeEventListener?: unknown } | null;
  return (
    typeof s === "object" &&
    s !== null &&
    typeof s.aborted === "boolean" &&
    typeof s.addEventListener === "function" &&
    typeof s.removeEventListener === "function"
  );
}

function headersIssues(name: string, value: unknown, out: ValidationIssue[]): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    out.push({ path: name, message: `must be an object of header values, got ${describeValue(value)}` });
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (v === null || v === undefined || typeof v === "string") continue;
    out.push({ path: `${name}.${key}`, message: `must be a string, or null to remove it, got ${describeValue(v)}` });
  }
}

/**
 * The problems of the options shared by the client and by every request: the numeric ones
 * of {@link NUMERIC_OPTIONS}, `signal`, `headers`/`defaultHeaders` and `idempotencyKey`.
 * Other keys are left to whoever owns them. An absent (`undefined`) option is never a problem.
 */
export function optionIssues(options: object): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const o = options as Record<string, unknown>;
  for (const name in NUMERIC_OPTIONS) {
    const value = o[name];
    if (value === undefined) continue;
    const issue = numericIssue(name, value, NUMERIC_OPTIONS[name]!);
    if (issue) out.push(issue);
  }
  if (o.signal !== undefined && !isAbortSignal(o.signal))
    out.push({ path: "signal", message: `must be an AbortSignal, got ${describeValue(o.signal)}` });
  for (const name of ["headers", "defaultHeaders"]) if (o[name] !== undefined) headersIssues(name, o[name], out);
  const key = o.idempotencyKey;
  if (key !== undefined) {
    if (typeof key !== "string" || key.trim() === "")
      out.push({
        path: "idempotencyKey",
        message: `must be a non-blank string (one per logical operation, e.g. crypto.randomUUID()), got ${describeValue(key)}`,
      });
    else if (hasControlCharacter(key))
      out.push({ path: "idempotencyKey", message: "must not contain control characters (it is sent as a header)" });
  }
  return out;
}

/**
 * The problems of the option names in `options` (own string keys): with `only: "near misses"`,
 * a key that is not in `known` but within two edits of one that is (`timout`) is refused with a
 * "did you mean" and other keys are left alone (they may belong to the method: `pageSize`);
 * with `only: "known"`, every key not in `known` is refused, with the closest name when one is near.
 * JavaScript callers have no compiler to catch a misspelt option, which would be ignored silently.
 *
 * @example
 * ```ts
 * optionNameIssues({ apikey: "k" }, CLIENT_OPTION_NAMES, "known");
 * // [{ path: "apikey", message: 'unknown option "apikey" (did you mean "apiKey"?)', code: "unknown_option" }]
 * ```
 */
export function optionNameIssues(
  options: object,
  known: readonly string[],
  only: "known" | "near misses",
): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    // Case-insensitive first: `apikey` and `baseUrl` are the likeliest slips.
    const near = known.find((k) => k.toLowerCase() === key.toLowerCase()) ?? closestName(key, known);
    if (near === undefined && only === "near misses") continue;
    const hint = near === undefined ? `; the options are ${known.join(", ")}` : ` (did you mean "${near}"?)`;
    out.push({ path: key, message: `unknown option "${key}"${hint}`, code: "unknown_option" });
  }
  return out;
}

/**
 * Throw a {@link RequestValidationError} when `options` break a rule of {@link optionIssues}.
 * The constructor and every request run this same check, so a value refused by one is refused
 * by the other, and a bad per-request option fails before anything is sent. A misspelt option
 * name is refused too ({@link optionNameIssues}).
 */
export function checkOptions(options: object | undefined, what: "client options" | `${string} request`): void {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null) {
    const issue = { path: "", message: `must be an object, got ${describeValue(options)}` };
    throw new RequestValidationError([issue], what);
  }
  // A client's options are all its own; a request's may carry the method's (`pageSize`,
  // `project`), so there only a near miss of a request option is refused.
  const issues =
    what === "client options"
      ? [...optionNameIssues(options, CLIENT_OPTION_NAMES, "known"), ...optionIssues(options)]
      : [...optionNameIssues(options, REQUEST_OPTION_NAMES, "near misses"), ...optionIssues(options)];
  if (issues.length) throw new RequestValidationError(issues, what);
}
