/**
 * A kept choice's token logprobs in typed arrays. A training step keeps its whole batch until
 * the job is created, and JSON.parse's objects cost about twenty times the data (an entry, its
 * `bytes` array and five alternatives, each an object with its own array). A list of entries
 * in vLLM's exact shape is stored as interned token strings and `Float64Array` logprobs (exact
 * for every double), and read back through an array-like view whose entries are made on
 * access with the same keys, order and values: `content[i].logprob` reads as before, and the
 * list serializes to the same bytes. Any other shape (an extra key, `bytes` that are not the
 * token's UTF-8, a partial-byte token) is kept as it came.
 *
 * @module
 */
import type { ChatCompletionChoice } from "../../resources/chat/types.js";
import type { TrajectoryChoice } from "../../resources/training-jobs/request-schema.js";

const encoder = new TextEncoder();

// Interned token strings (a vocabulary is bounded: ~150k tokens), with each one's UTF-8 bytes.
const tokens: string[] = [];
const tokenIndex = new Map<string, number>();
const tokenBytes: number[][] = [];

// Past this many distinct strings (several vocabularies' worth) a list is kept as it came,
// so a stream of never-repeating strings cannot grow the table without bound.
const MAX_TOKENS = 1 << 20;

function intern(token: string): number {
  let i = tokenIndex.get(token);
  if (i === undefined) {
    if (tokens.length >= MAX_TOKENS) return -1;
    i = tokens.length;
    tokens.push(token);
    tokenIndex.set(token, i);
    tokenBytes.push(Array.from(encoder.encode(token)));
  }
  return i;
}

function sameBytes(bytes: unknown, expected: readonly number[]): boolean {
  if (!Array.isArray(bytes) || bytes.length !== expected.length || Object.getPrototypeOf(bytes) !== Array.prototype)
    return false;
  for (let i = 0; i < expected.length; i++) if (bytes[i] !== expected[i]) return false;
  return true;
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;

// Exactly `keys`, in that order. A `for...in` walk allocates nothing (every kept token and
// alternative passes here); a plain object's inherited members are never enumerable.
function hasKeys(o: Record<string, unknown>, keys: readonly string[]): boolean {
  let n = 0;
  for (const k in o) if (k !== keys[n++]) return false;
  return n === keys.length;
}

const ENTRY_KEYS = ["token", "logprob", "bytes", "top_logprobs"] as const;
const ALT_KEYS = ["token", "logprob", "bytes"] as const;

/** One token (or alternative) stored, or false when it does not have the exact shape. */
function store(o: unknown, keys: readonly string[], at: number, ids: Uint32Array, values: Float64Array): boolean {
  if (!isPlain(o) || !hasKeys(o, keys)) return false;
  const { token, logprob, bytes } = o;
  if (typeof token !== "string" || typeof logprob !== "number") return false;
  const i = intern(token);
  if (i < 0 || !sameBytes(bytes, tokenBytes[i]!)) return false;
  ids[at] = i;
  values[at] = logprob;
  return true;
}

interface Packed {
  /** Entry i's values are at [start[i], start[i+1]): the token first, then its alternatives. */
  start: Uint32Array;
  ids: Uint32Array;
  values: Float64Array;
}

function pack(list: readonly unknown[]): Packed | undefined {
  let total = 0;
  for (const e of list) {
    if (!isPlain(e) || !Array.isArray(e["top_logprobs"])) return undefined;
    total += 1 + (e["top_logprobs"] as unknown[]).length;
  }
  const start = new Uint32Array(list.length + 1);
  const ids = new Uint32Array(total);
  const values = new Float64Array(total);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    const e = list[i] as Record<string, unknown>;
    start[i] = at;
    if (!store(e, ENTRY_KEYS, at++, ids, values)) return undefined;
    const top = e["top_logprobs"] as unknown[];
    if (Object.getPrototypeOf(top) !== Array.prototype) return undefined;
    for (const alt of top) if (!store(alt, ALT_KEYS, at++, ids, values)) return undefined;
  }
  start[list.length] = at;
  return { start, ids, values };
}

function entryAt(p: Packed, i: number): Record<string, unknown> {
  const from = p.start[i]!;
  const to = p.start[i + 1]!;
  const top: Record<string, unknown>[] = [];
  for (let k = from + 1; k < to; k++) {
    const id = p.ids[k]!;
    top.push({ token: tokens[id], logprob: p.values[k], bytes: tokenBytes[id]!.slice() });
  }
  const id = p.ids[from]!;
  return { token: tokens[id], logprob: p.values[from], bytes: tokenBytes[id]!.slice(), top_logprobs: top };
}

const INDEX = /^(?:0|[1-9]\d*)$/;

/**
 * An array (for `Array.isArray`, `length`, iteration, JSON and deep equality) whose entries are
 * made from `p` when read. Writing an entry turns the view back into a plain array first.
 */
function view(p: Packed, n: number): unknown[] {
  const target: unknown[] = [];
  let plain: unknown[] | undefined;
  const index = (key: string | symbol): number =>
    typeof key === "string" && INDEX.test(key) && Number(key) < n ? Number(key) : -1;
  const unpack = (): unknown[] => {
    if (plain === undefined) {
      plain = [];
      for (let i = 0; i < n; i++) plain.push(entryAt(p, i));
    }
    return plain;
  };
  return new Proxy(target, {
    get(_t, key) {
      if (plain !== undefined) return Reflect.get(plain, key);
      if (key === "length") return n;
      const i = index(key);
      if (i >= 0) return entryAt(p, i);
      return Reflect.get(Array.prototype, key, undefined) ?? undefined;
    },
    set(_t, key, value) {
      return Reflect.set(unpack(), key, value);
    },
    has(_t, key) {
      if (plain !== undefined) return Reflect.has(plain, key);
      return key === "length" || index(key) >= 0 || key in Array.prototype;
    },
    ownKeys() {
      if (plain !== undefined) return Reflect.ownKeys(plain);
      const keys: (string | symbol)[] = [];
      for (let i = 0; i < n; i++) keys.push(String(i));
      keys.push("length");
      return keys;
    },
    getOwnPropertyDescriptor(_t, key) {
      if (key === "length")
        return { value: plain?.length ?? n, writable: true, enumerable: false, configurable: false };
      if (plain !== undefined) return Reflect.getOwnPropertyDescriptor(plain, key);
      const i = index(key);
      return i >= 0 ? { value: entryAt(p, i), writable: true, enumerable: true, configurable: true } : undefined;
    },
    defineProperty(_t, key, descriptor) {
      return Reflect.defineProperty(unpack(), key, descriptor);
    },
    deleteProperty(_t, key) {
      return Reflect.deleteProperty(unpack(), key);
    },
  });
}

/**
 * `logprobs` of a choice about to be kept: the same object when its `content` cannot be
 * packed (or is short), else a copy whose `content` is the packed view.
 */
export function compactLogprobs<L>(logprobs: L): L {
  if (!isPlain(logprobs)) return logprobs;
  const content = logprobs["content"];
  if (!Array.isArray(content) || content.length < 16 || Object.getPrototypeOf(content) !== Array.prototype)
    return logprobs;
  const packed = pack(content);
  if (packed === undefined) return logprobs;
  return { ...logprobs, content: view(packed, content.length) } as L;
}

/**
 * @internal The copy of a finished choice a trajectory keeps: its token logprobs packed,
 * everything else as received (the caller's completion keeps its own objects).
 */
export function keptChoice(choice: ChatCompletionChoice, finish_reason: string): TrajectoryChoice {
  const kept = { ...choice, finish_reason } as TrajectoryChoice;
  if (kept.logprobs != null) kept.logprobs = compactLogprobs(kept.logprobs);
  return kept;
}
