/**
 * A kept choice's token logprobs, packed (`resources/chat/packed-logprobs.ts`) and read
 * through an array-like view whose entries are made on access with the same keys, order and
 * values: `content[i].logprob` reads as before, and the list serializes to the same bytes.
 *
 * @module
 */
import {
  packedEntry,
  packLogprobs,
  unreadPackedContent,
  type PackedLogprobs,
} from "../../resources/chat/packed-logprobs.js";
import type { ChatCompletionChoice } from "../../resources/chat/types.js";
import type { TrajectoryChoice } from "../../resources/training-jobs/request-schema.js";

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
  const unpack = (): unknown[] => {
    if (plain === undefined) {
      plain = [];
      for (let i = 0; i < n; i++) plain.push(packedEntry(p, i));
    }
    return plain;
  };
  return new Proxy(target, {
    get(_t, key) {
      if (plain !== undefined) return Reflect.get(plain, key);
      if (key === "length") return n;
      const i = index(key);
      if (i >= 0) return packedEntry(p, i);
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
      return i >= 0 ? { value: packedEntry(p, i), writable: true, enumerable: true, configurable: true } : undefined;
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
  if (typeof logprobs !== "object" || logprobs === null || Object.getPrototypeOf(logprobs) !== Object.prototype)
    return logprobs;
  // A streamed choice nobody has read yet: its list was packed as it arrived.
  let packed = unreadPackedContent(logprobs);
  if (packed === undefined) {
    const content = (logprobs as Record<string, unknown>)["content"];
    if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype) return logprobs;
    packed = packLogprobs(content);
    if (packed === undefined) return logprobs;
  }
  // Key by key rather than a spread, which would read (and so unpack) a streamed `content`.
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(logprobs))
    copy[key] = key === "content" ? view(packed) : (logprobs as Record<string, unknown>)[key];
  return copy as L;
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
