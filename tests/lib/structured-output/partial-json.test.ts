import { describe, expect, it } from "vitest";
import { parsePartialJSON } from "../../../src/lib/structured-output/partial-json.js";

describe("parsePartialJSON", () => {
  it.each([
    ["", undefined],
    ["{", {}],
    ['{"ci', {}],
    ['{"city"', {}],
    ['{"city":', {}],
    ['{"city":"Par', { city: "Par" }],
    ['{"city":"Paris","n":1', { city: "Paris" }],
    ['{"city":"Paris","n":12,', { city: "Paris", n: 12 }],
    ['{"ok":tr', {}],
    ['{"ok":true,"x":nu', { ok: true }],
    ['{"a":[1,2', { a: [1] }],
    ['{"a":[{"b":"c', { a: [{ b: "c" }] }],
    ['{"s":"line\\', { s: "line" }],
    ['{"s":"caf\\u00', { s: "caf" }],
    ['{"s":"caf\\u00e9', { s: "café" }],
    ['{"s":"a\\"b', { s: 'a"b' }],
    ["[", []],
    ['"hel', "hel"],
    ["12", 12],
    ['{"a":1}', { a: 1 }],
  ])("%j reads as %j", (text, value) => {
    expect(parsePartialJSON(text)).toEqual(value);
  });

  it("gives undefined for text that is not JSON at all", () => {
    expect(parsePartialJSON("Sunny, 21 degrees")).toBeUndefined();
    expect(parsePartialJSON('{"a" 1')).toBeUndefined();
  });

  it("every prefix of a document reads as a value the document contains", () => {
    const doc = { city: "Paris", days: [{ celsius: -21.5, note: 'a "quoted" é' }], ok: false, none: null };
    const text = JSON.stringify(doc, null, 1);
    for (let i = 1; i <= text.length; i++) {
      const value = parsePartialJSON(text.slice(0, i)) as typeof doc | undefined;
      if (value?.days?.[0]?.celsius !== undefined) expect(value.days[0].celsius).toBe(-21.5);
      if (value?.ok !== undefined) expect(value.ok).toBe(false);
    }
    expect(parsePartialJSON(text)).toEqual(doc);
  });
});
