import { RequestValidationError, type ValidationIssue } from "./errors.js";
import { kindOf } from "./response-shape.js";

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
 * Throw a {@link RequestValidationError} when `options` break a rule of {@link optionIssues}.
 * The constructor and every request run this same check, so a value refused by one is refused
 * by the other, and a bad per-request option fails before anything is sent.
 */
export function checkOptions(options: object | undefined, what: string): void {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null) {
    const issue = { path: "", message: `must be an object, got ${describeValue(options)}` };
    throw new RequestValidationError([issue], what);
  }
  const issues = optionIssues(options);
  if (issues.length) throw new RequestValidationError(issues, what);
}
