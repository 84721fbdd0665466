/**
 * The numbers the fake derives as Weave does: JSON texts written as Python's `json.dumps` writes
 * them (the storage size is their length), latency floored to whole milliseconds, and
 * ClickHouse's whole-token match. Expected texts are Python's own output.
 */
import { describe, expect, it } from "vitest";
import { latencyMs, pythonJsonDumps } from "../../src/testing/calls/derived.js";
import { hasToken } from "../../src/testing/calls/query-eval.js";

describe("pythonJsonDumps writes what Python's json.dumps writes", () => {
  it.each([
    [{ q: 'café 😀 \u0001\u007f\t"\\/' }, '{"q": "caf\\u00e9 \\ud83d\\ude00 \\u0001\\u007f\\t\\"\\\\/"}'],
    [[1.5e-5, 0.0001, 1e-7, -2.5e-9, 123.456, 0], "[1.5e-05, 0.0001, 1e-07, -2.5e-09, 123.456, 0]"],
    [{ a: { b: [true, false, null] } }, '{"a": {"b": [true, false, null]}}'],
    [{}, "{}"],
  ])("%j", (value, python) => {
    expect(pythonJsonDumps(value)).toBe(python);
  });
});

describe("latencyMs floors as Python's timedelta arithmetic does", () => {
  it.each([
    ["2026-03-18T10:00:00.000100Z", "2026-03-18T10:00:00.011000Z", 10],
    ["2026-03-18T10:00:00Z", "2026-03-18T10:00:02.000900Z", 2000],
    ["2026-03-18T10:00:00Z", "2026-03-18T09:59:59.999500Z", -1],
  ])("%s to %s", (start, end, ms) => {
    expect(latencyMs(start, end)).toBe(ms);
  });
});

describe("hasToken splits on ASCII characters that are not letters or digits", () => {
  it.each([
    ["Password reset-link expired", "reset", false, true],
    ["resetting the router", "reset", false, false],
    ["RESET please", "reset", false, false],
    ["RESET please", "reset", true, true],
    ["café au lait", "café", false, true],
    ["x", "", false, false],
  ])("%j has %j (case-insensitive %s): %s", (haystack, token, ci, found) => {
    expect(hasToken(haystack, token, ci)).toBe(found);
  });
});
