import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeJSONL } from "../../src/core/decoding/jsonl.js";
import { decodeSSE, type SSEEvent } from "../../src/core/decoding/sse.js";

const utf8 = new TextEncoder();

async function* source(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

/** Cut `bytes` at the given positions (taken modulo its length, so any nat fits). */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.subarray(prev, c));
    prev = c;
  }
  return out;
}

/** One chunk per byte: every multi-byte character is split. */
function bytewise(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
}

async function sse(chunks: Uint8Array[]): Promise<SSEEvent[]> {
  const out: SSEEvent[] = [];
  for await (const e of decodeSSE(source(chunks))) out.push(e);
  return out;
}

async function jsonl(chunks: Uint8Array[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const r of decodeJSONL(source(chunks))) out.push(r);
  return out;
}

// Text of one line: ASCII, any code point, and emoji (4-byte UTF-8, some with ZWJ), never CR/LF.
const emoji = fc.constantFrom("😀", "🦕", "👋🏽", "❤️‍🔥", "🫱🏻‍🫲🏼", "é", "中", "ب");
const lineText = fc
  .string({
    unit: fc.oneof(
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
      emoji,
    ),
    maxLength: 20,
  })
  .map((s) => s.replace(/[\r\n]/g, " "));
const lineEnd = fc.constantFrom("\n", "\r\n", "\r");

interface GenEvent {
  comments: string[];
  event: string | null;
  data: string[];
}
const sseEvent: fc.Arbitrary<GenEvent> = fc.record({
  comments: fc.array(lineText, { maxLength: 2 }),
  event: fc.option(
    fc.stringMatching(/^[a-z][a-z_.]{0,11}$/).filter((n) => n !== "message"),
    { nil: null },
  ),
  data: fc.array(lineText, { minLength: 1, maxLength: 4 }),
});

/** Writes the events as an SSE body, one chosen line end per line. A blank line right after a
 * lone CR must not end in LF (CR LF would be one line end), so it gets CR LF instead. */
function sseBody(events: GenEvent[], ends: string[]): string {
  let out = "";
  let i = 0;
  let prev = "";
  const line = (text: string) => {
    let end = ends[i++ % ends.length]!;
    if (text === "" && prev === "\r" && end === "\n") end = "\r\n";
    out += text + end;
    prev = end;
  };
  for (const e of events) {
    for (const c of e.comments) line(`:${c}`);
    if (e.event !== null) line(`event: ${e.event}`);
    for (const d of e.data) line(`data: ${d}`);
    line("");
  }
  return out;
}

describe("decodeSSE: any chunking gives the same events as the whole body", () => {
  it("random events with comments, multi-line data, CR/LF/CRLF and non-ASCII text", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(sseEvent, { maxLength: 6 }),
        fc.array(lineEnd, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (events, ends, cuts) => {
          const bytes = utf8.encode(sseBody(events, ends));
          const whole = await sse([bytes]);
          // The model: every block is dispatched, data lines joined by LF.
          expect(whole).toEqual(events.map((e) => ({ event: e.event, data: e.data.join("\n") })));
          expect(await sse(split(bytes, cuts))).toEqual(whole);
          expect(await sse(bytewise(bytes))).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("decodeSSE: reads larger than the piece it parses at a time (32 KiB)", () => {
  // Long lines (some longer than a piece), so pieces are cut at line ends near their size, a
  // piece boundary falls between CR and LF, and a line with no end inside a piece is taken whole.
  const longText = fc
    .tuple(lineText, fc.nat({ max: 40_000 }), emoji)
    .map(([t, n, e]) => `${t}${"x".repeat(n % 3 === 0 ? n : n % 400)}${e}`);
  const bigEvent: fc.Arbitrary<GenEvent> = fc.record({
    comments: fc.array(lineText, { maxLength: 1 }),
    event: fc.option(fc.constantFrom("delta", "ping"), { nil: null }),
    data: fc.array(longText, { minLength: 1, maxLength: 3 }),
  });
  it("large bodies in a few large reads give the events of the model", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(bigEvent, { minLength: 10, maxLength: 120 }),
        fc.array(lineEnd, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        async (events, ends, cuts) => {
          const bytes = utf8.encode(sseBody(events, ends));
          const model = events.map((e) => ({ event: e.event, data: e.data.join("\n") }));
          expect(await sse([bytes])).toEqual(model);
          expect(await sse(split(bytes, cuts))).toEqual(model);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("decodeJSONL: any chunking gives the same records as the whole body", () => {
  const value = fc.jsonValue({
    maxDepth: 3,
    stringUnit: fc.oneof(fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), emoji),
  });
  const item = fc.oneof(
    { weight: 4, arbitrary: value.map((v) => ({ record: true as const, text: JSON.stringify(v) })) },
    { weight: 1, arbitrary: fc.constantFrom("", "  ", "\t").map((t) => ({ record: false as const, text: t })) },
  );

  it("random JSON values, blank lines, CRLF and a final line without newline", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { maxLength: 10 }),
        fc.array(fc.constantFrom("\n", "\r\n"), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (items, ends, finalNewline, cuts) => {
          let text = items.map((it, i) => it.text + ends[i % ends.length]!).join("");
          if (!finalNewline && items.length > 0) text = text.replace(/\r?\n$/, "");
          const bytes = utf8.encode(text);
          const whole = await jsonl([bytes]);
          expect(whole).toEqual(items.filter((i) => i.record).map((i) => JSON.parse(i.text)));
          expect(await jsonl(split(bytes, cuts))).toEqual(whole);
          expect(await jsonl(bytewise(bytes))).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });
});
