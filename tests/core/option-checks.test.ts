import { describe, expect, it } from "vitest";
import { checkOptions, NUMERIC_OPTIONS, optionIssues } from "../../src/core/option-checks.js";
import { Inferloop, RequestValidationError } from "../../src/index.js";

describe("optionIssues: one check for client and request options", () => {
  it("accepts what the contract allows", () => {
    expect(
      optionIssues({
        timeout: 0,
        idleTimeout: 1.5,
        maxRetries: 3,
        signal: new AbortController().signal,
        headers: { a: "1", b: null, c: undefined },
        idempotencyKey: "job-1",
        somethingElse: Number.NaN, // not ours to judge
      }),
    ).toEqual([]);
  });

  it("checks every numeric option of the table the same way", () => {
    for (const name of Object.keys(NUMERIC_OPTIONS)) {
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -1, "3", null, true]) {
        const issues = optionIssues({ [name]: bad });
        expect(
          issues.map((i) => i.path),
          `${name}: ${String(bad)}`,
        ).toEqual([name]);
      }
    }
    expect(optionIssues({ maxRetries: 2.5 }).map((i) => i.path)).toEqual(["maxRetries"]);
    expect(optionIssues({ timeout: 2.5 })).toEqual([]);
  });

  it("says what was wrong without printing a long value", () => {
    const [issue] = optionIssues({ timeout: "x".repeat(1000) });
    expect(issue!.message).toBe('must be a finite number >= 0 (milliseconds), got the string "xxxxxxxxxxxxxxxxxxxx"');
  });

  it("refuses a signal that is not an AbortSignal and non-string headers", () => {
    expect(optionIssues({ signal: {} })[0]!.path).toBe("signal");
    expect(optionIssues({ signal: { aborted: false } })[0]!.path).toBe("signal");
    expect(optionIssues({ headers: { n: 1 } })[0]!.path).toBe("headers.n");
    expect(optionIssues({ defaultHeaders: "x" })[0]!.path).toBe("defaultHeaders");
  });

  it("wants an idempotency key that a server can deduplicate on", () => {
    for (const key of ["", "  \t", null, 0, "a\r\nb"]) expect(optionIssues({ idempotencyKey: key })).toHaveLength(1);
  });

  it("throws RequestValidationError, naming every bad option", () => {
    expect(() => checkOptions({ timeout: -1, maxRetries: Number.NaN }, "request options")).toThrow(
      RequestValidationError,
    );
    try {
      checkOptions({ timeout: -1, maxRetries: Number.NaN }, "request options");
    } catch (err) {
      expect((err as RequestValidationError).issues.map((i) => i.path)).toEqual(["timeout", "maxRetries"]);
    }
    expect(() => checkOptions(undefined, "request options")).not.toThrow();
    expect(() => checkOptions(5 as never, "request options")).toThrow(RequestValidationError);
  });

  it("is what the constructor runs", () => {
    const base = { baseURL: "http://127.0.0.1:9", apiKey: "k" };
    expect(() => new Inferloop({ ...base, maxRetries: Number.POSITIVE_INFINITY })).toThrow(
      /maxRetries: must be a whole number/,
    );
    expect(() => new Inferloop({ ...base, idleTimeout: Number.NaN })).toThrow(RequestValidationError);
    expect(new Inferloop({ ...base, maxRetries: 0, timeout: 0 }).maxRetries).toBe(0);
  });
});
