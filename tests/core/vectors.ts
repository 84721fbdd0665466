// Loader and template expansion for the shared conformance vectors
// (tests/fixtures/conformance/sse-jsonl-vectors.json, see its README; its `format` key describes every field).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

export type RawChunk = string | { b64: string } | StrTemplate | { $chunks: string; times: number };
export interface StrTemplate {
  $str: (string | { $repeat: string; times: number })[];
}
export interface DataCheck {
  $sha256?: string;
  $utf16_length?: number;
  $utf8_length?: number;
}
export type ExpectedString = string | StrTemplate | DataCheck;

export interface SSEVector {
  source: string;
  note?: string;
  chunks: RawChunk[];
  rechunk_bytes?: number;
  events: { event: string | null; data: ExpectedString }[];
  stream_expect?: { yields: unknown[]; then: "end" | "SyntaxError" | "APIError" };
}
export interface JSONLVector {
  source: string;
  note?: string;
  chunks: RawChunk[];
  rechunk_bytes?: number;
  records: unknown[];
  error?: string | null;
}
export interface Disagreement {
  kind: "sse" | "jsonl" | "line-decoder";
  chunks: RawChunk[];
  note: string;
  positions: { source: string; events?: unknown[]; records?: unknown[]; error?: string | null }[];
}
export interface Vectors {
  format: Record<string, string>;
  sse: SSEVector[];
  jsonl: JSONLVector[];
  disagreements: Disagreement[];
  large: ((SSEVector & { kind: "sse" }) | (JSONLVector & { kind: "jsonl" }))[];
}

export const vectors: Vectors = JSON.parse(
  readFileSync(new URL("../fixtures/conformance/sse-jsonl-vectors.json", import.meta.url), "utf8"),
) as Vectors;

const utf8 = new TextEncoder();

export function isStrTemplate(v: unknown): v is StrTemplate {
  return typeof v === "object" && v !== null && "$str" in v;
}

/** The string a `{$str: [...]}` template stands for. */
export function expandStr(t: StrTemplate): string {
  return t.$str.map((p) => (typeof p === "string" ? p : p.$repeat.repeat(p.times))).join("");
}

/** The byte chunks a vector feeds, in order, expanding templates lazily (huge inputs stay
 * one copy in memory at a time where the template allows it). */
export function* chunkBytes(chunks: RawChunk[]): Generator<Uint8Array> {
  for (const c of chunks) {
    if (typeof c === "string") yield utf8.encode(c);
    else if ("b64" in c) yield new Uint8Array(Buffer.from(c.b64, "base64"));
    else if ("$chunks" in c) {
      const bytes = utf8.encode(c.$chunks);
      for (let i = 0; i < c.times; i++) yield bytes;
    } else yield utf8.encode(expandStr(c));
  }
}

/** All chunks of a vector, regrouped into pieces of `size` bytes (`rechunk_bytes`). */
export function* rechunk(chunks: Iterable<Uint8Array>, size: number): Generator<Uint8Array> {
  let buf = new Uint8Array(size);
  let fill = 0;
  for (const c of chunks) {
    let at = 0;
    while (at < c.length) {
      const n = Math.min(size - fill, c.length - at);
      buf.set(c.subarray(at, at + n), fill);
      fill += n;
      at += n;
      if (fill === size) {
        yield buf;
        buf = new Uint8Array(size);
        fill = 0;
      }
    }
  }
  if (fill > 0) yield buf.subarray(0, fill);
}

/** The vector's byte stream as the decoders take it. */
export function vectorStream(v: { chunks: RawChunk[]; rechunk_bytes?: number }): Iterable<Uint8Array> {
  const raw = () => chunkBytes(v.chunks);
  return { [Symbol.iterator]: () => (v.rechunk_bytes ? rechunk(raw(), v.rechunk_bytes) : raw()) };
}

/** An async byte source over a sync list of chunks. */
export async function* toAsync(chunks: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

/** Checks an actual string against an expectation (literal, template, or hash/length check).
 * Returns a list of mismatches, empty when it matches, so a 64 MiB string is never printed. */
export function mismatches(actual: string, expected: ExpectedString): string[] {
  if (typeof expected === "string")
    return actual === expected
      ? []
      : [`expected ${JSON.stringify(expected).slice(0, 200)}, got ${JSON.stringify(actual).slice(0, 200)}`];
  if (isStrTemplate(expected)) {
    const want = expandStr(expected);
    if (actual.length !== want.length) return [`length ${actual.length} != ${want.length}`];
    return actual === want ? [] : ["same length, different content"];
  }
  const out: string[] = [];
  if (expected.$utf16_length !== undefined && actual.length !== expected.$utf16_length)
    out.push(`utf16 length ${actual.length} != ${expected.$utf16_length}`);
  const bytes = utf8.encode(actual);
  if (expected.$utf8_length !== undefined && bytes.length !== expected.$utf8_length)
    out.push(`utf8 length ${bytes.length} != ${expected.$utf8_length}`);
  if (expected.$sha256 !== undefined) {
    const sha = createHash("sha256").update(bytes).digest("hex");
    if (sha !== expected.$sha256) out.push(`sha256 ${sha} != ${expected.$sha256}`);
  }
  return out;
}

/** A short, unique-enough test title from a vector's source. */
export function title(i: number, source: string): string {
  return `#${i} ${source.replace(/^[^:]*:/, "").slice(0, 140)}`;
}
