/**
 * Token logprobs in typed arrays. A training step keeps its whole batch until the job is
 * created, and JSON.parse's objects cost about twenty times the data (an entry, its `bytes`
 * array and five alternatives, each an object with its own array). A list of entries in vLLM's
 * exact shape is stored as interned token strings and `Float64Array` logprobs (exact for every
 * double), and read back through an array-like view whose entries are made on access with the
 * same keys, order and values: `content[i].logprob` reads as before, and the list serializes
 * to the same bytes. Any other shape (an extra key, `bytes` that are not the token's UTF-8, a partial-byte
 * token) is kept as it came.
 *
 * A stream packs each entry as it arrives, while JSON.parse's objects are young and in cache,
 * so they die in the young generation instead of being kept to the end of the stream and
 * walked again when the choice is recorded.
 *
 * @module
 */

const encoder = new TextEncoder();

// Interned token strings (a vocabulary is bounded: ~150k tokens), with each one's UTF-8 bytes.
const tokens: string[] = [];
const tokenIndex = new Map<string, number>();
const tokenBytes: number[][] = [];

// Past this many distinct strings (several vocabularies' worth) a list is kept as it came,
// so a stream of never-repeating strings cannot grow the table without bound.
const MAX_TOKENS = 1 << 20;

/** Shorter lists are kept as they came: packing them saves too little to pay for the view. */
const MIN_PACKED = 16;

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

/** A list of logprob entries, packed: its length is `start.length - 1`. */
interface PackedLogprobs {
  /** Entry i's values are at [start[i], start[i+1]): the token first, then its alternatives. */
  readonly start: Uint32Array;
  readonly ids: Uint32Array;
  readonly values: Float64Array;
}

/** Entry `i` of `p`, made now: the same keys, order and values the server sent. */
function packedEntry(p: PackedLogprobs, i: number): Record<string, unknown> {
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

/** Every entry of `p`, made now. */
function unpack(p: PackedLogprobs): unknown[] {
  const n = p.start.length - 1;
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(packedEntry(p, i));
  return out;
}

/**
 * @internal A list of logprob entries that grows by appends: kept as received while short, or
 * for good once an entry has another shape; packed as it grows otherwise.
 */
export class LogprobListBuilder {
  #state: "short" | "packed" | "plain" = "short";
  /** The entries as received, unless packed. */
  #plain: unknown[] = [];
  #start = new Uint32Array(64);
  #ids = new Uint32Array(384);
  #values = new Float64Array(384);
  #count = 0;
  #used = 0;

  append(list: readonly unknown[]): void {
    if (this.#state === "packed") {
      this.#pack(list);
      return;
    }
    for (let i = 0; i < list.length; i++) this.#plain.push(list[i]);
    if (this.#state === "short" && this.#plain.length >= MIN_PACKED) {
      const received = this.#plain;
      this.#state = "packed";
      this.#plain = [];
      // One of another shape: keep the very objects received.
      if (!this.#pack(received)) this.#plain = received;
    }
  }

  // On the first entry of another shape, the list goes back to plain objects and stays so.
  #pack(list: readonly unknown[]): boolean {
    for (let i = 0; i < list.length; i++) {
      if (this.#add(list[i])) continue;
      this.#plain = unpack(this.#snapshot());
      for (let j = i; j < list.length; j++) this.#plain.push(list[j]);
      this.#state = "plain";
      return false;
    }
    return true;
  }

  #add(e: unknown): boolean {
    if (!isPlain(e)) return false;
    const top = e["top_logprobs"];
    if (!Array.isArray(top) || Object.getPrototypeOf(top) !== Array.prototype) return false;
    const end = this.#used + 1 + top.length;
    if (end > this.#ids.length) this.#grow(end);
    if (this.#count + 2 > this.#start.length) {
      const start = new Uint32Array(this.#start.length * 2);
      start.set(this.#start);
      this.#start = start;
    }
    const at = this.#used;
    if (!store(e, ENTRY_KEYS, at, this.#ids, this.#values)) return false;
    for (let k = 0; k < top.length; k++)
      if (!store(top[k], ALT_KEYS, at + 1 + k, this.#ids, this.#values)) return false;
    this.#start[this.#count++] = at;
    this.#start[this.#count] = end;
    this.#used = end;
    return true;
  }

  #grow(atLeast: number): void {
    const size = Math.max(atLeast, this.#ids.length * 2);
    const ids = new Uint32Array(size);
    ids.set(this.#ids);
    this.#ids = ids;
    const values = new Float64Array(size);
    values.set(this.#values);
    this.#values = values;
  }

  #snapshot(): PackedLogprobs {
    return {
      start: this.#start.slice(0, this.#count + 1),
      ids: this.#ids.slice(0, this.#used),
      values: this.#values.slice(0, this.#used),
    };
  }

  /** The list so far, as a copy that later appends leave alone: packed, or the entries as received. */
  list(): PackedLogprobs | unknown[] {
    return this.#state === "packed" ? this.#snapshot() : this.#plain.slice();
  }
}

/** `list` packed, or undefined when it is short or of another shape. */
function pack(list: readonly unknown[]): PackedLogprobs | undefined {
  if (list.length < MIN_PACKED) return undefined;
  const builder = new LogprobListBuilder();
  builder.append(list);
  const packed = builder.list();
  return Array.isArray(packed) ? undefined : packed;
}

const INDEX = /^(?:0|[1-9]\d*)$/;

/**
 * An array (for `Array.isArray`, `length`, iteration, JSON and deep equality) whose entries are
 * made from `p` when read. Writing an entry turns the view back into a plain array first.
 */
function view(p: PackedLogprobs): unknown[] {
  const n = p.start.length - 1;
  const target: unknown[] = [];
  let plain: unknown[] | undefined;
  const index = (key: string | symbol): number =>
    typeof key === "string" && INDEX.test(key) && Number(key) < n ? Number(key) : -1;
  const writable = (): unknown[] => (plain ??= unpack(p));
  return new Proxy(target, {
    get(_t, key) {
      if (plain !== undefined) return Reflect.get(plain, key);
      if (key === "length") return n;
      const i = index(key);
      if (i >= 0) return packedEntry(p, i);
      return Reflect.get(Array.prototype, key, undefined) ?? undefined;
    },
    set(_t, key, value) {
      return Reflect.set(writable(), key, value);
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
      return i >= 0 ? { value: packedEntry(p, i), writable: true, enumerable: true, configurable: true } : undefined;
    },
    defineProperty(_t, key, descriptor) {
      return Reflect.defineProperty(writable(), key, descriptor);
    },
    deleteProperty(_t, key) {
      return Reflect.deleteProperty(writable(), key);
    },
  });
}

// A finished choice's `logprobs` whose `content` is still packed, and that packed list.
const unread = new WeakMap<object, PackedLogprobs>();

/**
 * @internal A streamed choice's `logprobs`: `content` is an ordinary array of the received
 * entries, made on its first read (or replaced by a write). A trajectory that records the
 * choice before anyone reads it keeps the packed list without making a single entry.
 */
export function finishedLogprobs(content: PackedLogprobs | unknown[]): { content: unknown[] } {
  if (Array.isArray(content)) return { content };
  const logprobs = {} as { content: unknown[] };
  const settle = (value: unknown[]) => {
    unread.delete(logprobs);
    Object.defineProperty(logprobs, "content", { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(logprobs, "content", {
    get: () => settle(unpack(content)),
    set: settle,
    enumerable: true,
    configurable: true,
  });
  // console.log shows the entries, not "[Getter/Setter]".
  Object.defineProperty(logprobs, Symbol.for("nodejs.util.inspect.custom"), {
    value: (_depth: number, options: object, inspect: (v: unknown, o: object) => string) =>
      inspect({ ...logprobs }, options),
  });
  unread.set(logprobs, content);
  return logprobs;
}

/**
 * @internal What a kept copy of `logprobs` holds as its `content`: the packed list read through
 * a view, or undefined when the list is short or of another shape (keep it as it is). A
 * streamed choice's list nobody has read yet is taken as it was packed during the stream.
 */
export function keptLogprobContent(logprobs: Record<string, unknown>): unknown[] | undefined {
  let packed = unread.get(logprobs);
  if (packed === undefined) {
    const content = logprobs["content"];
    if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype) return undefined;
    packed = pack(content);
  }
  return packed === undefined ? undefined : view(packed);
}
