import { RequestValidationError } from "../errors/errors.js";

// A surrogate half without its partner: no UTF-8 form exists, so no URL can carry it.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * An id as one percent-encoded path segment: non-empty, never `.` or `..` (which a URL parser
 * would resolve away), and well-formed Unicode (`encodeURIComponent` throws a `URIError` on a
 * lone surrogate). Anything else is a {@link RequestValidationError} naming `name`, so a bad id
 * can never reach another route.
 */
export function pathSegment(value: unknown, name: string, what = "path parameter"): string {
  if (typeof value !== "string" || value.length === 0 || value === "." || value === "..")
    throw new RequestValidationError([{ path: name, message: "must be a non-empty id (not '.' or '..')" }], what);
  if (LONE_SURROGATE.test(value))
    throw new RequestValidationError(
      [{ path: name, message: "is not well-formed Unicode (it holds a lone surrogate, e.g. half of an emoji)" }],
      what,
    );
  return encodeURIComponent(value);
}

// What would make an id more than one plain segment: separators, a query or fragment, escapes,
// white space and control characters.
const NOT_PLAIN = /[/\\?#%\s\p{Cc}]/u;

/**
 * An id that must already be one plain path segment (the training API's model, checkpoint and
 * job ids): {@link pathSegment}'s rules, and no `/`, `\`, `?`, `#`, `%`, white space or control
 * character. Such an id is refused rather than encoded, since no id the server issues has one.
 */
export function plainPathSegment(value: unknown, name: string, what = "path parameter"): string {
  if (typeof value === "string" && NOT_PLAIN.test(value))
    throw new RequestValidationError(
      [{ path: name, message: "must be a plain id (no '/', '\\', '?', '#', '%', spaces or control characters)" }],
      what,
    );
  return pathSegment(value, name, what);
}
