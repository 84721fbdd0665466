import { describe, expect, it } from "vitest";
import { checkOptions, NUMERIC_OPTIONS, optionIssues } from "../../src/core/checks/option-checks.js";
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
    expect(() => checkOptions({ timeout: -1, maxRetries: Number.NaN }, "chat.completions.create request")).toThrow(
      RequestValidationError,
    );
    try {
      checkOptions({ timeout: -1, maxRetries: Number.NaN }, "chat.completions.create request");
    } catch (err) {
      expect((err as RequestValidationError).issues.map((i) => i.path)).toEqual(["timeout", "maxRetries"]);
    }
    expect(() => checkOptions(undefined, "chat.completions.create request")).not.toThrow();
    expect(() => checkOptions(5 as never, "chat.completions.create request")).toThrow(RequestValidationError);
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

// JavaScript callers have no compiler to catch a misspelt option: it would be ignored silently.
describe("misspelt option names", () => {
  const base = { baseURL: "http://127.0.0.1:9", apiKey: "k", maxRetries: 0 };
  const refusal = (fn: () => unknown): RequestValidationError => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(RequestValidationError);
      return err as RequestValidationError;
    }
    throw new Error("expected a refusal");
  };

  it("refuses an unknown client option at construction, with the name meant", () => {
    const err = refusal(() => new Inferloop({ ...base, apikey: "k" } as never));
    expect(err.message).toBe(
      'Invalid client options: apikey: unknown option "apikey" (did you mean "apiKey"?). Nothing was sent.',
    );
    expect(refusal(() => new Inferloop({ ...base, baseUrl: "http://x" } as never)).issues).toEqual([
      { path: "baseUrl", message: 'unknown option "baseUrl" (did you mean "baseURL"?)', code: "unknown_option" },
    ]);
  });

  it("refuses a client option no name is close to, listing the options", () => {
    const err = refusal(() => new Inferloop({ ...base, region: "eu" } as never));
    expect(err.issues[0]!.message).toMatch(/^unknown option "region"; the options are apiKey, username, .*telemetry$/);
  });

  it("refuses a misspelt option in withOptions too", () => {
    const client = new Inferloop(base);
    expect(refusal(() => client.withOptions({ timout: 5 } as never)).issues[0]!.message).toBe(
      'unknown option "timout" (did you mean "timeout"?)',
    );
    expect(client.withOptions({ timeout: 5 }).timeout).toBe(5);
  });

  it("refuses a near miss of a request option before sending, and leaves a method's own options alone", async () => {
    const client = new Inferloop(base);
    const err = await client.models.list({ maxRetires: 1 } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).message).toBe(
      'Invalid models.list request: maxRetires: unknown option "maxRetires" (did you mean "maxRetries"?). Nothing was sent.',
    );
    // `project` belongs to models.list, not to every request: it passes this check (and the
    // closed port then fails the request itself).
    const other = await client.models.list({ project: "acme/bot" }).catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(RequestValidationError);
  });
});
