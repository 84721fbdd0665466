import { type $ZodIssue, type $ZodType, safeParse } from "zod/v4/core";
import { RequestValidationError, type ValidationIssue } from "../errors/errors.js";
import { toJSONValue } from "../json/json-value.js";
import { knownFieldsHint, type UnknownKeyHint } from "./field-hint.js";
import { quickAccepts } from "./quick-accept.js";

/**
 * One problem of an input, ready for an error message: the path of the field, why, and the
 * zod issue code it came from.
 */
export interface InputIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

function toPath(prefix: readonly PropertyKey[], rest: readonly PropertyKey[]): (string | number)[] {
  const out: (string | number)[] = [];
  for (const p of prefix) out.push(typeof p === "number" ? p : String(p));
  for (const p of rest) out.push(typeof p === "number" ? p : String(p));
  return out;
}

// A union branch that failed on the root type ("expected string, received array") is not
// the branch the caller meant; the others carry the precise, deeper issues.
function failedOnRootType(branch: readonly $ZodIssue[]): boolean {
  return branch.length === 1 && branch[0]!.code === "invalid_type" && branch[0]!.path.length === 0;
}

function collectIssues(
  issues: readonly $ZodIssue[],
  prefix: readonly PropertyKey[],
  hint: UnknownKeyHint | undefined,
  out: InputIssue[],
): void {
  for (const issue of issues) {
    const path = toPath(prefix, issue.path);
    if (issue.code === "unrecognized_keys") {
      // zod reports every unknown key of an object in one issue; one per key lets each
      // carry its own path and suggestion (the operation's, else the object's "did you mean").
      for (const key of issue.keys) {
        const extra = hint?.(key, path) || knownFieldsHint(key, issue);
        out.push({ path: [...path, key], message: `unknown field "${key}"${extra}`, code: issue.code });
      }
    } else if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const meant = issue.errors.filter((branch) => !failedOnRootType(branch));
      if (meant.length === 1) {
        collectIssues(meant[0]!, path, hint, out);
      } else {
        const expected = issue.errors.flatMap((b) =>
          failedOnRootType(b) ? [(b[0] as { expected?: string }).expected] : [],
        );
        const message =
          meant.length === 0 && expected.length > 0
            ? `Invalid input: expected ${expected.join(" or ")}`
            : issue.message;
        out.push({ path, message, code: issue.code });
      }
    } else {
      out.push({ path, message: issue.message, code: issue.code });
    }
  }
}

/**
 * Turns zod issues into one issue per problem with a precise path: an unknown key gets the
 * key in its path (plus whatever `unknownKeyHint` adds), and a union reports the branch the
 * value was meant for, or the list of expected types when no branch came close.
 */
export function inputIssues(issues: readonly $ZodIssue[], unknownKeyHint?: UnknownKeyHint): InputIssue[] {
  const out: InputIssue[] = [];
  collectIssues(issues, [], unknownKeyHint, out);
  return out;
}

/**
 * Check `value` against `schema` before anything is sent; throw a
 * {@link RequestValidationError} naming each offending field otherwise. Returns the value
 * itself (the schemas have no defaults or transforms, so it is what the caller wrote).
 * Takes any zod 4 schema, classic or mini, through zod's core API, so the SDK's own schemas
 * can use the tree-shakeable `zod/mini`. `toIssues` lets an operation add its own hints
 * (it defaults to {@link inputIssues}).
 */
export function validateInput<T>(
  schema: $ZodType<T>,
  value: unknown,
  what: string,
  toIssues: (issues: readonly $ZodIssue[]) => InputIssue[] = inputIssues,
): T {
  let result: ReturnType<typeof safeParse<$ZodType<T>>>;
  try {
    // Most requests are valid: a walk of the keys they have says so for less (see quickAccepts).
    if (typeof value === "object" && value !== null && quickAccepts(schema, value)) return value as T;
    result = safeParse(schema, value);
  } catch (err) {
    // A reference cycle in the input sends recursive schemas round until the stack runs out.
    if (!(err instanceof RangeError)) throw err;
    const issue = { path: "", message: "the input is nested too deeply or refers to itself (a cycle)", code: "custom" };
    throw new RequestValidationError([issue], what);
  }
  if (result.success) return value as T;
  const issues: ValidationIssue[] = toIssues(result.error.issues).map((i) => ({
    path: i.path.join("."),
    message: i.message,
    code: i.code,
  }));
  throw new RequestValidationError(issues, what);
}

/**
 * Validate a request body and return what will be sent: the parameters are first copied into
 * plain JSON ({@link toJSONValue}: cycles, BigInts, non-finite numbers, excessive depth and
 * non-object parameters refused, naming the field), then the copy is checked against `schema`.
 * The copy is what goes on the wire, so the server gets exactly what was validated.
 */
export function validateRequestBody<T>(
  schema: $ZodType<T>,
  value: unknown,
  what: string,
  toIssues?: (issues: readonly $ZodIssue[]) => InputIssue[],
): T {
  return validateInput(schema, toJSONValue(value, what), what, toIssues);
}
