/**
 * The fault table: operation × fault → expected outcome. Pure data, no imports, so both the
 * test (`faults.test.ts`) and the doc generator (`scripts/reliability-table.mjs`, which Node 24
 * loads directly by type stripping) read the same rows. Change a row here, run the generator,
 * and the test and `docs/reliability.md` move together (a test checks the doc is current).
 *
 * `tries` counts the requests the client started (its debug log shows one `→` line each);
 * `jobs` the training jobs the fake service holds afterwards.
 */

export type OperationId = "chat" | "chatStream" | "models" | "calls" | "progress" | "jobs" | "jobsKey";

export type FaultId =
  | "refused"
  | "resetBeforeHeaders"
  | "resetMidBody"
  | "resetMidStream"
  | "stallBeforeHeaders"
  | "stallMidBody"
  | "rateLimitSeconds"
  | "rateLimitDate"
  | "rateLimitMs"
  | "burst5xx"
  | "malformedJson"
  | "malformedSse"
  | "malformedJsonl"
  | "noDone"
  | "hugeLine"
  | "invalidUtf8"
  | "htmlBadGateway"
  | "nullBody"
  | "deepErrorBody"
  | "protoErrorBody"
  | "retryAfterNotDigits"
  | "ignoresLimit"
  | "keepAliveOnly"
  | "endlessValue"
  | "compressed"
  | "compressionBomb"
  | "redirect"
  | "endlessErrorBody"
  | "slowConsumerFetch"
  | "stallDeafFetch";

export type ErrorName =
  | "APIConnectionError"
  | "APIConnectionTimeoutError"
  | "RateLimitError"
  | "InternalServerError"
  | "ResponseParseError"
  | "UnprocessableEntityError"
  | "ResponseTooLargeError"
  | "APIError";

/** What one cell expects. */
export type Expected =
  | { ok: true; tries: number; jobs?: number; note?: string }
  | { error: ErrorName; tries: number; jobs?: number; note?: string }
  | { na: string };

export const OPERATIONS: ReadonlyArray<{ id: OperationId; label: string }> = [
  { id: "chat", label: "chat" },
  { id: "chatStream", label: "chat, streamed" },
  { id: "models", label: "models.list" },
  { id: "calls", label: "calls.query (JSONL)" },
  { id: "progress", label: "annotation progress" },
  { id: "jobs", label: "trainingJobs.create" },
  { id: "jobsKey", label: "trainingJobs.create + idempotencyKey" },
];

export const FAULTS: ReadonlyArray<{ id: FaultId; label: string; how: string }> = [
  { id: "refused", label: "connection refused", how: "nothing listens on the port" },
  { id: "resetBeforeHeaders", label: "reset before headers", how: "`reset`, once" },
  { id: "resetMidBody", label: "reset mid-body", how: "`reset` after 10 bytes of the body, once" },
  { id: "resetMidStream", label: "reset mid-stream", how: "`reset` after 2 events / JSONL lines, once" },
  {
    id: "stallBeforeHeaders",
    label: "stall before headers",
    how: "`stall` until the client leaves, once; `timeout: 400`",
  },
  {
    id: "stallMidBody",
    label: "stall mid-body / mid-stream",
    how: "`stall` after 10 bytes (JSON) or 2 events / lines (streams), once; `idleTimeout: 400`",
  },
  { id: "rateLimitSeconds", label: "429 `retry-after: 1`", how: "`rateLimited({ retryAfter: 1 })`, once" },
  {
    id: "rateLimitDate",
    label: "429 `retry-after: <HTTP date>`",
    how: "`rateLimited({ retryAfter: new Date(now + 1 s) })`, once",
  },
  { id: "rateLimitMs", label: "429 `retry-after-ms: 50`", how: "`rateLimited({ retryAfterMs: 50 })`, once" },
  { id: "burst5xx", label: "burst of 5xx", how: "500, then 503, then the real answer" },
  { id: "malformedJson", label: "malformed JSON body", how: "`malformedJson()`: 200 with a truncated JSON body" },
  { id: "malformedSse", label: "malformed SSE data line", how: "`malformedSseLine({ afterChunks: 1 })`" },
  { id: "malformedJsonl", label: "malformed JSONL line", how: "`malformedJsonlLine({ afterLines: 1 })`" },
  { id: "noDone", label: "stream ends without [DONE]", how: "`cutStream(2)`: clean end after 2 events / lines" },
  { id: "hugeLine", label: "10 MB line", how: "a valid 10 MB JSON body, SSE event or JSONL record" },
  { id: "invalidUtf8", label: "invalid UTF-8", how: "`invalidUtf8()`: bytes FF FE C3 28 inside a string" },
  { id: "htmlBadGateway", label: "502 HTML page from a proxy", how: "`badGatewayHtml()`, once" },
  {
    id: "nullBody",
    label: "`null` instead of a reply",
    how: "`oddJson(null)` (JSON), `oddChunk(null)` after 1 event (SSE), a `null` line after 1 record (JSONL)",
  },
  {
    id: "deepErrorBody",
    label: "error body nested 50 000 deep",
    how: "`deepErrorBody()`: a 500 whose JSON nests 50 000 arrays, once",
  },
  { id: "protoErrorBody", label: "`__proto__` in an error body", how: "`protoErrorBody()`: a 422, once" },
  {
    id: "retryAfterNotDigits",
    label: "429 `retry-after: 0x10`",
    how: "`rateLimited` with `retry-after: 0x10` (not delay-seconds: `Number()` reads 16 s), once",
  },
  {
    id: "ignoresLimit",
    label: "server ignores `limit`",
    how: "`ignoresLimit()`: 50 000 JSONL records whatever `limit` asked for (the caller's `limit` is 5)",
  },
  {
    id: "keepAliveOnly",
    label: "keep-alives only",
    how: "`keepAliveOnly()` after 1 event (`: ping`) / line (blank lines) every 50 ms, once; `eventTimeout: 400`",
  },
  {
    id: "endlessValue",
    label: "endless JSON value",
    how: "a body (JSON), event or line (`endlessValue()`, after 1) that never ends, once; `maxBufferBytes: 1 MiB`",
  },
  { id: "compressed", label: "gzip body", how: '`compressed("gzip")`: the real answer, gzip-compressed, once' },
  {
    id: "compressionBomb",
    label: "gzip bomb",
    how: "`compressionBomb()`: a gzip body that inflates without end, once; `maxBufferBytes: 1 MiB`",
  },
  {
    id: "redirect",
    label: "307 to another origin",
    how: '`redirect(otherOrigin + path + "?token=…")`, always',
  },
  { id: "endlessErrorBody", label: "503 with an endless body", how: "503 HTML page that never ends, once" },
  {
    id: "slowConsumerFetch",
    label: "slow consumer, fetch transport",
    how: "`fetch` option; the caller pauses 600 ms after each chunk / record; `idleTimeout: 400`",
  },
  {
    id: "stallDeafFetch",
    label: "stall mid-body, `fetch` that ignores its signal",
    how: "a custom `fetch` that drops `signal`; `stall` as in stall mid-body, once; `idleTimeout: 400`",
  },
];

const streamsOnly = "no stream: see reset mid-body";
const sseOnly = "SSE only";
const jsonlOnly = "JSONL only";
const tooLarge = {
  error: "ResponseTooLargeError",
  tries: 1,
  note: "names `maxBufferBytes`; closed, not retried",
} as const;
const redirected = {
  error: "APIError",
  tries: 1,
  note: "status 307; names the target (no query) and the `baseURL` fix; nothing sent there",
} as const;

/** Safe operations behave alike for most faults; only the stream and the job creation differ. */
function safe(e: Expected): Record<"chat" | "models" | "progress", Expected> {
  return { chat: e, models: e, progress: e };
}

const callsOnly = "call queries only";

export const TABLE: Record<FaultId, Record<OperationId, Expected>> = {
  nullBody: {
    ...safe({ error: "ResponseParseError", tries: 1, note: "names what was expected; not retried" }),
    chatStream: { error: "ResponseParseError", tries: 1, note: "names chunk 2, after chunk 1 was yielded" },
    calls: { error: "ResponseParseError", tries: 1, note: "names record 2, after record 1 was yielded" },
    jobs: { error: "ResponseParseError", tries: 1, jobs: 0, note: "not retried" },
    jobsKey: { error: "ResponseParseError", tries: 1, jobs: 0, note: "not retried" },
  },
  deepErrorBody: {
    ...safe({ ok: true, tries: 2, note: "a typed 500, retried" }),
    chatStream: { ok: true, tries: 2, note: "a typed 500, retried" },
    calls: { ok: true, tries: 2, note: "a typed 500, retried" },
    jobs: {
      error: "InternalServerError",
      tries: 1,
      jobs: 0,
      note: "the envelope's message, no RangeError; not retried",
    },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "a typed 500, retried" },
  },
  protoErrorBody: {
    ...safe({ error: "UnprocessableEntityError", tries: 1, note: "body, body.error, detail[0] keep Object.prototype" }),
    chatStream: { error: "UnprocessableEntityError", tries: 1, note: "prototypes kept" },
    calls: { error: "UnprocessableEntityError", tries: 1, note: "prototypes kept" },
    jobs: { error: "UnprocessableEntityError", tries: 1, jobs: 0, note: "prototypes kept" },
    jobsKey: { error: "UnprocessableEntityError", tries: 1, jobs: 0, note: "prototypes kept" },
  },
  retryAfterNotDigits: {
    ...safe({ ok: true, tries: 2, note: "ordinary backoff, retried" }),
    chatStream: { ok: true, tries: 2, note: "ordinary backoff, retried" },
    calls: { ok: true, tries: 2, note: "ordinary backoff, retried" },
    jobs: { error: "RateLimitError", tries: 1, jobs: 0, note: "`retryAfter` undefined; not retried" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "ordinary backoff, retried" },
  },
  ignoresLimit: {
    ...safe({ na: callsOnly }),
    chatStream: { na: callsOnly },
    calls: { ok: true, tries: 1, note: "5 records; the rest of the body is not read" },
    jobs: { na: callsOnly },
    jobsKey: { na: callsOnly },
  },
  refused: {
    ...safe({ error: "APIConnectionError", tries: 3, note: "retried twice, then fails" }),
    chatStream: { error: "APIConnectionError", tries: 3, note: "retried twice, then fails" },
    calls: { error: "APIConnectionError", tries: 3, note: "retried twice, then fails" },
    jobs: { error: "APIConnectionError", tries: 3, jobs: 0, note: "retried: provably unsent" },
    jobsKey: { error: "APIConnectionError", tries: 3, jobs: 0, note: "retried twice, then fails" },
  },
  resetBeforeHeaders: {
    ...safe({ ok: true, tries: 2, note: "retried" }),
    chatStream: { ok: true, tries: 2, note: "retried (nothing reached the caller yet)" },
    calls: { ok: true, tries: 2, note: "retried" },
    jobs: { error: "APIConnectionError", tries: 1, jobs: 0, note: "not retried: may have reached the server" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "retried with the same key" },
  },
  resetMidBody: {
    ...safe({ ok: true, tries: 2, note: "body read inside the retry loop: retried" }),
    chatStream: { error: "APIConnectionError", tries: 1, note: "stream already handed over: not retried" },
    calls: { ok: true, tries: 2, note: "page resumed; no record lost or repeated" },
    jobs: { error: "APIConnectionError", tries: 1, jobs: 1, note: "not retried: the job exists" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "retried; the server replays the job" },
  },
  resetMidStream: {
    ...safe({ na: streamsOnly }),
    chatStream: { error: "APIConnectionError", tries: 1, note: "after the chunks already read" },
    calls: { ok: true, tries: 2, note: "resumed at the first record not delivered" },
    jobs: { na: streamsOnly },
    jobsKey: { na: streamsOnly },
  },
  stallBeforeHeaders: {
    ...safe({ ok: true, tries: 2, note: "timed out, retried" }),
    chatStream: { ok: true, tries: 2, note: "timed out, retried" },
    calls: { ok: true, tries: 2, note: "timed out, retried" },
    jobs: { error: "APIConnectionTimeoutError", tries: 1, jobs: 0, note: "not retried" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "timed out, retried" },
  },
  stallMidBody: {
    ...safe({ ok: true, tries: 2, note: "idle timeout, retried" }),
    chatStream: { error: "APIConnectionTimeoutError", tries: 1, note: "stream already handed over" },
    calls: { ok: true, tries: 2, note: "idle timeout, page resumed" },
    jobs: { error: "APIConnectionTimeoutError", tries: 1, jobs: 1, note: "not retried: the job exists" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "retried; the server replays the job" },
  },
  rateLimitSeconds: {
    ...safe({ ok: true, tries: 2, note: "waits 1 s, retried" }),
    chatStream: { ok: true, tries: 2, note: "waits 1 s, retried" },
    calls: { ok: true, tries: 2, note: "waits 1 s, retried" },
    jobs: { error: "RateLimitError", tries: 1, jobs: 0, note: "`retryAfter: 1000`; not retried" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "waits 1 s, retried" },
  },
  rateLimitDate: {
    ...safe({ ok: true, tries: 2, note: "waits until the date, retried" }),
    chatStream: { ok: true, tries: 2, note: "waits until the date, retried" },
    calls: { ok: true, tries: 2, note: "waits until the date, retried" },
    jobs: { error: "RateLimitError", tries: 1, jobs: 0, note: "`retryAfter` ≤ 1000; not retried" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "waits until the date, retried" },
  },
  rateLimitMs: {
    ...safe({ ok: true, tries: 2, note: "waits 50 ms, retried" }),
    chatStream: { ok: true, tries: 2, note: "waits 50 ms, retried" },
    calls: { ok: true, tries: 2, note: "waits 50 ms, retried" },
    jobs: { error: "RateLimitError", tries: 1, jobs: 0, note: "`retryAfter: 50`; not retried" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "waits 50 ms, retried" },
  },
  burst5xx: {
    ...safe({ ok: true, tries: 3, note: "backoff, retried twice" }),
    chatStream: { ok: true, tries: 3, note: "backoff, retried twice" },
    calls: { ok: true, tries: 3, note: "backoff, retried twice" },
    jobs: { error: "InternalServerError", tries: 1, jobs: 0, note: "status 500; not retried" },
    jobsKey: { ok: true, tries: 3, jobs: 1, note: "backoff, retried twice" },
  },
  malformedJson: {
    ...safe({ error: "ResponseParseError", tries: 1, note: "no body text in the message; not retried" }),
    chatStream: { na: "see malformed SSE data line" },
    calls: { error: "ResponseParseError", tries: 1, note: "names line 1" },
    jobs: { error: "ResponseParseError", tries: 1, jobs: 0, note: "not retried" },
    jobsKey: { error: "ResponseParseError", tries: 1, jobs: 0, note: "not retried" },
  },
  malformedSse: {
    ...safe({ na: sseOnly }),
    chatStream: { error: "ResponseParseError", tries: 1, note: "names event 2, after chunk 1 was yielded" },
    calls: { na: sseOnly },
    jobs: { na: sseOnly },
    jobsKey: { na: sseOnly },
  },
  malformedJsonl: {
    ...safe({ na: jsonlOnly }),
    chatStream: { na: jsonlOnly },
    calls: { error: "ResponseParseError", tries: 1, note: "names line 2, after record 1 was yielded" },
    jobs: { na: jsonlOnly },
    jobsKey: { na: jsonlOnly },
  },
  noDone: {
    ...safe({ na: "no stream" }),
    chatStream: { error: "APIConnectionError", tries: 1, note: "never ends quietly" },
    calls: {
      ok: true,
      tries: 1,
      note: "2 of 5 records: JSONL has no end marker, a clean end reads as a short last page",
    },
    jobs: { na: "no stream" },
    jobsKey: { na: "no stream" },
  },
  hugeLine: {
    ...safe({ ok: true, tries: 1, note: "decoded whole" }),
    chatStream: { ok: true, tries: 1, note: "10 MB delta decoded whole" },
    calls: { ok: true, tries: 1, note: "10 MB record decoded whole" },
    jobs: { ok: true, tries: 1, jobs: 0, note: "decoded whole" },
    jobsKey: { ok: true, tries: 1, jobs: 0, note: "decoded whole" },
  },
  invalidUtf8: {
    ...safe({ ok: true, tries: 1, note: "FF FE C3 28 → U+FFFD U+FFFD U+FFFD `(`" }),
    chatStream: { ok: true, tries: 1, note: "FF FE C3 28 → U+FFFD U+FFFD U+FFFD `(`" },
    calls: { ok: true, tries: 1, note: "FF FE C3 28 → U+FFFD U+FFFD U+FFFD `(`" },
    jobs: { ok: true, tries: 1, jobs: 0, note: "FF FE C3 28 → U+FFFD U+FFFD U+FFFD `(`" },
    jobsKey: { ok: true, tries: 1, jobs: 0, note: "FF FE C3 28 → U+FFFD U+FFFD U+FFFD `(`" },
  },
  htmlBadGateway: {
    ...safe({ ok: true, tries: 2, note: "retried" }),
    chatStream: { ok: true, tries: 2, note: "retried" },
    calls: { ok: true, tries: 2, note: "retried" },
    jobs: { error: "InternalServerError", tries: 1, jobs: 0, note: "status 502, one-line message; not retried" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "retried" },
  },
  keepAliveOnly: {
    ...safe({ na: "streams only" }),
    chatStream: { error: "APIConnectionTimeoutError", tries: 1, note: "names `eventTimeout`, after chunk 1" },
    calls: { ok: true, tries: 2, note: "eventTimeout, page resumed" },
    jobs: { na: "streams only" },
    jobsKey: { na: "streams only" },
  },
  endlessValue: {
    ...safe(tooLarge),
    chatStream: { ...tooLarge, note: "after chunk 1; closed, not retried" },
    calls: { ...tooLarge, note: "names line 2, after record 1; not resumed" },
    jobs: { ...tooLarge, jobs: 0 },
    jobsKey: { ...tooLarge, jobs: 0 },
  },
  compressed: {
    ...safe({ ok: true, tries: 1, note: "decoded as it streams" }),
    chatStream: { ok: true, tries: 1, note: "decoded as it streams" },
    calls: { ok: true, tries: 1, note: "decoded as it streams" },
    jobs: { ok: true, tries: 1, jobs: 1, note: "decoded" },
    jobsKey: { ok: true, tries: 1, jobs: 1, note: "decoded" },
  },
  compressionBomb: {
    ...safe(tooLarge),
    chatStream: tooLarge,
    calls: tooLarge,
    jobs: { ...tooLarge, jobs: 0 },
    jobsKey: { ...tooLarge, jobs: 0 },
  },
  redirect: {
    ...safe(redirected),
    chatStream: redirected,
    calls: redirected,
    jobs: { ...redirected, jobs: 0 },
    jobsKey: { ...redirected, jobs: 0 },
  },
  endlessErrorBody: {
    ...safe({ ok: true, tries: 2, note: "64 KiB read, connection closed, retried" }),
    chatStream: { ok: true, tries: 2, note: "64 KiB read, connection closed, retried" },
    calls: { ok: true, tries: 2, note: "64 KiB read, connection closed, retried" },
    jobs: { error: "InternalServerError", tries: 1, jobs: 0, note: "64 KiB read; not retried" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "64 KiB read, connection closed, retried" },
  },
  slowConsumerFetch: {
    ...safe({ na: "streams only" }),
    chatStream: { ok: true, tries: 1, note: "the idle clock runs only while a read waits for the server" },
    calls: { ok: true, tries: 1, note: "the idle clock runs only while a read waits for the server" },
    jobs: { na: "streams only" },
    jobsKey: { na: "streams only" },
  },
  stallDeafFetch: {
    ...safe({ ok: true, tries: 2, note: "idle timeout enforced by the SDK, retried" }),
    chatStream: { error: "APIConnectionTimeoutError", tries: 1, note: "enforced by the SDK, not the signal" },
    calls: { ok: true, tries: 2, note: "idle timeout, page resumed" },
    jobs: { error: "APIConnectionTimeoutError", tries: 1, jobs: 1, note: "not retried: the job exists" },
    jobsKey: { ok: true, tries: 2, jobs: 1, note: "retried; the server replays the job" },
  },
};
