/**
 * The retry table's `loopback` rows end to end: the fake's fault layer gives the row's outcome
 * (a status with its headers, or a reset before headers) `attempt + 1` times, then answers; the
 * client, with the row's terms, must send exactly as many requests as the decision says, and say
 * "Not retried on purpose" exactly when the decision's reason is `may-duplicate`.
 */
import { describe, expect, it } from "vitest";
import { APIConnectionError, APIError } from "../../src/index.js";
import type { Fault } from "../../src/testing/index.js";
import { RETRY_CASES, type RetryCase } from "../cases/retry-cases.js";
import { trainingJob } from "../reliability/harness.js";
import { caught, clientFor, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

/** The row's endpoint: models.list for a safe request, trainingJobs.create for one that creates. */
function operation(c: RetryCase): { path: string; call: () => Promise<unknown> } {
  const client = clientFor(fake.svc, { maxRetries: c.terms.maxRetries });
  if (c.terms.policy === "safe") return { path: "/v1/models", call: () => client.models.list() };
  const options = c.terms.idempotencyKey ? { idempotencyKey: `retry-case-${c.name}` } : {};
  return { path: "/v1/preview/training-jobs", call: () => client.trainingJobs.create(trainingJob, options) };
}

function faultFor(c: RetryCase, path: string): Fault {
  const target = { path, times: c.attempt + 1 };
  if (c.outcome.kind === "status")
    return { kind: "status", status: c.outcome.status, headers: c.outcome.headers, ...target };
  if (c.outcome.kind === "connection" && !c.outcome.unsent) return { kind: "reset", ...target };
  throw new Error(`no fault gives the outcome of "${c.name}"`);
}

const rows = RETRY_CASES.filter((c) => c.loopback);

describe("the retry table over loopback", () => {
  it("has rows for both decisions and for every endpoint class", () => {
    expect(rows.some((c) => c.expected.retry)).toBe(true);
    expect(rows.some((c) => c.expected.why === "may-duplicate")).toBe(true);
    expect(new Set(rows.map((c) => `${c.terms.policy}/${c.terms.idempotencyKey}`)).size).toBe(3);
  });

  it.each(rows.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const { path, call } = operation(c);
    fake.svc.inject(faultFor(c, path));
    const sent = () => fake.svc.requests.filter((r) => r.path === path).length;
    if (c.expected.retry) {
      await call();
      expect(sent(), c.source).toBe(c.attempt + 2);
      return;
    }
    const err = await caught(call);
    expect(sent(), c.source).toBe(c.attempt + 1);
    if (c.outcome.kind === "status") {
      expect(err).toBeInstanceOf(APIError);
      expect((err as APIError).status).toBe(c.outcome.status);
    } else expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message.includes("Not retried on purpose"), c.source).toBe(
      c.expected.why === "may-duplicate",
    );
  });
});
