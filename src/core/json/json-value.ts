import { kindOf } from "../decoding/response-checks.js";
import { RequestValidationError } from "../errors/errors.js";
import type { CompactJSONWriter } from "./compact-json-text.js";

/**
 * Deepest nesting a request body may have. The servers parse JSON with Python, whose
 * recursion limit (1000) makes anything deeper fail there; refusing here names the field
 * instead of blowing the client's stack or the server's.
 */
export const MAX_JSON_DEPTH = 1000;

type Path = (string | number)[];

/**
 * A part of a request body already written as JSON: {@link jsonPieces} emits it as it is. A
 * large body keeps its big parts in this form (about the size of the bytes sent) instead of as
 * a copy of every object, which takes far more memory than its text.
 */
export class SerializedJSON {
  /** The JSON text, as a string or as its UTF-8 bytes (see {@link CompactJSONWriter} for
   * the form that takes the least memory). */
  readonly piece: string | Uint8Array;
  constructor(piece: string | Uint8Array) {
    this.piece = piece;
  }
}

/**
 * Lets {@link toJSONValue} hand over each subtree at a given depth as soon as it is copied
 * (to validate it and write it as JSON text), so that the whole copy never exists at once.
 */
export interface SealHooks {
  /** Length of the paths that {@link SealHooks.at} is asked about. */
  depth: number;
  /** Whether the subtree at `path` (of length `depth`) is sealed. */
  at(path: readonly (string | number)[]): boolean;
  /** What replaces the plain copy of that subtree in the result (the copy is never changed
   * afterwards, so it may be validated and serialized here). */
  seal(copy: unknown, path: readonly (string | number)[]): unknown;
  /** Copies the object entries of some lists itself (see {@link EntryCopier}). */
  entries?: EntryCopier;
}

/**
 * Copies the object entries of some lists faster than the generic copy can: code that knows
 * an entry's shape (say, a token logprob, of which a training job holds millions) reads and
 * copies its fields by name. It must copy exactly as the generic copy would, reading each
 * value once, and hand whatever it does not know over to {@link CopySteps}.
 */
export interface EntryCopier {
  /** Whether the entries of the list at `path` go through {@link EntryCopier.copy}. */
  at(path: readonly (string | number)[]): boolean;
  /** The copy of one object entry of such a list (nothing of it read yet). */
  copy(entry: object, steps: CopySteps): unknown;
}

/**
 * The generic copy's steps, for an {@link EntryCopier} to hand over what it does not copy
 * itself, with the generic copy's paths, cycle and depth checks, and nothing read twice.
 */
export interface CopySteps {
  /** Whether `obj` may be copied `levels` levels below the current entry's list: it is not
   * one of the objects around that list (a cycle), and the nesting stays within
   * {@link MAX_JSON_DEPTH}. When it may not, {@link CopySteps.below} refuses it by path. */
  fits(obj: object, levels: number): boolean;
  /**
   * The generic copy of `value`, read under `keys` below `parents` (the first of which is the
   * current entry, the first key one of its own; both empty for the entry itself). `read` says
   * what of `value` was already read: its `toJSON` property (called here when a function)
   * and, when given, its own keys.
   */
  below(
    parents: readonly object[],
    keys: readonly (string | number)[],
    value: unknown,
    read?: { toJSON: unknown; keys?: string[] },
  ): unknown;
}

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
 * A plain JSON copy of a value, made the way `JSON.stringify` reads it (`toJSON` called, own
 * enumerable keys, `undefined`/functions/symbols dropped from objects and `null` in arrays),
 * each getter read once. What it refuses, `JSON.stringify` would throw on or silently change:
 * cycles, BigInts, `NaN`/`Infinity` (sent as `null`), and nesting deeper than
 * {@link MAX_JSON_DEPTH}. Validating the copy and sending the copy means the server receives
 * exactly what was validated, even when a `toJSON` or a getter answers differently each time.
 */
class JSONCopy implements CopySteps {
  readonly path: Path = [];
  // A stack, not a Set: nesting is shallow in practice, and a large body has millions of
  // objects, each pushed and popped once.
  readonly ancestors: object[] = [];
  constructor(readonly hooks: SealHooks | undefined) {}

  value(value: unknown, key: string | number): unknown {
    if ((typeof value === "object" && value !== null) || typeof value === "bigint")
      return this.#resolved(withToJSON(value, (value as { toJSON?: unknown }).toJSON, key));
    return this.#resolved(value);
  }

  fits(obj: object, levels: number): boolean {
    return !this.ancestors.includes(obj) && this.ancestors.length + levels <= MAX_JSON_DEPTH;
  }

  below(
    parents: readonly object[],
    keys: readonly (string | number)[],
    value: unknown,
    read?: { toJSON: unknown; keys?: string[] },
  ): unknown {
    const { path, ancestors } = this;
    for (let i = 0; i < parents.length; i++) {
      ancestors.push(parents[i]!);
      path.push(keys[i]!);
    }
    const out =
      read === undefined
        ? this.value(value, path[path.length - 1]!)
        : this.#resolved(withToJSON(value as object, read.toJSON, path[path.length - 1]!), read.keys);
    // Not in a `finally`: a refusal abandons the whole copy, stacks included.
    path.length -= parents.length;
    ancestors.length -= parents.length;
    return out;
  }

  /** `keys`: the object's own keys, when already read. */
  #resolved(value: unknown, keys?: string[]): unknown {
    const { path, ancestors } = this;
    let v = value;
    if (typeof v === "object" && v !== null && (v instanceof Number || v instanceof String || v instanceof Boolean))
      v = v.valueOf();
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
    if (ancestors.includes(obj)) throw new Refused(path, "refers back to an object that contains it (a cycle)");
    if (ancestors.length >= MAX_JSON_DEPTH)
      throw new Refused(path, `is nested more than ${MAX_JSON_DEPTH} levels deep`);
    ancestors.push(obj);
    const out = Array.isArray(obj) ? this.#array(obj) : this.#object(obj, keys ?? Object.keys(obj));
    ancestors.pop();
    return out;
  }

  #array(arr: unknown[]): unknown[] {
    const { path, hooks } = this;
    const entries = hooks?.entries?.at(path) ? hooks.entries : undefined;
    // Reflect.construct rather than `new Array`: see PlainObject.
    const out: unknown[] = Reflect.construct(Array, [arr.length]);
    for (let i = 0; i < arr.length; i++) {
      const x: unknown = arr[i];
      if (isPlainValue(x)) {
        out[i] = x;
        continue;
      }
      path.push(i);
      const item =
        (entries !== undefined && typeof x === "object" && x !== null ? entries.copy(x, this) : this.value(x, i)) ??
        null;
      out[i] = hooks !== undefined && path.length === hooks.depth && hooks.at(path) ? hooks.seal(item, path) : item;
      path.pop();
    }
    return out;
  }

  #object(obj: object, keys: string[]): Record<string, unknown> {
    const { path, hooks } = this;
    const out = new PlainObject();
    for (const k of keys) {
      let item: unknown = (obj as Record<string, unknown>)[k];
      if (!isPlainValue(item)) {
        path.push(k);
        item = this.value(item, k);
        if (item !== undefined && hooks !== undefined && path.length === hooks.depth && hooks.at(path))
          item = hooks.seal(item, path);
        path.pop();
        if (item === undefined) continue;
      }
      // A "__proto__" key stays a key, as JSON.stringify sends it (assigning it would set the
      // copy's prototype instead).
      if (k === "__proto__")
        Object.defineProperty(out, k, { value: item, writable: true, enumerable: true, configurable: true });
      else out[k] = item;
    }
    return out;
  }
}

/** `value` as JSON.stringify sends it: the answer of its `toJSON` when that is a function. */
function withToJSON(value: object | bigint, toJSON: unknown, key: string | number): unknown {
  return typeof toJSON === "function" ? toJSON.call(value, String(key)) : value;
}

/**
 * A value copied as it is, without a call: strings, finite numbers, booleans and null are
 * most of a large body (token ids, byte lists, logprobs), and a call per value would be most
 * of its cost.
 */
export function isPlainValue(x: unknown): boolean {
  return typeof x === "number" ? Number.isFinite(x) : typeof x === "string" || typeof x === "boolean" || x === null;
}

// Copies made by a constructor and by Reflect.construct, not by `{}` or `new Array`: V8 tracks
// where literals and `new Array` allocate, and once most objects of such a site outlive a minor
// GC (a trajectory's copy does while it is checked; the first, small jobs decide it), every
// later object of that site goes to the old generation, where the copies of a large body pile
// up as garbage until a full GC (docs/performance.md, "Training job creation").
function PlainObjectConstructor(this: Record<string, unknown>): void {}
PlainObjectConstructor.prototype = Object.prototype;
/**
 * The constructor of the copy's objects: plain objects (`Object.prototype`), allocated where a
 * large copy's garbage is cheapest to collect.
 */
export const PlainObject = PlainObjectConstructor as object as new () => Record<string, unknown>;

/**
 * The request parameters as the plain JSON value that will be sent, or a
 * {@link RequestValidationError} naming the field that cannot be sent as JSON. Parameters that
 * are not an object (`null`, a string, an array) are refused the same way.
 */
export function toJSONValue(params: unknown, what: string, hooks?: SealHooks): Record<string, unknown> {
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    const issue = { path: "", message: `must be an object, got ${kindOf(params)}`, code: "invalid_type" };
    throw new RequestValidationError([issue], what);
  }
  try {
    const out = new JSONCopy(hooks).value(params, "");
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

/**
 * The JSON text of a plain JSON value (as {@link toJSONValue} returns it) in pieces, with each
 * {@link SerializedJSON} part emitted as it is: a large body is sent piece by piece, never
 * joined into one string. Each call starts again, so a retry sends the same text.
 */
export function* jsonPieces(value: unknown): Generator<string | Uint8Array, void, undefined> {
  if (value instanceof SerializedJSON) {
    yield value.piece;
  } else if (typeof value !== "object" || value === null || !containsSerialized(value)) {
    yield JSON.stringify(value) ?? "null";
  } else if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      yield* jsonPieces(value[i] ?? null);
    }
    yield "]";
  } else {
    let first = true;
    yield "{";
    for (const k of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[k];
      if (item === undefined) continue;
      yield `${first ? "" : ","}${JSON.stringify(k)}:`;
      first = false;
      yield* jsonPieces(item);
    }
    yield "}";
  }
}

/** Whether a plain JSON object holds a {@link SerializedJSON} part (only those need walking;
 * the rest is written by `JSON.stringify` at once). */
function containsSerialized(value: object): boolean {
  if (value instanceof SerializedJSON) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value))
    if (typeof item === "object" && item !== null && containsSerialized(item)) return true;
  return false;
}
