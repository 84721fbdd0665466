import { ResponseParseError } from "../errors/errors.js";

/**
 * Checks of a response's shape, for the few members the SDK itself reads or promises. A
 * server (or a proxy in front of it) may send `null`, a number or a list where an object
 * belongs; these turn that into a {@link ResponseParseError} naming the member, instead of a
 * `TypeError` deep inside the SDK or the caller's code. Each check is a `typeof`, so the hot
 * path stays parse-and-cast.
 */

/** What a value is, for a message: `null`, `an array`, `a string`, `an object`, ... */
export function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  const t = typeof v;
  return t === "object" || t === "undefined" ? `an ${t}` : `a ${t}`;
}

/** True for a JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The error for member `path` of `what` holding `value` where `expected` belongs. */
export function shapeError(what: string, path: string, value: unknown, expected: string): ResponseParseError {
  const where = path ? `\`${path}\` of ${what}` : what;
  return new ResponseParseError(`The ${where} is ${kindOf(value)}, expected ${expected}.`);
}

/** `value` itself, when it is a JSON object; else a {@link ResponseParseError}. */
export function expectObject(value: unknown, what: string, path = ""): Record<string, unknown> {
  if (!isObject(value)) throw shapeError(what, path, value, "an object");
  return value;
}

/** Member `key` of `obj` must be an array, or `null`/absent when `optional`. */
export function expectArray(
  obj: Record<string, unknown>,
  key: string,
  what: string,
  path: string,
  optional: boolean,
): unknown[] | undefined {
  const v = obj[key];
  if (Array.isArray(v)) return v;
  if (optional && v == null) return undefined;
  throw shapeError(what, path, v, optional ? "an array or null" : "an array");
}

/** Member `key` of `obj` must be an object, or `null`/absent when `optional`. */
export function expectMemberObject(
  obj: Record<string, unknown>,
  key: string,
  what: string,
  path: string,
  optional: boolean,
): Record<string, unknown> | undefined {
  const v = obj[key];
  if (isObject(v)) return v;
  if (optional && v == null) return undefined;
  throw shapeError(what, path, v, optional ? "an object or null" : "an object");
}
