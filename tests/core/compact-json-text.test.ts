/**
 * The form a large body's JSON text is held in until it is sent: whatever the form, the text
 * must parse to exactly the value written, and the cheap forms must be what is chosen.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CompactJSONWriter } from "../../src/core/json/compact-json-text.js";

const decoded = (piece: string | Uint8Array): string =>
  typeof piece === "string" ? piece : new TextDecoder().decode(piece);
const isLatin1 = (text: string): boolean => !/[\u0100-\uffff]/.test(text);
const words = (word: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${word}${i}`);

describe("CompactJSONWriter", () => {
  it("keeps Latin-1 text as JSON.stringify writes it", () => {
    const value = { a: "x\n", b: "é ñ ÿ", c: [1, null, true] };
    expect(new CompactJSONWriter().write(value)).toBe(JSON.stringify(value));
  });

  it("writes a few characters past Latin-1 in mostly ASCII text as \\u escapes: one byte a character, same value", () => {
    // CJK, an emoji (a surrogate pair: two escapes), U+FFFD (a token cut inside a UTF-8
    // sequence), a lone surrogate (JSON.stringify's own escape) and Latin-1 left as it is.
    const value = { tokens: [...words(" the", 200), " 答案", " 🙂", "\ufffd", "\udc00", " é"] };
    const piece = new CompactJSONWriter().write(value);
    expect(typeof piece).toBe("string");
    expect(isLatin1(piece as string)).toBe(true);
    expect(piece).toContain('" \\u7b54\\u6848"');
    expect(piece).toContain('" \\ud83d\\ude42"');
    expect(piece).toContain('"\\ufffd"');
    expect(piece).toContain('"\\udc00"');
    expect(piece).toContain('" é"');
    expect(JSON.parse(piece as string)).toEqual(value);
  });

  it("keeps text that is mostly characters past Latin-1 as it is (two bytes a character, no more than its UTF-8)", () => {
    const value = { content: "这个模型的答案是准备好的。".repeat(100) };
    expect(new CompactJSONWriter().write(value)).toBe(JSON.stringify(value));
  });

  it("keeps text in between as UTF-8 bytes, where escapes and two bytes a character would both hold more", () => {
    // One character in five is Chinese: escaped or as it is, 1.43 times its UTF-8.
    const value = { content: "abcd答".repeat(200) };
    const piece = new CompactJSONWriter().write(value);
    expect(piece).toEqual(new TextEncoder().encode(JSON.stringify(value)));
  });

  it("after a text past Latin-1, writes the next ones in parts to the same value, each in its cheapest form", () => {
    const writer = new CompactJSONWriter();
    writer.write({ first: " 答" });
    // Long lists are written a slice at a time: cuts at 256, 512 and in the middle of entries.
    const mixed = { entries: Array.from({ length: 600 }, (_, i) => ({ token: i % 97 === 0 ? " 🙂" : ` w${i}`, i })) };
    const ascii = { ids: Array.from({ length: 513 }, (_, i) => i), empty: [], nested: { a: [[]], b: {} } };
    const prose = { content: "答案".repeat(500), list: ["答案", "是"] };
    const mixedPiece = writer.write(mixed);
    expect(isLatin1(mixedPiece as string)).toBe(true);
    expect(JSON.parse(mixedPiece as string)).toEqual(mixed);
    expect(writer.write(ascii)).toBe(JSON.stringify(ascii));
    writer.write({ again: "答" });
    expect(writer.write(prose)).toBe(JSON.stringify(prose));
  });

  it("writes any plain JSON value in parts as JSON.stringify does (property)", () => {
    // A first text past Latin-1 switches the writer to parts; an all-Latin-1 value then comes
    // back character for character, and any value parses back to itself.
    const latin1 = fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)) });
    const anyText = fc.string({ unit: "binary" });
    const plain = (text: fc.Arbitrary<string>) =>
      fc.letrec((tie) => ({
        value: fc.oneof(
          { depthSize: "small" },
          text,
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.boolean(),
          fc.constant(null),
          fc.array(tie("value"), { maxLength: 300 }),
          fc.dictionary(fc.oneof(text, fc.constant("__proto__")), tie("value"), { maxKeys: 5 }),
        ),
      })).value;
    fc.assert(
      fc.property(plain(latin1), plain(anyText), (a, b) => {
        const writer = new CompactJSONWriter();
        writer.write(" 答");
        expect(writer.write(a)).toBe(JSON.stringify(a));
        writer.write(" 答");
        expect(JSON.parse(decoded(writer.write(b)))).toEqual(JSON.parse(JSON.stringify(b)));
      }),
      { numRuns: 200 },
    );
  });
});
