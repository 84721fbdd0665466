/**
 * The row digests Weave computes (`wandb/weave` `eval_results_helpers.py`: SHA-256 of Python's
 * `json.dumps(row, sort_keys=True)`, in Weave's URL-safe base64): the expected texts and digests
 * were made with Python from the JSON the SDK sends, not with the code under test.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pythonJson, rowDigestSource, weaveDigest } from "../../../src/lib/evaluations/weave-json.js";

const digest = (text: string) => weaveDigest(new Uint8Array(createHash("sha256").update(text, "utf8").digest()));

describe("Weave's row digests", () => {
  it("writes a row as Python's json.dumps(sort_keys=True) does, and digests it as Weave does", () => {
    const row = {
      q: 'é 😀 "quoted" \\ \n\t\u0001\u007f',
      n: [1, 2.5, 1e16, 1e-5, 0.0001, 123456789.125, -0.5, 1e21, null, true, false],
      z: { b: 1, a: 0.1, Ä: 2, "a b": [] },
      empty: {},
    };
    const text = pythonJson(row);
    expect(text).toBe(
      '{"empty": {}, "n": [1, 2.5, 10000000000000000, 1e-05, 0.0001, 123456789.125, -0.5, 1e+21, null, true, false], ' +
        '"q": "\\u00e9 \\ud83d\\ude00 \\"quoted\\" \\\\ \\n\\t\\u0001\\u007f", "z": {"a": 0.1, "a b": [], "b": 1, "\\u00c4": 2}}',
    );
    expect(digest(text)).toBe("7x6jrCIv860sfVRC0qBLDXITMyMuPVbEQ27EYg4dStI");
  });

  it("takes a dataset-row ref's digest from the ref, and hashes a string as it is", () => {
    expect(rowDigestSource("weave:///acme/evals/object/qa-dataset:D1/attr/rows/id/R1")).toEqual({ digest: "R1" });
    expect(rowDigestSource("plain string")).toEqual({ text: "plain string" });
    expect(digest("plain string")).toBe("AdcC5Jio93IOxac8r7ueYn1nNQqC2tmMV3qHBLVspzQ");
    expect(rowDigestSource({ question: "2+2?", answer: "4" })).toEqual({ text: '{"answer": "4", "question": "2+2?"}' });
    expect(digest(pythonJson({ question: "2+2?", answer: "4" }))).toBe("uuURdeE2KrPYMCoguJzuY3YaVup2myeRPo8OrzMGxxU");
  });
});
