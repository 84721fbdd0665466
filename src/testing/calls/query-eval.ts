/**
 * The trace server's query-expression language (`{"$expr": ...}`): shape validation that
 * reports like pydantic, and evaluation against a call record.
 *
 * Comparison semantics follow the server's casting rules loosely: numbers compare numerically
 * (numeric strings are converted when the other side is a number), everything else compares as
 * strings, and a missing field is `null`, which is never greater or less than anything.
 * `$containsToken` is ClickHouse's `hasToken` (W&B's production trace server runs ClickHouse).
 */
import { getPath, isRecord } from "../util.js";
import type { ValidationIssue } from "../validate.js";

type Loc = Array<string | number>;

const BINARY = ["$eq", "$gt", "$gte", "$lt", "$lte"] as const;
const CONVERT_TO = ["double", "string", "int", "bool", "exists"] as const;

function issue(issues: ValidationIssue[], loc: Loc, msg: string, type = "value_error"): void {
  issues.push({ loc, msg, type });
}

// Weave's LiteralOperation: a scalar, or a list/dict whose every member is itself a
// `{"$literal": ...}` operand (weave/trace_server/interface/query.py). A bare array or object is
// a 422 whose detail lists the union's alternatives, as pydantic reports it.
function validateLiteral(value: unknown, loc: Loc, issues: ValidationIssue[]): void {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") return;
  const members: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : isRecord(value)
      ? Object.entries(value)
      : [];
  if (!Array.isArray(value) && !isRecord(value)) {
    issue(issues, loc, "Input should be a valid literal", "literal_error");
    return;
  }
  for (const [k, member] of members) {
    const at = [...loc, Array.isArray(value) ? "list[LiteralOperation]" : "dict[str,LiteralOperation]", k];
    if (!isRecord(member) || Object.keys(member).length !== 1 || !("$literal" in member)) {
      issue(issues, at, "Input should be a valid dictionary or instance of LiteralOperation", "model_type");
      continue;
    }
    validateLiteral(member["$literal"], [...at, "$literal"], issues);
  }
}

// A `$literal` holding a list or dict of operands passes Weave's request model, but W&B's
// ClickHouse query builder has no parameter type for it: `orm.python_value_to_ch_type` raises
// `ValueError("Unknown value type: ...")`, answered 400 (the sqlite server fails with a 500).
// The value as Python prints it, for that message.
function pythonRepr(value: unknown): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (isRecord(value)) {
    if ("$literal" in value) return `LiteralOperation(literal_=${pythonRepr(value["$literal"])})`;
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/**
 * The first `$literal` of a validated query that holds a list or an object (which Weave's
 * ClickHouse server cannot run), as the words of its refusal; `undefined` when there is none.
 *
 * @example
 * ```ts
 * unrunnableLiteral({ $expr: { $eq: [{ $getField: "a" }, { $literal: [{ $literal: 1 }] }] } });
 * // "Unknown value type: [LiteralOperation(literal_=1)]"
 * ```
 */
export function unrunnableLiteral(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = unrunnableLiteral(n);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isRecord(node)) return undefined;
  if ("$literal" in node && Object.keys(node).length === 1) {
    const v = node["$literal"];
    return typeof v === "object" && v !== null ? `Unknown value type: ${pythonRepr(v)}` : undefined;
  }
  for (const v of Object.values(node)) {
    const found = unrunnableLiteral(v);
    if (found !== undefined) return found;
  }
  return undefined;
}

function validateOperand(node: unknown, loc: Loc, issues: ValidationIssue[]): void {
  if (!isRecord(node)) {
    issue(issues, loc, "Input should be a valid dictionary or object to extract fields from", "model_attributes_type");
    return;
  }
  const keys = Object.keys(node);
  if (keys.length !== 1) {
    issue(issues, loc, `An operation must have exactly one operator key, got ${keys.length}`);
    return;
  }
  const op = keys[0]!;
  const arg = node[op];
  const at = [...loc, op];
  switch (op) {
    case "$literal":
      return validateLiteral(arg, at, issues);
    case "$getField":
      if (typeof arg !== "string") issue(issues, at, "Input should be a valid string", "string_type");
      return;
    case "$convert": {
      if (!isRecord(arg)) return issue(issues, at, "Input should be a valid dictionary", "dict_type");
      if (!("input" in arg)) issue(issues, [...at, "input"], "Field required", "missing");
      else validateOperand(arg["input"], [...at, "input"], issues);
      if (!CONVERT_TO.includes(arg["to"] as never)) {
        issue(issues, [...at, "to"], "Input should be 'double', 'string', 'int', 'bool' or 'exists'", "literal_error");
      }
      for (const k of Object.keys(arg))
        if (k !== "input" && k !== "to") issue(issues, [...at, k], "Extra inputs are not permitted", "extra_forbidden");
      return;
    }
    case "$and":
    case "$or":
      if (!Array.isArray(arg)) return issue(issues, at, "Input should be a valid list", "list_type");
      arg.forEach((v, i) => validateOperand(v, [...at, i], issues));
      return;
    case "$not":
      if (!Array.isArray(arg) || arg.length !== 1)
        return issue(issues, at, "Tuple should have exactly 1 item", "too_short");
      validateOperand(arg[0], [...at, 0], issues);
      return;
    case "$in":
      if (!Array.isArray(arg) || arg.length !== 2 || !Array.isArray(arg[1])) {
        return issue(issues, at, "Input should be a pair: [operand, [operands]]", "tuple_type");
      }
      validateOperand(arg[0], [...at, 0], issues);
      (arg[1] as unknown[]).forEach((v, i) => validateOperand(v, [...at, 1, i], issues));
      return;
    case "$contains":
    case "$containsToken": {
      if (!isRecord(arg)) return issue(issues, at, "Input should be a valid dictionary", "dict_type");
      for (const k of ["input", "substr"]) {
        if (!(k in arg)) issue(issues, [...at, k], "Field required", "missing");
        else validateOperand(arg[k], [...at, k], issues);
      }
      const ci = arg["case_insensitive"];
      if (ci !== undefined && ci !== null && typeof ci !== "boolean")
        issue(issues, [...at, "case_insensitive"], "Input should be a valid boolean", "bool_type");
      for (const k of Object.keys(arg)) {
        if (!["input", "substr", "case_insensitive"].includes(k))
          issue(issues, [...at, k], "Extra inputs are not permitted", "extra_forbidden");
      }
      return;
    }
    default:
      if ((BINARY as readonly string[]).includes(op)) {
        if (!Array.isArray(arg) || arg.length !== 2)
          return issue(issues, at, "Tuple should have exactly 2 items", "too_short");
        arg.forEach((v, i) => validateOperand(v, [...at, i], issues));
        return;
      }
      issue(issues, at, `Unknown operator ${op}`, "union_tag_invalid");
  }
}

/**
 * Validates a `query` member (`{"$expr": Operation}`), with locations under `body.query`.
 *
 * @example
 * ```ts
 * validateQuery({ $expr: { $not: [] } }, ["body", "query"]); // one issue
 * ```
 */
export function validateQuery(query: unknown, loc: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isRecord(query)) {
    issue(issues, loc, "Input should be a valid dictionary or object to extract fields from", "model_attributes_type");
    return issues;
  }
  if (!("$expr" in query)) issue(issues, [...loc, "$expr"], "Field required", "missing");
  else validateOperand(query["$expr"], [...loc, "$expr"], issues);
  for (const k of Object.keys(query))
    if (k !== "$expr") issue(issues, [...loc, k], "Extra inputs are not permitted", "extra_forbidden");
  return issues;
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
  return undefined;
}

function asString(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * Orders two values: numbers numerically (when both sides are numeric), otherwise as strings.
 * `undefined` when either side is null.
 *
 * @example
 * ```ts
 * compareValues("10", 9); // 1
 * ```
 */
export function compareValues(a: unknown, b: unknown): number | undefined {
  if (a === null || a === undefined || b === null || b === undefined) return undefined;
  if (typeof a === "number" || typeof b === "number") {
    const x = asNumber(a);
    const y = asNumber(b);
    if (x !== undefined && y !== undefined) return x === y ? 0 : x < y ? -1 : 1;
  }
  const x = asString(a);
  const y = asString(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

function equals(a: unknown, b: unknown): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  return compareValues(a, b) === 0;
}

function truthy(value: unknown): boolean {
  return value !== null && value !== undefined && value !== false && value !== 0 && value !== "";
}

function convert(value: unknown, to: string): unknown {
  switch (to) {
    case "exists":
      return value !== null && value !== undefined;
    case "double": {
      const n = asNumber(value);
      return n === undefined || Number.isNaN(n) ? null : n;
    }
    case "int": {
      const n = asNumber(value);
      return n === undefined || Number.isNaN(n) ? null : Math.trunc(n);
    }
    case "bool":
      if (typeof value === "string") return value === "true" || value === "1";
      return truthy(value);
    default:
      return value === null || value === undefined ? null : asString(value);
  }
}

/**
 * Evaluates an operand against a record.
 */
export function evaluate(node: unknown, record: unknown): unknown {
  if (!isRecord(node)) return null;
  const [op] = Object.keys(node);
  const arg = node[op!];
  switch (op) {
    case "$literal":
      return arg;
    case "$getField": {
      const value = getPath(record, String(arg));
      return value === undefined ? null : value;
    }
    case "$convert": {
      const spec = arg as { input: unknown; to: string };
      return convert(evaluate(spec.input, record), spec.to);
    }
    case "$and":
      return (arg as unknown[]).every((v) => truthy(evaluate(v, record)));
    case "$or":
      return (arg as unknown[]).some((v) => truthy(evaluate(v, record)));
    case "$not":
      return !truthy(evaluate((arg as unknown[])[0], record));
    case "$in": {
      const [left, options] = arg as [unknown, unknown[]];
      const value = evaluate(left, record);
      return options.some((o) => equals(value, evaluate(o, record)));
    }
    case "$contains": {
      const spec = arg as { input: unknown; substr: unknown; case_insensitive?: boolean | null };
      const input = evaluate(spec.input, record);
      if (input === null || input === undefined) return false;
      let haystack = asString(input);
      let needle = asString(evaluate(spec.substr, record));
      if (spec.case_insensitive === true) {
        haystack = haystack.toLowerCase();
        needle = needle.toLowerCase();
      }
      return haystack.includes(needle);
    }
    case "$containsToken": {
      const spec = arg as { input: unknown; substr: unknown; case_insensitive?: boolean | null };
      const input = evaluate(spec.input, record);
      if (input === null || input === undefined) return false;
      return hasToken(asString(input), asString(evaluate(spec.substr, record)), spec.case_insensitive === true);
    }
    case "$eq": {
      const [a, b] = arg as [unknown, unknown];
      return equals(evaluate(a, record), evaluate(b, record));
    }
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte": {
      const [a, b] = arg as [unknown, unknown];
      const c = compareValues(evaluate(a, record), evaluate(b, record));
      if (c === undefined) return false;
      return op === "$gt" ? c > 0 : op === "$gte" ? c >= 0 : op === "$lt" ? c < 0 : c <= 0;
    }
    default:
      return null;
  }
}

// ClickHouse's token separators: every ASCII character that is not a letter or a digit
// (bytes of non-ASCII characters belong to tokens).
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII control characters separate tokens too
const TOKEN_SEPARATORS = /[\u0000-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007f]+/;
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/**
 * ClickHouse's `hasToken` (`hasTokenCaseInsensitive`, which folds ASCII letters only): whether
 * `token` is one of the maximal runs of non-separator characters of `haystack`.
 *
 * @example
 * ```ts
 * hasToken("How do I reset my password?", "reset", false); // true
 * hasToken("resetting the router", "reset", false); // false
 * ```
 */
export function hasToken(haystack: string, token: string, caseInsensitive: boolean): boolean {
  const h = caseInsensitive ? asciiLower(haystack) : haystack;
  const t = caseInsensitive ? asciiLower(token) : token;
  return t !== "" && h.split(TOKEN_SEPARATORS).includes(t);
}

/**
 * Whether a record matches a validated `query` (`{"$expr": ...}`).
 */
export function matchesQuery(query: { $expr: unknown }, record: unknown): boolean {
  return truthy(evaluate(query.$expr, record));
}
