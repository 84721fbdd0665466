import { describe, expect, it } from "vitest";
import { decodeJSONL } from "../../src/core/decoding/jsonl.js";
import { ResponseParseError } from "../../src/core/errors/errors.js";
import {
  chunkBytes,
  isStrTemplate,
  type JSONLVector,
  mismatches,
  title,
  toAsync,
  vectorStream,
  vectors,
} from "./vectors.js";

async function decode(chunks: Iterable<Uint8Array>): Promise<{ records: unknown[]; failure: unknown }> {
  const records: unknown[] = [];
  try {
    for await (const r of decodeJSONL(toAsync(chunks))) records.push(r);
    return { records, failure: undefined };
  } catch (failure) {
    return { records, failure };
  }
}

/** The raw text of a vector, to check that an error never quotes the body. */
function bodyText(v: Pick<JSONLVector, "chunks">): string {
  const d = new TextDecoder();
  let s = "";
  for (const c of chunkBytes(v.chunks)) s += d.decode(c, { stream: true });
  return s + d.decode();
}

describe("decodeJSONL: conformance vectors", () => {
  it("the fixture holds JSONL vectors", () => {
    expect(vectors.jsonl.length).toBeGreaterThan(5);
  });

  vectors.jsonl.forEach((v, i) => {
    it(title(i, v.source), async () => {
      const { records, failure } = await decode(vectorStream(v));
      expect(records).toEqual(v.records);
      if (v.error) {
        expect(failure).toBeInstanceOf(ResponseParseError);
        const err = failure as ResponseParseError;
        // The bad line is named by number (records before it + blank lines are counted), and
        // none of its text is quoted back.
        expect(err.line).toBeGreaterThan(v.records.length);
        expect(err.message).toContain(`Line ${err.line}`);
        const badLine = bodyText(v).split("\n")[err.line! - 1]!.trim();
        expect(badLine.length).toBeGreaterThan(0);
        expect(err.message).not.toContain(badLine);
      } else {
        expect(failure).toBeUndefined();
      }
    });
  });
});

describe("decodeJSONL: large vectors", () => {
  vectors.large.forEach((v, i) => {
    if (v.kind !== "jsonl") return;
    it(`large ${title(i, v.source)}`, { timeout: 120_000 }, async () => {
      const { records, failure } = await decode(vectorStream(v));
      expect(failure).toBeUndefined();
      expect(records.length).toBe(v.records.length);
      // Records hold templated strings: compare field by field without printing megabytes.
      v.records.forEach((want, r) => {
        const got = records[r] as Record<string, unknown>;
        for (const [k, w] of Object.entries(want as Record<string, unknown>)) {
          if (isStrTemplate(w)) expect(mismatches(String(got[k]), w)).toEqual([]);
          else expect(got[k]).toEqual(w);
        }
      });
    });
  });
});

describe("decodeJSONL: where the sources disagree, the contract wins (a non-JSON line rejects)", () => {
  const jsonl = vectors.disagreements.filter((d) => d.kind === "jsonl");

  it("the disagreements list has JSONL cases", () => {
    expect(jsonl.length).toBeGreaterThan(0);
  });

  jsonl.forEach((d, i) => {
    // DESIGN.md: "A line that is not JSON rejects with an error that names its line number".
    const failing = d.positions.find((p) => p.error)!;
    it(`#${i} ${JSON.stringify(d.chunks)}: records then ResponseParseError`, async () => {
      const { records, failure } = await decode(chunkBytes(d.chunks));
      expect(records).toEqual(failing.records);
      expect(failure).toBeInstanceOf(ResponseParseError);
      expect((failure as ResponseParseError).line).toBe(2);
      expect((failure as Error).message).not.toMatch(/not-json|invalid-no-newline/);
    });
  });
});
