import { afterEach, describe, expect, it, vi } from "vitest";
import { APIUserAbortError } from "../../src/core/errors/errors.js";
import { backoffMs, isRetryableStatus, retryAfterMs, serverRetryHint, sleep } from "../../src/core/pipeline/retry.js";

describe("retryAfterMs", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads retry-after-ms as milliseconds, fractions kept", () => {
    expect(retryAfterMs({ "retry-after-ms": "10" }, now)).toBe(10);
    expect(retryAfterMs({ "retry-after-ms": "250.5" }, now)).toBe(250.5);
  });

  it("prefers retry-after-ms over retry-after", () => {
    expect(retryAfterMs({ "retry-after-ms": "20", "retry-after": "5" }, now)).toBe(20);
  });

  it("reads retry-after as seconds", () => {
    expect(retryAfterMs({ "retry-after": "3" }, now)).toBe(3000);
    expect(retryAfterMs({ "retry-after": "0" }, now)).toBe(0);
    expect(retryAfterMs({ "retry-after": " 12 " }, now)).toBe(12_000);
  });

  it("reads retry-after only as delay-seconds digits or an HTTP date, nothing Number() would take", () => {
    for (const value of ["0x10", "1e1", "+3", "1.5", "0b11", "3 s", "Infinity", "12abc", "Jan 2026"])
      expect(retryAfterMs({ "retry-after": value }, now), value).toBeUndefined();
    for (const value of ["0x10", "1e3", "+3", "Infinity"])
      expect(retryAfterMs({ "retry-after-ms": value }, now), value).toBeUndefined();
  });

  it("reads retry-after as an HTTP date, relative to now", () => {
    expect(retryAfterMs({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }, now)).toBe(30_000);
  });

  it("reads the obsolete RFC 850 and asctime date forms too", () => {
    expect(retryAfterMs({ "retry-after": "Thursday, 01-Jan-26 00:00:05 GMT" }, now)).toBe(5000);
    expect(retryAfterMs({ "retry-after": "Thu Jan  1 00:00:07 2026 GMT" }, now)).toBe(7000);
  });

  it("gives 0 for an HTTP date in the past", () => {
    expect(retryAfterMs({ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }, now)).toBe(0);
  });

  it("falls back to retry-after when retry-after-ms is garbage", () => {
    expect(retryAfterMs({ "retry-after-ms": "soon", "retry-after": "2" }, now)).toBe(2000);
  });

  it("ignores garbage and negative values", () => {
    expect(retryAfterMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "" }, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after": "-5" }, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after-ms": "-1" }, now)).toBeUndefined();
    expect(retryAfterMs({ "retry-after-ms": "NaN" }, now)).toBeUndefined();
  });

  it("is undefined without either header", () => {
    expect(retryAfterMs({}, now)).toBeUndefined();
  });
});

describe("backoffMs", () => {
  it("doubles from 500 ms with no jitter", () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0))).toEqual([500, 1000, 2000, 4000]);
  });

  it("is capped at 8 s however many retries came before", () => {
    expect(backoffMs(4, () => 0)).toBe(8000);
    expect(backoffMs(30, () => 0)).toBe(8000);
    expect(backoffMs(1000, () => 0)).toBe(8000);
  });

  it("jitters down by at most 25%", () => {
    for (let n = 0; n < 10; n++) {
      const top = Math.min(500 * 2 ** n, 8000);
      expect(backoffMs(n, () => 0.999999)).toBeGreaterThan(top * 0.75 - 1e-6);
      expect(backoffMs(n, () => 0.999999)).toBeLessThanOrEqual(top);
    }
    for (let i = 0; i < 200; i++) {
      const d = backoffMs(2);
      expect(d).toBeGreaterThanOrEqual(1500);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});

describe("isRetryableStatus", () => {
  it("retries timeouts, conflicts, rate limits and server faults", () => {
    for (const s of [408, 409, 429, 500, 502, 503, 504, 599]) expect(isRetryableStatus(s), String(s)).toBe(true);
  });

  it("does not retry other client errors", () => {
    for (const s of [400, 401, 403, 404, 413, 418, 422]) expect(isRetryableStatus(s), String(s)).toBe(false);
  });
});

describe("serverRetryHint", () => {
  it("reads x-should-retry true/false and nothing else", () => {
    expect(serverRetryHint({ "x-should-retry": "true" })).toBe(true);
    expect(serverRetryHint({ "x-should-retry": "false" })).toBe(false);
    expect(serverRetryHint({ "x-should-retry": "maybe" })).toBeUndefined();
    expect(serverRetryHint({})).toBeUndefined();
  });
});

describe("sleep", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves after the delay", async () => {
    vi.useFakeTimers();
    let done = false;
    const p = sleep(1000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await p;
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at once with APIUserAbortError when the signal aborts, leaving no timer", async () => {
    vi.useFakeTimers();
    const ac = new AbortController();
    const p = sleep(60_000, ac.signal);
    expect(vi.getTimerCount()).toBe(1);
    ac.abort();
    // No timer advanced: the rejection must come from the abort alone.
    await expect(p).rejects.toBeInstanceOf(APIUserAbortError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects without starting a timer when the signal is already aborted", async () => {
    vi.useFakeTimers();
    const p = sleep(60_000, AbortSignal.abort());
    expect(vi.getTimerCount()).toBe(0);
    await expect(p).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it("leaves no abort listener behind once it resolves", async () => {
    vi.useFakeTimers();
    const ac = new AbortController();
    const added = vi.spyOn(ac.signal, "addEventListener");
    const removed = vi.spyOn(ac.signal, "removeEventListener");
    const p = sleep(10, ac.signal);
    await vi.advanceTimersByTimeAsync(10);
    await p;
    expect(added).toHaveBeenCalledTimes(1);
    expect(removed).toHaveBeenCalledWith("abort", added.mock.calls[0]![1]);
    // A later abort must not reject anything or throw.
    ac.abort();
  });

  it("leaves no real timer handle when aborted", async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const ac = new AbortController();
    const p = sleep(600_000, ac.signal);
    expect(process.getActiveResourcesInfo().filter((r) => r === "Timeout").length).toBe(before + 1);
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(APIUserAbortError);
    expect(process.getActiveResourcesInfo().filter((r) => r === "Timeout").length).toBe(before);
  });
});
