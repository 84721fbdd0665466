import { type CopySteps, type EntryCopier, isPlainValue, PlainObject } from "../../core/json/json-value.js";

// The copy of a token logprob list, entry by entry, by code that knows the entry's shape: a
// large job holds millions of entries, which the generic copy reads key by key, with its
// checks on each value, far more slowly. Entries of the shape vLLM sends (`token`, `logprob`,
// `bytes`, `top_logprobs`, in that order, on plain objects and arrays without `toJSON`) are
// copied field by field; anything else, down to a single field or byte, goes to the generic
// copy, which sees it as if it had walked there itself. Each value is read once either way.

// Constructors, not literals: see PlainObject in core/json-value.ts (where V8 allocates them).
type Copy = Record<string, unknown>;
const TokenCopy = function (this: Copy, token: unknown, logprob: unknown, bytes: unknown, top: unknown) {
  this["token"] = token;
  this["logprob"] = logprob;
  this["bytes"] = bytes;
  this["top_logprobs"] = top;
} as unknown as new (
  token: unknown,
  logprob: unknown,
  bytes: unknown,
  top: unknown,
) => Copy;
TokenCopy.prototype = Object.prototype;
const AlternativeCopy = function (this: Copy, token: unknown, logprob: unknown, bytes: unknown) {
  this["token"] = token;
  this["logprob"] = logprob;
  this["bytes"] = bytes;
} as unknown as new (
  token: unknown,
  logprob: unknown,
  bytes: unknown,
) => Copy;
AlternativeCopy.prototype = Object.prototype;

const OBJECT = Object.prototype;
const ARRAY = Array.prototype;

/** Whether `keys` are the entry's fields in vLLM's order (`top_logprobs` only on a sampled token). */
function knownKeys(keys: string[], sampled: boolean): boolean {
  return (
    keys.length === (sampled ? 4 : 3) &&
    keys[0] === "token" &&
    keys[1] === "logprob" &&
    keys[2] === "bytes" &&
    (!sampled || keys[3] === "top_logprobs")
  );
}

/** A field whose copy is `undefined` is dropped, as the generic copy (and JSON.stringify) drop it. */
function withoutUndefined(keys: string[], values: unknown[]): Copy {
  const out = new PlainObject();
  for (let i = 0; i < keys.length; i++) if (values[i] !== undefined) out[keys[i]!] = values[i];
  return out;
}

/**
 * The copy of `bytes`, a list of plain values, of `entry` (or of its alternative `alt`, index
 * `k` of its `top_logprobs` list `top`), or the generic copy of it.
 */
function copyBytes(
  bytes: unknown,
  steps: CopySteps,
  entry: object,
  top?: unknown[],
  alt?: object,
  k?: number,
): unknown {
  if (isPlainValue(bytes)) return bytes;
  const levels = top === undefined ? 2 : 4;
  if (!Array.isArray(bytes) || bytes === top || !steps.fits(bytes, levels))
    return steps.below(...bytesAt(entry, top, alt, k), bytes);
  const toJSON = (bytes as { toJSON?: unknown }).toJSON;
  if (toJSON !== undefined || Object.getPrototypeOf(bytes) !== ARRAY)
    return steps.below(...bytesAt(entry, top, alt, k), bytes, { toJSON });
  const out: unknown[] = Reflect.construct(Array, [bytes.length]);
  for (let i = 0; i < bytes.length; i++) {
    const x: unknown = bytes[i];
    if (isPlainValue(x)) out[i] = x;
    else {
      const [parents, keys] = bytesAt(entry, top, alt, k);
      out[i] = steps.below([...parents, bytes], [...keys, i], x) ?? null;
    }
  }
  return out;
}

/** Parents and keys from an entry to its `bytes` (or to those of its alternative). */
function bytesAt(entry: object, top?: unknown[], alt?: object, k?: number): [object[], (string | number)[]] {
  return top === undefined
    ? [[entry], ["bytes"]]
    : [
        [entry, top, alt!],
        ["top_logprobs", k!, "bytes"],
      ];
}

/** The copy of one alternative of `top_logprobs` (index `k` of `top`, in `entry`). */
function copyAlternative(alt: unknown, steps: CopySteps, entry: object, top: unknown[], k: number): unknown {
  // The paths of the generic copy are built only when it is called: most entries never need it.
  if (typeof alt !== "object" || alt === null || Array.isArray(alt) || !steps.fits(alt, 3))
    return isPlainValue(alt) ? alt : steps.below([entry, top], ["top_logprobs", k], alt);
  const toJSON = (alt as { toJSON?: unknown }).toJSON;
  if (toJSON !== undefined || Object.getPrototypeOf(alt) !== OBJECT)
    return steps.below([entry, top], ["top_logprobs", k], alt, { toJSON });
  const own = Object.keys(alt);
  if (!knownKeys(own, false)) return steps.below([entry, top], ["top_logprobs", k], alt, { toJSON, keys: own });
  const a = alt as Copy;
  const token = a["token"];
  const logprob = a["logprob"];
  const bytes = a["bytes"];
  const t = isPlainValue(token) ? token : steps.below([entry, top, alt], ["top_logprobs", k, "token"], token);
  const l = isPlainValue(logprob) ? logprob : steps.below([entry, top, alt], ["top_logprobs", k, "logprob"], logprob);
  const b = copyBytes(bytes, steps, entry, top, alt, k);
  if (t === undefined || l === undefined || b === undefined) return withoutUndefined(own, [t, l, b]);
  return new AlternativeCopy(t, l, b);
}

/** The copy of `top_logprobs` of `entry`. */
function copyAlternatives(top: unknown, steps: CopySteps, entry: object): unknown {
  if (isPlainValue(top)) return top;
  if (!Array.isArray(top) || !steps.fits(top, 2)) return steps.below([entry], ["top_logprobs"], top);
  const toJSON = (top as { toJSON?: unknown }).toJSON;
  if (toJSON !== undefined || Object.getPrototypeOf(top) !== ARRAY)
    return steps.below([entry], ["top_logprobs"], top, { toJSON });
  const out: unknown[] = Reflect.construct(Array, [top.length]);
  for (let k = 0; k < top.length; k++) out[k] = copyAlternative(top[k], steps, entry, top, k) ?? null;
  return out;
}

function copyToken(entry: object, steps: CopySteps): unknown {
  const toJSON = (entry as { toJSON?: unknown }).toJSON;
  if (toJSON !== undefined || Array.isArray(entry) || Object.getPrototypeOf(entry) !== OBJECT || !steps.fits(entry, 1))
    return steps.below([], [], entry, { toJSON });
  const own = Object.keys(entry);
  if (!knownKeys(own, true)) return steps.below([], [], entry, { toJSON, keys: own });
  const e = entry as Copy;
  const token = e["token"];
  const logprob = e["logprob"];
  const bytes = e["bytes"];
  const top = e["top_logprobs"];
  const t = isPlainValue(token) ? token : steps.below([entry], ["token"], token);
  const l = isPlainValue(logprob) ? logprob : steps.below([entry], ["logprob"], logprob);
  const b = copyBytes(bytes, steps, entry);
  const tl = copyAlternatives(top, steps, entry);
  if (t === undefined || l === undefined || b === undefined || tl === undefined)
    return withoutUndefined(own, [t, l, b, tl]);
  return new TokenCopy(t, l, b, tl);
}

/**
 * Copies the entries of `logprobs.content` and `logprobs.refusal` lists (wherever they are:
 * the copy is the generic copy's, only faster for entries of vLLM's shape).
 */
export const tokenEntryCopier: EntryCopier = {
  at: (path) => {
    const n = path.length;
    return n >= 2 && path[n - 2] === "logprobs" && (path[n - 1] === "content" || path[n - 1] === "refusal");
  },
  copy: copyToken,
};
