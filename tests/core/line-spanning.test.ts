/**
 * Lines that span many chunks, as the SSE and JSONL decoders see them when a server flushes
 * byte by byte or sends one huge value: the text comes out whole and exact, a BOM is dropped
 * only at the very start, and `maxBufferBytes` stops an endless line while it arrives.
 */
import { describe, expect, it } from "vitest";
import { decodeJSONLBatches } from "../../src/core/decoding/jsonl.js";
import { decodeSSEBatches } from "../../src/core/decoding/sse.js";
import { ResponseParseError, ResponseTooLargeError } from "../../src/index.js";
import { bytewise, collect, pieces } from "./byte-streams.js";

const enc = new TextEncoder();

/** `prefix`, then 100 times the limit of `x` in 1-byte chunks (endless, as far as a 1000-byte
 * limit can tell, yet a decoder that ignores the limit ends instead of hanging the suite);
 * `pulled.n` counts the bytes the decoder asked for. */
function endless(prefix: string, pulled: { n: number }): AsyncIterable<Uint8Array> {
  const head = enc.encode(prefix);
  const x = enc.encode("x");
  return {
    async *[Symbol.asyncIterator]() {
      for (const b of head) {
        pulled.n++;
        yield Uint8Array.of(b);
      }
      for (let i = 0; i < 100_000; i++) {
        pulled.n++;
        yield x;
      }
    },
  };
}

describe("SSE: an event that spans many chunks", () => {
  it("a 200 KB event with multi-byte characters, one byte per chunk, comes out exact", async () => {
    const data = `{"content":"${"héllo wörld 😀 ".repeat(10_000)}"}`;
    const { items, error } = await collect(decodeSSEBatches(bytewise(`data: ${data}\n\ndata: [DONE]\n\n`)));
    expect(error).toBeUndefined();
    expect(items).toEqual([
      { event: null, data },
      { event: null, data: "[DONE]" },
    ]);
  });

  it("CR, LF and CRLF that fall on chunk edges end lines the same way", async () => {
    const { items } = await collect(
      decodeSSEBatches(
        pieces("data: a\r", "\ndata: b\r", "\r", "event: e\rdata: c", "\r\n", "\r\n", "data: d\n", "\n"),
      ),
    );
    expect(items).toEqual([
      { event: null, data: "a\nb" },
      { event: "e", data: "c" },
      { event: null, data: "d" },
    ]);
  });

  it("an endless line fails with ResponseTooLargeError once its bytes pass maxBufferBytes", async () => {
    const pulled = { n: 0 };
    const { error } = await collect(decodeSSEBatches(endless("data: 1\n\ndata: ", pulled), 1000));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    // It stopped reading right there: nothing past the limit was held.
    expect(pulled.n).toBeLessThanOrEqual("data: 1\n\n".length + 1001);
  });
});

describe("JSONL: a line that spans many chunks", () => {
  it("a 100 KB record, one byte per chunk, parses exactly", async () => {
    const record = { id: "c1", text: "ünïcödé ✓ ".repeat(10_000) };
    const { items, error } = await collect(decodeJSONLBatches(bytewise(`${JSON.stringify(record)}\r\n{"id":"c2"}`)));
    expect(error).toBeUndefined();
    expect(items).toEqual([record, { id: "c2" }]);
  });

  it("a BOM is dropped at the start of the body even when the first line spans chunks", async () => {
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf);
    const { items, error } = await collect(decodeJSONLBatches(pieces(bom, '{"a"', ":1}\n", '{"b":2}\n')));
    expect(error).toBeUndefined();
    expect(items).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("a BOM later in the body is content: that line is not JSON", async () => {
    const { items, error } = await collect(decodeJSONLBatches(pieces('{"a":1}\n', "\uFEFF", '{"b":2}\n')));
    expect(items).toEqual([{ a: 1 }]);
    expect(error).toBeInstanceOf(ResponseParseError);
    expect((error as Error).message).toBe("Line 2 of the JSONL response is not valid JSON.");
  });

  it("an endless line fails with ResponseTooLargeError once it passes maxBufferBytes", async () => {
    const pulled = { n: 0 };
    const { items, error } = await collect(decodeJSONLBatches(endless('{"a":1}\n"', pulled), 1000));
    expect(items).toEqual([{ a: 1 }]);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/^Line 2 of the JSONL response/);
    expect(pulled.n).toBeLessThanOrEqual('{"a":1}\n'.length + 1001);
  });
});
