import { APIUserAbortError } from "./errors.js";

/** Retry-After values longer than this are not waited out: the error goes to the caller,
 * with `retryAfter` set, instead of the request silently hanging for minutes. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses worth another attempt: timeouts, lock conflicts, rate limits and server faults. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The server's own answer to "should I retry?": `x-should-retry: true|false` wins over the
 * status rules; `undefined` when the header is absent.
 */
export function serverRetryHint(headers: Record<string, string>): boolean | undefined {
  const v = headers["x-should-retry"];
  if (v === "true") return true;
  if (v === "false") return false;
  return undefined;
}

/**
 * How long the server asked us to wait, in ms: `retry-after-ms`, else `retry-after` as
 * seconds or as an HTTP date. `undefined` when it said nothing usable.
 */
export function retryAfterMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const ms = headers["retry-after-ms"];
  if (ms !== undefined) {
    const n = Number.parseFloat(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = headers["retry-after"];
  if (ra !== undefined) {
    const secs = Number(ra.trim());
    if (ra.trim() !== "" && Number.isFinite(secs) && secs >= 0) return secs * 1000;
    // Every HTTP-date form names its month in letters; without that check the lenient
    // Date.parse would read garbage such as "-5" as a date long past (so: retry at once).
    const date = /[a-z]{3}/i.test(ra) ? Date.parse(ra) : Number.NaN;
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

/** Exponential backoff from 0.5 s, capped at 8 s, with up to 25% jitter downwards so that
 * many clients failing together do not retry in lockstep. */
export function backoffMs(retriesSoFar: number, random = Math.random): number {
  const base = Math.min(500 * 2 ** retriesSoFar, 8000);
  return base * (1 - random() * 0.25);
}

/** Waits `ms`, or rejects with {@link APIUserAbortError} the moment `signal` aborts. The timer
 * and the listener are both removed however the wait ends. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  if (signal?.aborted) return Promise.reject(new APIUserAbortError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
