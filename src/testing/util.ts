/**
 * Small runtime-neutral helpers shared by the fake service (no `node:` imports, so the msw
 * adapter can run the same code in a browser).
 */

/**
 * 32-bit FNV-1a hash of a string; the root of every "deterministic" value the fake produces.
 *
 * @example
 * ```ts
 * hash32("hello") === hash32("hello"); // true, on every run and machine
 * ```
 */
export function hash32(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A small deterministic pseudo-random generator (mulberry32), so seeded data never changes
 * between runs.
 *
 * @example
 * ```ts
 * const next = seededRandom(42);
 * const x = next(); // 0 <= x < 1, same sequence for the same seed
 * ```
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX = "0123456789abcdef";

/**
 * A UUIDv7-shaped identifier whose time part is `timeMs` and whose random part comes from
 * `key`; ids therefore sort like their start times, as the real trace server's do.
 *
 * @example
 * ```ts
 * deterministicUuid7(Date.UTC(2025, 0, 1), "call-1"); // "01941f29-7400-7xxx-8xxx-xxxxxxxxxxxx"
 * ```
 */
export function deterministicUuid7(timeMs: number, key: string): string {
  const time = Math.max(0, Math.floor(timeMs)).toString(16).padStart(12, "0").slice(-12);
  // Three independent 32-bit hashes give the 76 "random" bits; cheaper than a PRNG loop, which
  // matters when 200k synthetic records are generated per query.
  const a = hash32(key).toString(16).padStart(8, "0");
  const b = hash32(key, 0x9e3779b9).toString(16).padStart(8, "0");
  const c = hash32(key, 0x85ebca6b).toString(16).padStart(8, "0");
  const variant = HEX[8 + (hash32(key, 0xc2b2ae35) & 3)];
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${a.slice(0, 3)}-${variant}${a.slice(3, 6)}-${a.slice(6, 8)}${b}${c.slice(0, 2)}`;
}

/**
 * A random UUIDv4 (training job ids), from the platform's Web Crypto.
 */
export function randomUuid(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * Random lowercase hex, used for completion and request ids.
 */
export function randomHex(length: number): string {
  const bytes = new Uint8Array(Math.ceil(length / 2));
  globalThis.crypto.getRandomValues(bytes);
  let out = "";
  for (const b of bytes) out += HEX[b >> 4]! + HEX[b & 15]!;
  return out.slice(0, length);
}

/**
 * ISO-8601 in the form pydantic v2 writes UTC datetimes (microseconds, `Z`), which is what the
 * trace server sends.
 *
 * @example
 * ```ts
 * isoMicros(Date.UTC(2025, 2, 18, 17, 4, 12, 345)); // "2025-03-18T17:04:12.345000Z"
 * ```
 */
export function isoMicros(timeMs: number): string {
  const iso = new Date(timeMs).toISOString();
  return `${iso.slice(0, -1)}000Z`;
}

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * Whether a string parses as a UUID the way pydantic accepts it (hyphens optional).
 *
 * @example
 * ```ts
 * isUuid("3b241101-e2bb-4255-8caf-4136c566a962"); // true
 * ```
 */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/**
 * Resolves after `ms`, or at once when `signal` aborts, so a stalled or delayed response never
 * keeps a closing service alive.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Reads a dotted path (`summary.weave.latency_ms`, `inputs.messages.0.content`); integer parts
 * index lists, as the trace server's `$getField` does; `a\\.b` is the key `a.b`. Missing parts give `undefined`.
 *
 * @example
 * ```ts
 * getPath({ a: [{ b: 1 }] }, "a.0.b"); // 1
 * ```
 */
export function getPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of splitPath(path)) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current)) {
      if (!/^-?\d+$/.test(part)) return undefined;
      current = current[Number(part)];
    } else if (typeof current === "object") {
      current = (current as Record<string, unknown>)[part];
    } else {
      return undefined;
    }
  }
  return current;
}

// Weave addresses a key that holds a dot as `a\\.b`: split on the other dots only.
function splitPath(path: string): string[] {
  if (!path.includes("\\")) return path.split(".");
  return path.split(/(?<!\\)\./).map((part) => part.replace(/\\\./g, "."));
}

/**
 * Plain-object test that excludes arrays and null.
 *
 * @example
 * ```ts
 * isRecord({}); // true
 * isRecord([]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Standard base64 of UTF-8 text without Node's Buffer (works in browsers for the msw adapter).
 *
 * @example
 * ```ts
 * base64Utf8("api:key"); // "YXBpOmtleQ=="
 * ```
 */
export function base64Utf8(text: string): string {
  let binary = "";
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * Decodes standard base64 to UTF-8 text, or `undefined` when it is not valid base64.
 *
 * @example
 * ```ts
 * decodeBase64Utf8("YXBpOmtleQ=="); // "api:key"
 * ```
 */
export function decodeBase64Utf8(encoded: string): string | undefined {
  try {
    const binary = atob(encoded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Orders two ISO-8601 UTC timestamps by the time they name, not as text: Weave writes a time
 * without a fraction when its microseconds are zero (`...:14Z`), which sorts after
 * `...:14.005000Z` as text but comes first in time.
 *
 * @example
 * ```ts
 * compareTimes("2026-03-18T17:04:14Z", "2026-03-18T17:04:14.005000Z"); // -1
 * ```
 */
export function compareTimes(a: string, b: string): number {
  // Two UTC times written alike (same length, both `Z`) order as text: the fast path of every
  // sort of a large store, where parsing each side of millions of comparisons would fill the heap.
  if (a.length === b.length && a.endsWith("Z") && b.endsWith("Z")) return a < b ? -1 : a > b ? 1 : 0;
  const x = timeKey(a);
  const y = timeKey(b);
  if (x[0] !== y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] === y[1] ? 0 : x[1] < y[1] ? -1 : 1;
}

// Whole seconds since the epoch and the fraction's digits padded to nanoseconds.
function timeKey(s: string): [number, string] {
  const m = /^(.*?:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/.exec(s);
  if (m === null) return [Number.NaN, s];
  const seconds = Date.parse(`${m[1]}${m[3] ?? "Z"}`);
  return [seconds, (m[2] ?? "").padEnd(9, "0")];
}
