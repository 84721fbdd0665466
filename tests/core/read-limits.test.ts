/**
 * The per-value limits of the decoders (`maxBufferBytes` as the SSE and JSONL readers apply
 * it) and the chunk-index check of the accumulator, without a network.
 */
import { describe, expect, it } from "vitest";
import { decodeJSONLBatches } from "../../src/core/decoding/jsonl.js";
import { decodeSSEBatches } from "../../src/core/decoding/sse.js";
import { ChatCompletionAccumulator, ResponseParseError, ResponseTooLargeError } from "../../src/index.js";
import { collect, pieces } from "./byte-streams.js";

describe("SSE: maxBufferBytes bounds one event", () => {
  it("events up to the limit pass; a longer one fails after the ones before it, even split in pieces", async () => {
    const ok = `data: ${"a".repeat(90)}\n\n`;
    const { items, error } = await collect(
      decodeSSEBatches(pieces(ok, "data: ", "b".repeat(60), "b".repeat(60), "\n\n"), 100),
    );
    expect(items.map((e) => e.data.length)).toEqual([90]);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(100);
  });

  it("a one-line event over the limit fails however it is framed or cut, even whole in one chunk", async () => {
    const big = "x".repeat(101);
    for (const parts of [
      [`data: 1\n\ndata: ${big}\n\n`],
      [`data: 1\r\n\r\ndata: ${big}\r\n\r\n`],
      [`data: 1\n\ndata: ${big}\n`, "\n"],
    ]) {
      const { items, error } = await collect(decodeSSEBatches(pieces(...parts), 100));
      expect(items).toEqual([{ event: null, data: "1" }]);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
    }
    const { items, error } = await collect(decodeSSEBatches(pieces(`data: ${"x".repeat(100)}\n\n`), 100));
    expect(error).toBeUndefined();
    expect(items.map((e) => e.data.length)).toEqual([100]);
  });

  it("the data lines of one event count together", async () => {
    const { error } = await collect(
      decodeSSEBatches(pieces(`data: ${"x".repeat(60)}\ndata: ${"y".repeat(60)}\n\n`), 100),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it("comments do not accumulate: a million bytes of `: ping` pass a 100-byte limit", async () => {
    const pings = Array.from({ length: 10_000 }, () => ": ping ping ping ping ping ping ping ping ping ping ping\n\n");
    const { items, error } = await collect(decodeSSEBatches(pieces(...pings, "data: 1\n\n"), 100));
    expect(error).toBeUndefined();
    expect(items).toEqual([{ event: null, data: "1" }]);
  });
});

describe("JSONL: maxBufferBytes bounds one line", () => {
  it("a line over the limit fails, naming its number, after the records before it", async () => {
    const { items, error } = await collect(
      decodeJSONLBatches(pieces('{"a":1}\n{"a":2}\n{"pad":"', "z".repeat(80), "z".repeat(80)), 100),
    );
    expect(items).toEqual([{ a: 1 }, { a: 2 }]);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(
      /^Line 3 of the JSONL response is larger than maxBufferBytes \(100 bytes\)/,
    );
  });

  it("a long line inside one chunk fails too; lines at the limit pass", async () => {
    const atLimit = `{"p":"${"q".repeat(92)}"}`;
    expect(atLimit.length).toBe(100);
    const { items, error } = await collect(decodeJSONLBatches(pieces(`${atLimit}\n${atLimit}x\n`), 100));
    expect(items).toHaveLength(1);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });
});

describe("ChatCompletionAccumulator: chunk indices", () => {
  const chunk = (choice: Record<string, unknown>) => ({
    id: "c",
    object: "chat.completion.chunk",
    created: 0,
    model: "m",
    choices: [choice as never],
  });

  for (const index of ["__proto__", "0", -1, 0.5, null, Number.NaN]) {
    it(`choice index ${JSON.stringify(index)} is a ResponseParseError and adds no choice`, () => {
      const acc = new ChatCompletionAccumulator();
      acc.add(chunk({ index: 0, delta: { content: "ok" } }));
      expect(() => acc.add(chunk({ index, delta: { content: "evil" } }))).toThrow(ResponseParseError);
      expect(acc.finish().choices.map((c) => c.message.content)).toEqual(["ok"]);
    });
  }

  it("a tool-call index that is not a non-negative integer names its field", () => {
    const acc = new ChatCompletionAccumulator();
    const bad = chunk({ index: 0, delta: { tool_calls: [{ index: 0 }, { index: "toString" }] } });
    expect(() => acc.add(bad)).toThrow(/choices\[0\]\.delta\.tool_calls\[1\]\.index/);
  });
});
