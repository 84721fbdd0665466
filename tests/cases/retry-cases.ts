/**
 * The retry table: what one attempt ended with, the endpoint's retry terms and the attempt number
 * → whether another attempt follows, after how long, and why. Every row runs against the pure
 * decision (`tests/core/retry-cases.test.ts`); the rows marked `loopback` also run end to end
 * against the fake service's fault layer (`tests/integration/retry-cases.test.ts`), so the
 * decision and the loop around it cannot drift apart.
 *
 * `source` says where the rule comes from: DESIGN.md ("Retries", "No duplicate jobs"), the peer
 * SDKs (openai-node's and anthropic-sdk-typescript's `shouldRetry` and
 * `calculateDefaultRetryTimeoutMillis`, which agree), or RFC 9110 §10.2.3 for `Retry-After`.
 * Where inferloop departs from the peers on purpose, the source says so.
 */
import type { AttemptOutcome, RetryDecision, RetryTerms } from "../../src/core/pipeline/retry.js";

export interface RetryCase {
  name: string;
  outcome: AttemptOutcome;
  terms: RetryTerms;
  /** The attempt that just ended: 0 for the first. */
  attempt: number;
  /** The jitter's random draw in [0, 1); 0 (no jitter) unless given. */
  random?: number;
  expected: RetryDecision;
  source: string;
  /** Also run over loopback against the fake (a status or reset fault, then one good answer). */
  loopback?: boolean;
}

/** The clock the HTTP-date rows are read against. */
export const RETRY_CASES_NOW = Date.parse("2026-01-01T00:00:00Z");

/** models.list, chat: running twice does no harm. */
const SAFE: RetryTerms = { policy: "safe", idempotencyKey: false, maxRetries: 2 };
/** trainingJobs.create without an idempotency key. */
const CREATES: RetryTerms = { policy: "unsent-only", idempotencyKey: false, maxRetries: 2 };
/** trainingJobs.create with `idempotencyKey`: the server drops a second copy. */
const CREATES_KEYED: RetryTerms = { policy: "unsent-only", idempotencyKey: true, maxRetries: 2 };

const status = (code: number, headers: Record<string, string> = {}): AttemptOutcome => ({
  kind: "status",
  status: code,
  headers,
});
const CUT: AttemptOutcome = { kind: "connection", unsent: false };
const UNSENT: AttemptOutcome = { kind: "connection", unsent: true };

const PEERS = "openai-node / anthropic-sdk-typescript shouldRetry";
const PEER_DELAY = "openai-node / anthropic-sdk-typescript calculateDefaultRetryTimeoutMillis";

export const RETRY_CASES: RetryCase[] = [
  // Which statuses are retried.
  {
    name: "503, first attempt: backoff from 0.5 s",
    outcome: status(503),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 500, why: "status" },
    source: `DESIGN.md Retries (>= 500); ${PEERS}; ${PEER_DELAY} (0.5 s initial)`,
  },
  {
    name: "500 with retry-after-ms 10",
    outcome: status(500, { "retry-after-ms": "10" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 10, why: "status" },
    source: `DESIGN.md Retries (retry-after-ms first); ${PEER_DELAY}`,
    loopback: true,
  },
  {
    name: "408 request timeout",
    outcome: status(408, { "retry-after-ms": "0" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 0, why: "status" },
    source: `DESIGN.md Retries; ${PEERS} (408)`,
    loopback: true,
  },
  {
    name: "409 conflict (a lock timeout)",
    outcome: status(409),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 500, why: "status" },
    source: `DESIGN.md Retries; ${PEERS} (409: lock timeouts)`,
  },
  {
    name: "429 rate limited",
    outcome: status(429),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 500, why: "status" },
    source: `DESIGN.md Retries; ${PEERS} (429)`,
  },
  ...[400, 401, 403, 404, 422].map(
    (code): RetryCase => ({
      name: `${code} is final`,
      outcome: status(code),
      terms: SAFE,
      attempt: 0,
      expected: { retry: false, why: "final-status" },
      source: `DESIGN.md Retries (only 408, 409, 429, >= 500); ${PEERS}`,
      loopback: code === 400,
    }),
  ),
  {
    name: "a redirect is not followed nor retried",
    outcome: status(307, { location: "https://elsewhere.example/v1/models" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: false, why: "redirect" },
    source: "inferloop: a redirect would get the same answer again (docs/reliability.md, redirect row)",
  },
  {
    name: "x-should-retry: true on a redirect changes nothing",
    outcome: status(308, { "x-should-retry": "true" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: false, why: "redirect" },
    source: "inferloop: a redirect would get the same answer again",
  },

  // x-should-retry overrides the status.
  {
    name: "x-should-retry: false stops a 503",
    outcome: status(503, { "x-should-retry": "false" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: false, why: "server-declined" },
    source: `DESIGN.md Retries (x-should-retry overrides); ${PEERS}`,
    loopback: true,
  },
  {
    name: "x-should-retry: true retries a 400",
    outcome: status(400, { "x-should-retry": "true", "retry-after-ms": "0" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 0, why: "server-asked" },
    source: `DESIGN.md Retries (x-should-retry overrides); ${PEERS}`,
    loopback: true,
  },
  {
    name: "x-should-retry other than true/false is no hint",
    outcome: status(400, { "x-should-retry": "yes" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: false, why: "final-status" },
    source: `${PEERS} (compares with "true" and "false" exactly)`,
  },

  // How long to wait.
  {
    name: "retry-after in seconds",
    outcome: status(429, { "retry-after": "2" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 2000, why: "status" },
    source: "RFC 9110 §10.2.3 (delay-seconds); DESIGN.md Retries",
  },
  {
    name: "retry-after as an HTTP date 30 s ahead",
    outcome: status(503, { "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 30_000, why: "status" },
    source: "RFC 9110 §10.2.3 (HTTP-date), §5.6.7 (IMF-fixdate); DESIGN.md Retries",
  },
  {
    name: "retry-after as an HTTP date in the past: at once",
    outcome: status(503, { "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 0, why: "status" },
    source: "RFC 9110 §10.2.3 (HTTP-date); the peers back off on their own for a zero or negative wait",
  },
  {
    name: "retry-after that is not digits is ignored: backoff",
    outcome: status(503, { "retry-after": "1.5" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 500, why: "status" },
    source: "RFC 9110 §10.2.3 (delay-seconds = 1*DIGIT); the peers' parseFloat would read 1.5 s",
  },
  {
    name: "retry-after-ms wins over retry-after",
    outcome: status(429, { "retry-after-ms": "20", "retry-after": "5" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 20, why: "status" },
    source: `DESIGN.md Retries; ${PEER_DELAY}`,
  },
  {
    name: "retry-after of exactly 60 s is waited out",
    outcome: status(429, { "retry-after": "60" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 60_000, why: "status" },
    source: "inferloop: MAX_RETRY_AFTER_MS (60 s) is the longest wait (the peers wait only under 60 s)",
  },
  {
    name: "retry-after above 60 s: the error goes to the caller",
    outcome: status(429, { "retry-after": "120" }),
    terms: SAFE,
    attempt: 0,
    expected: { retry: false, why: "retry-after-too-long" },
    source:
      "inferloop, on purpose: the RateLimitError carries retryAfter instead of a silent wait (the peers ignore such a retry-after and back off on their own)",
    loopback: true,
  },
  {
    name: "backoff doubles: second retry",
    outcome: status(503),
    terms: SAFE,
    attempt: 1,
    expected: { retry: true, delayMs: 1000, why: "status" },
    source: PEER_DELAY,
  },
  {
    name: "backoff is capped at 8 s",
    outcome: status(503),
    terms: { ...SAFE, maxRetries: 10 },
    attempt: 6,
    expected: { retry: true, delayMs: 8000, why: "status" },
    source: `${PEER_DELAY} (8 s cap)`,
  },
  {
    name: "jitter takes up to 25% off the backoff",
    outcome: status(503),
    terms: SAFE,
    attempt: 1,
    random: 0.5,
    expected: { retry: true, delayMs: 875, why: "status" },
    source: `${PEER_DELAY} (jitter = 1 - random * 0.25)`,
  },
  {
    name: "a server's own delay gets no jitter",
    outcome: status(503, { "retry-after": "3" }),
    terms: SAFE,
    attempt: 0,
    random: 0.9,
    expected: { retry: true, delayMs: 3000, why: "status" },
    source: PEER_DELAY,
  },

  // How many times.
  {
    name: "the last allowed attempt failed",
    outcome: status(503, { "retry-after-ms": "10" }),
    terms: SAFE,
    attempt: 2,
    expected: { retry: false, why: "retries-used" },
    source: "DESIGN.md client options (maxRetries, default 2)",
    loopback: true,
  },
  {
    name: "maxRetries 0 sends once",
    outcome: status(503),
    terms: { ...SAFE, maxRetries: 0 },
    attempt: 0,
    expected: { retry: false, why: "retries-used" },
    source: "DESIGN.md client options (maxRetries)",
  },

  // No duplicate jobs.
  {
    name: "503 on a create without a key: may have run, not sent again",
    outcome: status(503),
    terms: CREATES,
    attempt: 0,
    expected: { retry: false, why: "may-duplicate" },
    source: "DESIGN.md No duplicate jobs (the request reached the server)",
    loopback: true,
  },
  {
    name: "429 on a create without a key",
    outcome: status(429, { "retry-after-ms": "10" }),
    terms: CREATES,
    attempt: 0,
    expected: { retry: false, why: "may-duplicate" },
    source: "DESIGN.md No duplicate jobs (any answer means it was received)",
  },
  {
    name: "x-should-retry: true on a create without a key",
    outcome: status(400, { "x-should-retry": "true" }),
    terms: CREATES,
    attempt: 0,
    expected: { retry: false, why: "may-duplicate" },
    source: "DESIGN.md No duplicate jobs (whatever the status says)",
  },
  {
    name: "a long retry-after on a create without a key: the key is still what would help",
    outcome: status(503, { "retry-after": "120" }),
    terms: CREATES,
    attempt: 0,
    expected: { retry: false, why: "may-duplicate" },
    source: "DESIGN.md No duplicate jobs",
  },
  {
    name: "a create without a key and no retries allowed: no note",
    outcome: status(503),
    terms: { ...CREATES, maxRetries: 0 },
    attempt: 0,
    expected: { retry: false, why: "retries-used" },
    source: "inferloop: the note says what would have retried it, and maxRetries 0 retries nothing",
  },
  {
    name: "400 on a create is final",
    outcome: status(400),
    terms: CREATES,
    attempt: 0,
    expected: { retry: false, why: "final-status" },
    source: "DESIGN.md Retries",
  },
  {
    name: "x-should-retry: false on a create",
    outcome: status(503, { "x-should-retry": "false" }),
    terms: CREATES,
    attempt: 0,
    expected: { retry: false, why: "server-declined" },
    source: "DESIGN.md Retries (x-should-retry overrides)",
  },
  {
    name: "503 on a create with an idempotency key is retried",
    outcome: status(503, { "retry-after-ms": "10" }),
    terms: CREATES_KEYED,
    attempt: 0,
    expected: { retry: true, delayMs: 10, why: "status" },
    source: "DESIGN.md No duplicate jobs (or when the caller passed an idempotencyKey)",
    loopback: true,
  },
  {
    name: "a create with a key still stops at a long retry-after",
    outcome: status(503, { "retry-after": "120" }),
    terms: CREATES_KEYED,
    attempt: 0,
    expected: { retry: false, why: "retry-after-too-long" },
    source: "inferloop: MAX_RETRY_AFTER_MS",
  },

  // No complete answer.
  {
    name: "connection lost (reset, timeout, body cut off) on a safe request",
    outcome: CUT,
    terms: SAFE,
    attempt: 0,
    random: 0.99,
    expected: { retry: true, delayMs: 376.25, why: "connection" },
    source: `DESIGN.md Retries (connection errors, timeouts); ${PEERS}`,
    loopback: true,
  },
  {
    name: "connection refused on a safe request",
    outcome: UNSENT,
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 500, why: "unsent" },
    source: "DESIGN.md Retries (connection errors)",
  },
  {
    name: "connection lost on a create without a key: it may have arrived",
    outcome: CUT,
    terms: CREATES,
    attempt: 0,
    expected: { retry: false, why: "may-duplicate" },
    source: "DESIGN.md No duplicate jobs",
    loopback: true,
  },
  {
    name: "connection refused or DNS failure on a create: provably unsent, retried",
    outcome: UNSENT,
    terms: CREATES,
    attempt: 0,
    expected: { retry: true, delayMs: 500, why: "unsent" },
    source: "DESIGN.md No duplicate jobs (connection refused, DNS)",
  },
  {
    name: "unsent, but the retries are used up",
    outcome: UNSENT,
    terms: CREATES,
    attempt: 2,
    expected: { retry: false, why: "retries-used" },
    source: "DESIGN.md client options (maxRetries)",
  },
  {
    name: "connection lost on a create with a key",
    outcome: CUT,
    terms: CREATES_KEYED,
    attempt: 1,
    expected: { retry: true, delayMs: 1000, why: "connection" },
    source: "DESIGN.md No duplicate jobs (idempotencyKey)",
  },
  {
    name: "the caller aborted",
    outcome: { kind: "aborted" },
    terms: SAFE,
    attempt: 0,
    expected: { retry: false, why: "aborted" },
    source: `DESIGN.md Retries (an aborted signal ends at once); ${PEERS} (never retry a user abort)`,
  },
  {
    name: "the caller aborted a create with a key",
    outcome: { kind: "aborted" },
    terms: CREATES_KEYED,
    attempt: 0,
    expected: { retry: false, why: "aborted" },
    source: "DESIGN.md Retries",
  },
  {
    name: "a whole 2xx body that cannot be read reads the same way again",
    outcome: { kind: "unreadable" },
    terms: SAFE,
    attempt: 0,
    expected: { retry: false, why: "unreadable" },
    source: "inferloop: only a body cut off or stalled is worth another attempt (docs/reliability.md)",
  },
  {
    name: "a failure the transport did not classify, safe request",
    outcome: { kind: "unknown" },
    terms: SAFE,
    attempt: 0,
    expected: { retry: true, delayMs: 500, why: "unknown" },
    source: "inferloop: a safe request may always be sent again",
  },
  {
    name: "a failure the transport did not classify, create without a key",
    outcome: { kind: "unknown" },
    terms: CREATES,
    attempt: 0,
    expected: { retry: false, why: "unknown-may-duplicate" },
    source: "DESIGN.md No duplicate jobs (only provably unsent requests)",
  },
];
