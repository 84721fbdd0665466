import { signalAbortError } from "./abort.js";
import type { RetryPolicy } from "./request-spec.js";

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

/**
 * What one attempt ended with, as far as the retry decision cares. `status`: the server answered
 * with a status outside 2xx (a redirect included). `connection`: no complete answer (refused,
 * reset, timed out, or a buffered body cut off); `unsent` when it provably never reached the
 * server. `aborted`: the caller's signal ended it. `unreadable`: a 2xx body arrived whole but
 * could not be read. `unknown`: the transport failed in a way it did not classify.
 */
export type AttemptOutcome =
  | { kind: "status"; status: number; headers: Record<string, string> }
  | { kind: "connection"; unsent: boolean }
  | { kind: "aborted" }
  | { kind: "unreadable" }
  | { kind: "unknown" };

/** What the retry decision needs to know of the request, beside what happened to it. */
export interface RetryTerms {
  /** The endpoint's class (see {@link RetryPolicy}). */
  policy: RetryPolicy;
  /** The caller passed an `idempotencyKey`: the server drops a second copy, so any policy may repeat. */
  idempotencyKey: boolean;
  maxRetries: number;
}

/** Why another attempt is made. */
export type RetryReason =
  | "status" // 408, 409, 429 or >= 500
  | "server-asked" // x-should-retry: true
  | "connection"
  | "unsent" // provably never reached the server, so even a request that creates something
  | "unknown";

/** Why no other attempt is made. Only `may-duplicate` is the caller's to change (with an
 * `idempotencyKey`), so only it is added to the error's message. */
export type StopReason =
  | "aborted"
  | "unreadable"
  | "redirect"
  | "server-declined" // x-should-retry: false
  | "final-status"
  | "retries-used"
  | "may-duplicate"
  | "retry-after-too-long"
  | "unknown-may-duplicate";

export type RetryDecision = { retry: true; delayMs: number; why: RetryReason } | { retry: false; why: StopReason };

/**
 * Whether attempt number `attempt` (0 for the first) is followed by another, after how long, and
 * why. Pure: the clock and the jitter's random source are arguments.
 *
 * @example
 * ```ts
 * const d = decideRetry({ kind: "status", status: 503, headers: { "retry-after": "2" } },
 *   { policy: "safe", idempotencyKey: false, maxRetries: 2 }, 0);
 * // { retry: true, delayMs: 2000, why: "status" }
 * ```
 */
export function decideRetry(
  outcome: AttemptOutcome,
  terms: RetryTerms,
  attempt: number,
  now: number = Date.now(),
  random: () => number = Math.random,
): RetryDecision {
  const mayRepeat = terms.policy === "safe" || terms.idempotencyKey;
  let why: RetryReason;
  let waitMs: number | undefined;
  switch (outcome.kind) {
    case "aborted":
    case "unreadable":
      return { retry: false, why: outcome.kind };
    case "unknown":
      // Not a failure known to be worth a retry, so not worth a note when it is not retried.
      if (!mayRepeat) return { retry: false, why: "unknown-may-duplicate" };
      why = "unknown";
      break;
    case "connection":
      why = outcome.unsent ? "unsent" : "connection";
      if (!mayRepeat && !outcome.unsent) return stopBeforeDuplicate(terms, attempt);
      break;
    case "status": {
      // A redirect gets the same answer again.
      if (outcome.status < 400) return { retry: false, why: "redirect" };
      const hint = serverRetryHint(outcome.headers);
      if (hint === false) return { retry: false, why: "server-declined" };
      if (hint === undefined && !isRetryableStatus(outcome.status)) return { retry: false, why: "final-status" };
      why = hint ? "server-asked" : "status";
      // A request that may not repeat and got an answer was received: sending it again could do
      // the work twice, whatever the status says.
      if (!mayRepeat) return stopBeforeDuplicate(terms, attempt);
      waitMs = retryAfterMs(outcome.headers, now);
      if (waitMs !== undefined && waitMs > MAX_RETRY_AFTER_MS) return { retry: false, why: "retry-after-too-long" };
      break;
    }
  }
  if (attempt >= terms.maxRetries) return { retry: false, why: "retries-used" };
  return { retry: true, delayMs: waitMs ?? backoffMs(attempt, random), why };
}

/** A failure normally retried, of a request that may have reached the server and must not run twice. */
function stopBeforeDuplicate(terms: RetryTerms, attempt: number): RetryDecision {
  return { retry: false, why: attempt < terms.maxRetries ? "may-duplicate" : "retries-used" };
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
