import { signalAbortError } from "./abort.js";

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

// RFC 9110 §10.2.3: delay-seconds is digits only, so "0x10", "1e1", "+3" or "1.5" are not
// a delay (Number() would read them as 16, 10, 3 and 1.5).
const DELAY_SECONDS = /^\d+$/;
// retry-after-ms is not standardised; the peers send a plain decimal number.
const DELAY_MS = /^\d+(\.\d+)?$/;
// The three HTTP-date forms of RFC 9110 §5.6.7: IMF-fixdate, obsolete RFC 850 and asctime.
const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$|^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$|^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}( GMT)?$/;

/**
 * How long the server asked us to wait, in ms: `retry-after-ms` (a decimal number), else
 * `retry-after` as delay-seconds (digits only) or as an HTTP date. `undefined` when it said
 * nothing usable, so the usual backoff applies.
 */
export function retryAfterMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const ms = headers["retry-after-ms"]?.trim();
  if (ms !== undefined && DELAY_MS.test(ms)) return Number(ms);
  const ra = headers["retry-after"]?.trim();
  if (ra === undefined) return undefined;
  if (DELAY_SECONDS.test(ra)) return Number(ra) * 1000;
  if (!HTTP_DATE.test(ra)) return undefined;
  const date = Date.parse(ra);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
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
  if (signal?.aborted) return Promise.reject(signalAbortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signalAbortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
