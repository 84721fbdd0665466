/**
 * A tiny validator that reports problems the way FastAPI/pydantic v2 does (`{loc, msg, type}`),
 * so the fake's 422 bodies look like the real trace and training servers'.
 */
import { isRecord, isUuid } from "./util.js";

/**
 * One entry of a FastAPI `detail` array.
 */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/**
 * A check appends issues for `value` found at `loc`.
 */
export type Check = (value: unknown, loc: Array<string | number>, issues: ValidationIssue[]) => void;

/**
 * Field of an {@link obj} check.
 */
export interface FieldSpec {
  check: Check;
  required?: boolean;
}

function simple(test: (v: unknown) => boolean, msg: string, type: string): Check {
  return (value, loc, issues) => {
    if (!test(value)) issues.push({ loc, msg, type });
  };
}

/**
 * String check.
 */
export const str = (): Check => simple((v) => typeof v === "string", "Input should be a valid string", "string_type");

/**
 * Integer check (JSON numbers with no fraction).
 */
export const int = (): Check =>
  simple((v) => typeof v === "number" && Number.isInteger(v), "Input should be a valid integer", "int_type");

/**
 * Number check.
 */
export const num = (): Check =>
  simple((v) => typeof v === "number" && Number.isFinite(v), "Input should be a valid number", "float_type");

/**
 * Boolean check.
 */
export const bool = (): Check => simple((v) => typeof v === "boolean", "Input should be a valid boolean", "bool_type");

/**
 * Accepts anything (pydantic `Any`).
 */
export const anything = (): Check => () => {};

/**
 * UUID string check.
 */
export const uuid = (): Check => (value, loc, issues) => {
  if (typeof value !== "string")
    issues.push({ loc, msg: "UUID input should be a string, bytes or UUID object", type: "uuid_type" });
  else if (!isUuid(value))
    issues.push({ loc, msg: "Input should be a valid UUID, invalid character", type: "uuid_parsing" });
};

/**
 * ISO date-time string check.
 */
export const datetime = (): Check => (value, loc, issues) => {
  if (
    typeof value !== "string" ||
    !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value) ||
    Number.isNaN(Date.parse(value))
  ) {
    issues.push({ loc, msg: "Input should be a valid datetime", type: "datetime_from_date_parsing" });
  }
};

/**
 * One of the given literal strings.
 */
export const literal = (values: readonly string[]): Check =>
  simple(
    (v) => typeof v === "string" && values.includes(v),
    `Input should be ${values.map((v) => `'${v}'`).join(" or ")}`,
    "literal_error",
  );

/**
 * Accepts null as well as what `check` accepts.
 */
export const nullable =
  (check: Check): Check =>
  (value, loc, issues) => {
    if (value !== null) check(value, loc, issues);
  };

/**
 * Accepts the first of several checks that passes; reports the issues of the last otherwise.
 */
export const oneOf =
  (...checks: Check[]): Check =>
  (value, loc, issues) => {
    let last: ValidationIssue[] = [];
    for (const check of checks) {
      const attempt: ValidationIssue[] = [];
      check(value, loc, attempt);
      if (attempt.length === 0) return;
      last = attempt;
    }
    issues.push(...last);
  };

/**
 * List whose items pass `item`.
 *
 * @example
 * ```ts
 * const issues: ValidationIssue[] = [];
 * list(str())(["a", 1], ["body", "columns"], issues); // issues[0].loc: ["body", "columns", 1]
 * ```
 */
export const list =
  (item: Check): Check =>
  (value, loc, issues) => {
    if (!Array.isArray(value)) {
      issues.push({ loc, msg: "Input should be a valid list", type: "list_type" });
      return;
    }
    value.forEach((v, i) => item(v, [...loc, i], issues));
  };

/**
 * Dictionary whose values pass `item`.
 */
export const dict =
  (item: Check = anything()): Check =>
  (value, loc, issues) => {
    if (!isRecord(value)) {
      issues.push({ loc, msg: "Input should be a valid dictionary", type: "dict_type" });
      return;
    }
    for (const [k, v] of Object.entries(value)) item(v, [...loc, k], issues);
  };

/**
 * Object with known fields; `extra: "forbid"` refuses unknown keys as pydantic's
 * `extra="forbid"` models do.
 */
export const obj =
  (fields: Record<string, FieldSpec>, extra: "forbid" | "allow"): Check =>
  (value, loc, issues) => {
    if (!isRecord(value)) {
      issues.push({
        loc,
        msg: "Input should be a valid dictionary or object to extract fields from",
        type: "model_attributes_type",
      });
      return;
    }
    for (const [name, spec] of Object.entries(fields)) {
      if (!(name in value) || value[name] === undefined) {
        if (spec.required) issues.push({ loc: [...loc, name], msg: "Field required", type: "missing" });
        continue;
      }
      spec.check(value[name], [...loc, name], issues);
    }
    if (extra === "forbid") {
      for (const name of Object.keys(value)) {
        if (!(name in fields))
          issues.push({ loc: [...loc, name], msg: "Extra inputs are not permitted", type: "extra_forbidden" });
      }
    }
  };

/**
 * Runs `check` on a request body and returns the issues (empty when valid).
 *
 * @example
 * ```ts
 * const issues = validateBody(obj({}, "forbid"), { x: 1 }); // one extra_forbidden issue
 * ```
 */
export function validateBody(check: Check, body: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  check(body, ["body"], issues);
  return issues;
}
