/** Every row of the retry table against the pure decision: the endpoint's terms, the outcome
 * and the attempt number give whether to retry, after how long, and why. */
import { describe, expect, it } from "vitest";
import { decideRetry } from "../../src/core/pipeline/retry.js";
import { RETRY_CASES, RETRY_CASES_NOW } from "../cases/retry-cases.js";

describe("decideRetry against the retry table", () => {
  it.each(RETRY_CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const random = c.random ?? 0;
    expect(
      decideRetry(c.outcome, c.terms, c.attempt, RETRY_CASES_NOW, () => random),
      c.source,
    ).toEqual(c.expected);
  });

  it("names a reason the caller can act on only when an idempotency key would have retried it", () => {
    for (const c of RETRY_CASES.filter((row) => row.expected.why === "may-duplicate")) {
      const keyed = decideRetry(c.outcome, { ...c.terms, idempotencyKey: true }, c.attempt, RETRY_CASES_NOW, () => 0);
      expect(keyed.why, c.name).not.toBe("may-duplicate");
      if (keyed.retry === false) expect(keyed.why, c.name).toBe("retry-after-too-long");
    }
  });
});
