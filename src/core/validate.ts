import type { z } from "zod";
import { RequestValidationError, type ValidationIssue } from "./errors.js";

/** Dotted path of a zod issue, e.g. `messages.2.role`. */
function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join(".");
}

/**
 * Check `value` against `schema` before anything is sent; throw a
 * {@link RequestValidationError} naming each offending field otherwise. Returns the value
 * itself (the schemas have no defaults or transforms, so it is what the caller wrote).
 */
export function validateInput<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return value as T;
  const issues: ValidationIssue[] = result.error.issues.map((i) => ({ path: pathOf(i.path), message: i.message }));
  throw new RequestValidationError(issues, what);
}
