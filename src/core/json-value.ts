import { RequestValidationError } from "./errors.js";
import { kindOf } from "./response-shape.js";

/**
 * Deepest nesting a request body may have. The servers parse JSON with Python, whose
 * recursion limit (1000) makes anything deeper fail there; refusing here names the field
 * instead of blowing the client's stack or the server's.
 */
export const MAX_JSON_DEPTH = 1000;

type Path = (string | number)[];

class Refused extends Error {
  constructor(
    readonly path: Path,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function describeType(v: unknown): string {
  if (typeof v === "number") return String(v);
  return typeof v;
}

/**
 * A plain JSON copy of `value`, made the way `JSON.stringify` reads it (`toJSON` called, own
 * enumerable keys, `undefined`/functions/symbols dropped from objects and `null` in arrays),
 * each getter read once. What it refuses, `JSON.stringify` would throw on or silently change:
 * cycles, BigInts, `NaN`/`Infinity` (sent as `null`), and nesting deeper than
 * {@link MAX_JSON_DEPTH}. Validating the copy and sending the copy means the server receives
 * exactly what was validated, even when a `toJSON` or a getter answers differently each time.
 */
function copy(value: unknown, key: string, path: Path, ancestors: Set<object>): unknown {
  let v = value;
  if ((typeof v === "object" && v !== null) || typeof v === "bigint") {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") v = toJSON.call(v, key);
  }
  if (v instanceof Number || v instanceof String || v instanceof Boolean) v = v.valueOf();
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      if (!Number.isFinite(v)) throw new Refused(path, `must be a finite number, got ${describeType(v)}`);
      return v;
    case "bigint":
      throw new Refused(path, "is a BigInt, which JSON cannot carry: pass a number or a string");
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (v === null) return null;
  const obj = v as object;
  if (ancestors.has(obj)) throw new Refused(path, "refers back to an object that contains it (a cycle)");
  if (ancestors.size >= MAX_JSON_DEPTH) throw new Refused(path, `is nested more than ${MAX_JSON_DEPTH} levels deep`);
  ancestors.add(obj);
  try {
    if (Array.isArray(obj)) {
      const out: unknown[] = new Array(obj.length);
      for (let i = 0; i < obj.length; i++) {
        path.push(i);
        out[i] = copy(obj[i], String(i), path, ancestors) ?? null;
        path.pop();
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(obj)) {
      path.push(k);
      const item = copy((obj as Record<string, unknown>)[k], k, path, ancestors);
      path.pop();
      if (item === undefined) continue;
      // A "__proto__" key stays a key, as JSON.stringify sends it (assigning it would set the
      // copy's prototype instead).
      if (k === "__proto__")
        Object.defineProperty(out, k, { value: item, writable: true, enumerable: true, configurable: true });
      else out[k] = item;
    }
    return out;
  } finally {
    ancestors.delete(obj);
  }
}

/**
 * The request parameters as the plain JSON value that will be sent, or a
 * {@link RequestValidationError} naming the field that cannot be sent as JSON. Parameters that
 * are not an object (`null`, a string, an array) are refused the same way.
 *
 * @example
 * ```ts
 * const body = toJSONValue(params, "chat completion request"); // then validate `body`, send `body`
 * ```
 */
export function toJSONValue(params: unknown, what: string): Record<string, unknown> {
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    const issue = { path: "", message: `must be an object, got ${kindOf(params)}`, code: "invalid_type" };
    throw new RequestValidationError([issue], what);
  }
  try {
    const out = copy(params, "", [], new Set());
    if (typeof out !== "object" || out === null || Array.isArray(out))
      throw new Refused([], "must be an object (its toJSON() returned something else)");
    return out as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    // A path 1000 levels deep would fill the message: the start of it says which field.
    const path = err.path.length > 12 ? `${err.path.slice(0, 10).join(".")}.…` : err.path.join(".");
    throw new RequestValidationError([{ path, message: err.reason, code: "custom" }], what);
  }
}
