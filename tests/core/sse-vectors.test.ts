import { describe, expect, it } from "vitest";
import { readJSONEvents } from "../../src/core/decoding/event-stream.js";
import { decodeSSE, type SSEEvent } from "../../src/core/decoding/sse.js";
import { APIError, ResponseParseError } from "../../src/core/errors/errors.js";
import { Redactor } from "../../src/core/errors/secrets.js";
import { chunkBytes, mismatches, type SSEVector, title, toAsync, vectorStream, vectors } from "./vectors.js";

async function decodeAll(chunks: Iterable<Uint8Array>): Promise<SSEEvent[]> {
  const out: SSEEvent[] = [];
  for await (const ev of decodeSSE(toAsync(chunks))) out.push(ev);
  return out;
}

function expectEvents(actual: SSEEvent[], expected: SSEVector["events"]) {
  expect(actual.map((e) => e.event)).toEqual(expected.map((e) => e.event));
  const problems = expected.flatMap((e, i) => mismatches(actual[i]!.data, e.data).map((m) => `event ${i}: ${m}`));
  expect(problems).toEqual([]);
}

/**
 * Feeds the chunks one at a time and records, each time the decoder asks for the next chunk,
 * how many events the consumer already holds. An event must be handed over as soon as its
 * bytes are in, not when more bytes (or the end) arrive.
 */
async function deliveredBeforeEachPull(chunks: Uint8Array[]): Promise<number[]> {
  const seen: SSEEvent[] = [];
  const counts: number[] = [];
  async function* source() {
    for (const c of chunks) {
      counts.push(seen.length);
      yield c;
    }
    counts.push(seen.length);
  }
  for await (const ev of decodeSSE(source())) seen.push(ev);
  return counts.slice(1); // counts[k] = events held once chunks 0..k were fed
}

describe("decodeSSE: conformance vectors", () => {
  it("the fixture describes its format and holds SSE vectors", () => {
    expect(vectors.format.events).toContain("null");
    expect(vectors.sse.length).toBeGreaterThan(50);
  });

  vectors.sse.forEach((v, i) => {
    it(title(i, v.source), async () => {
      expectEvents(await decodeAll(vectorStream(v)), v.events);
    });
  });
});

describe("decodeSSE: events are delivered without waiting for more bytes", () => {
  vectors.sse.forEach((v, i) => {
    const chunks = [...chunkBytes(v.chunks)];
    if (chunks.length === 0) return;
    it(title(i, v.source), async () => {
      const counts = await deliveredBeforeEachPull(chunks);
      // What a decoder that had only the first k+1 chunks (and then the end) dispatches. The
      // prefixes are decoded one by one (quadratic), so a vector of thousands of one-byte
      // chunks is checked at its last 200 prefixes and wherever the count changes.
      const expected: number[] = [];
      const checkAll = chunks.length <= 300;
      for (let k = 0; k < chunks.length; k++) {
        const check = checkAll || k >= chunks.length - 200 || counts[k] !== counts[k - 1];
        expected.push(check ? (await decodeAll(chunks.slice(0, k + 1))).length : counts[k]!);
      }
      expect(counts).toEqual(expected);
    });
  });
});

describe("readJSONEvents: the stream layer over the vectors with stream_expect", () => {
  const secret = "sk-synthetic-sentinel-secret-721";
  const redactor = new Redactor([secret]);

  vectors.sse.forEach((v, i) => {
    const se = v.stream_expect;
    if (!se) return;
    it(title(i, v.source), async () => {
      const yields: unknown[] = [];
      let failure: unknown;
      try {
        for await (const item of readJSONEvents(decodeSSE(toAsync(vectorStream(v))), {}, redactor)) yields.push(item);
      } catch (err) {
        failure = err;
      }
      // Where the source SDK synthesises `{event, data}` for named events (an opt-in of
      // openai-node), our layer yields the payload itself: compare with its `data`.
      const named = new Set(v.events.map((e) => e.event).filter((e) => e !== null));
      const want = se.yields.map((y) => {
        const o = y as { event?: unknown; data?: unknown };
        return typeof o === "object" && o !== null && Object.keys(o).length === 2 && named.has(o.event as string)
          ? o.data
          : y;
      });
      expect(yields).toEqual(want);

      if (se.then === "end") expect(failure).toBeUndefined();
      else if (se.then === "SyntaxError") expect(failure).toBeInstanceOf(ResponseParseError);
      else expect(failure).toBeInstanceOf(APIError);
      if (failure instanceof Error) {
        // Whatever the stream carried is not quoted back, and no secret leaks.
        expect(failure.message).not.toContain(secret);
        expect(JSON.stringify(failure)).not.toContain(secret);
      }
    });
  });
});

describe("decodeSSE: large vectors", () => {
  vectors.large.forEach((v, i) => {
    if (v.kind !== "sse") return;
    it(`large ${title(i, v.source)}`, { timeout: 300_000 }, async () => {
      expectEvents(await decodeAll(vectorStream(v)), v.events);
    });
  });
});

describe("decodeSSE: where the sources disagree, the WHATWG rules win", () => {
  const sse = vectors.disagreements.filter((d) => d.kind === "sse");

  it("the disagreements list has SSE cases with a WHATWG position", () => {
    expect(sse.length).toBeGreaterThan(0);
    for (const d of sse) expect(d.positions.some((p) => p.source.startsWith("WHATWG"))).toBe(true);
  });

  sse.forEach((d, i) => {
    const whatwg = d.positions.find((p) => p.source.startsWith("WHATWG"))!;
    it(`#${i} ${JSON.stringify(d.chunks.join?.("") ?? d.chunks)}: ${JSON.stringify(whatwg.events)}`, async () => {
      expect(await decodeAll(chunkBytes(d.chunks))).toEqual(whatwg.events);
    });
  });

  it("a line ended by a lone CR is a line end at once: CR CR dispatches before more bytes arrive", async () => {
    // The line-decoder disagreement ('foo\r', '\r', 'bar'): WHATWG treats CR alone as a line end,
    // so the block is complete at the second CR and must not wait for a possible LF.
    const enc = new TextEncoder();
    const counts = await deliveredBeforeEachPull([
      enc.encode("data: foo\r"),
      enc.encode("\r"),
      enc.encode("data: bar"),
    ]);
    expect(counts).toEqual([0, 1, 1]);
  });
});
