import { RequestValidationError } from "./errors.js";

// A surrogate half without its partner: no UTF-8 form exists, so no URL can carry it.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * An id as one percent-encoded path segment: non-empty, never `.` or `..` (which a URL parser
 * would resolve away), and well-formed Unicode (`encodeURIComponent` throws a `URIError` on a
 * lone surrogate). Anything else is a {@link RequestValidationError} naming `name`, so a bad id
 * can never reach another route.
 */
export function pathSegment(value: unknown, name: string): string {
  if (typeof value !== "string" || value.length === 0 || value === "." || value === "..")
    throw new RequestValidationError(
      [{ path: name, message: "must be a non-empty id (not '.' or '..')" }],
      "path parameter",
    );
  if (LONE_SURROGATE.test(value))
    throw new RequestValidationError(
      [{ path: name, message: "is not well-formed Unicode (it holds a lone surrogate, e.g. half of an emoji)" }],
      "path parameter",
    );
  return encodeURIComponent(value);
}
