/**
 * Hostile servers and hostile inputs: one row per case, with how it is made and what the client
 * does. Pure data, no imports, like `fault-table.ts`: `hostile.test.ts` runs one test per row
 * (per transport where `transports` is `"both"`), and `scripts/reliability-table.mjs` renders the
 * same rows into `docs/reliability.md`.
 */

export type HostileId =
  | "deepErrorBody"
  | "protoErrorBody"
  | "htmlTitleLinear"
  | "nullBody"
  | "nullChoice"
  | "oddChunks"
  | "jobWithoutId"
  | "ignoresLimit"
  | "pagesIgnoreLimit"
  | "retryAfterNotDigits"
  | "requestOptions"
  | "idempotencyKey"
  | "unserializable"
  | "changesAfterValidation"
  | "nonObjectParams"
  | "loneSurrogate"
  | "baseURLUserinfo"
  | "causeSecrets"
  | "parseUnawaited";

export interface HostileCase {
  id: HostileId;
  /** Who misbehaves: the server (or a proxy) or the caller. */
  side: "server" | "input";
  label: string;
  how: string;
  outcome: string;
  /** `"both"`: run with the undici transport and with `fetch`; `"none"`: no request is involved. */
  transports: "both" | "none";
}

export const HOSTILE_CASES: ReadonlyArray<HostileCase> = [
  {
    id: "deepErrorBody",
    side: "server",
    label: "error body nested 50 000 levels deep",
    how: "`deepErrorBody()`: a 500 whose `error` envelope nests arrays 50 000 deep",
    outcome: "`InternalServerError` with the envelope's message; no `RangeError`",
    transports: "both",
  },
  {
    id: "protoErrorBody",
    side: "server",
    label: "`__proto__` keys in an error body",
    how: "`protoErrorBody()`: a 422 with `__proto__` at the top, in `error` and in `detail[0]`",
    outcome:
      "`UnprocessableEntityError`; `body`, `body.error` and `detail[0]` keep `Object.prototype` (the key stays data)",
    transports: "both",
  },
  {
    id: "htmlTitleLinear",
    side: "server",
    label: "2 MB HTML error page of unclosed `<title` tags",
    how: "`parseErrorBody` on the page, under a 5 s execution bound (`node:vm`)",
    outcome: "done in linear time (the old pattern backtracked: minutes at this size)",
    transports: "none",
  },
  {
    id: "nullBody",
    side: "server",
    label: "200 with the JSON body `null`",
    how: "`oddJson(null)` on chat, models, annotation progress, training jobs",
    outcome: "`ResponseParseError` naming what was expected; 1 try (not retried)",
    transports: "both",
  },
  {
    id: "nullChoice",
    side: "server",
    label: '200 `{"choices":[null]}`',
    how: "`oddJson({ choices: [null] })` on chat",
    outcome: "`ResponseParseError` naming `choices.0`; 1 try",
    transports: "both",
  },
  {
    id: "oddChunks",
    side: "server",
    label: "odd stream chunks",
    how: "`oddChunk(...)` after 1 chunk: `null`, `choices: [null]`, `tool_calls: [null]`, `logprobs.content: 5`",
    outcome: "`ResponseParseError` naming the chunk and the member, after chunk 1 was yielded",
    transports: "both",
  },
  {
    id: "jobWithoutId",
    side: "server",
    label: "training job answered 200 without an `id`",
    how: "`oddJson({})` on `trainingJobs.create` (what a redirect to another origin's page looks like)",
    outcome: "`ResponseParseError` naming `id`: never a success without a job",
    transports: "both",
  },
  {
    id: "ignoresLimit",
    side: "server",
    label: "call query server ignores `limit`",
    how: "`ignoresLimit()`: 50 000 records whatever was asked; the caller sets `limit: 5`",
    outcome: "5 records, 1 request; the rest of the body is not read",
    transports: "both",
  },
  {
    id: "pagesIgnoreLimit",
    side: "server",
    label: "`pages()` against a server ignoring `limit`",
    how: "`ignoresLimit()` on the first page; `pageSize: 2`, `limit: 6`",
    outcome: "3 pages of 2 records each",
    transports: "both",
  },
  {
    id: "retryAfterNotDigits",
    side: "server",
    label: "`retry-after` that is neither digits nor an HTTP date",
    how: "429 with `retry-after: 0x10`, `1e1`, `+3`; `maxRetries: 0`",
    outcome: "`RateLimitError` with `retryAfter` undefined (ordinary backoff), not 16, 10 or 3 s",
    transports: "both",
  },
  {
    id: "requestOptions",
    side: "input",
    label: "malformed per-request options",
    how: '`maxRetries` NaN, Infinity, "3", -1, 1.5; `timeout`/`idleTimeout` NaN, -1, "5"; `signal: {}`; a non-string header',
    outcome: "`RequestValidationError` naming the option, the same message as the constructor's; nothing sent",
    transports: "both",
  },
  {
    id: "idempotencyKey",
    side: "input",
    label: "empty, blank or null `idempotencyKey`",
    how: '`trainingJobs.create(job, { idempotencyKey: "" | "  " | null })`',
    outcome: "`RequestValidationError`; nothing sent, nothing retried",
    transports: "both",
  },
  {
    id: "unserializable",
    side: "input",
    label: "values JSON cannot carry in pass-through fields",
    how: "a cycle, a BigInt, 20 000-deep nesting, NaN, Infinity in `chat_template_kwargs`, `json_schema.schema`, tool `parameters`",
    outcome: "`RequestValidationError` naming the field path; nothing sent",
    transports: "both",
  },
  {
    id: "changesAfterValidation",
    side: "input",
    label: "a `toJSON` or getter that answers differently each time",
    how: "a message whose `content` getter (and a kwargs object whose `toJSON`) changes on every read",
    outcome: "each read once; the server receives exactly what was validated",
    transports: "both",
  },
  {
    id: "nonObjectParams",
    side: "input",
    label: "parameters that are not an object",
    how: "`calls.query(null)`, `sort_by: [null]`, `chat.completions.create(null)`",
    outcome: "no synchronous throw; `RequestValidationError`; nothing sent",
    transports: "both",
  },
  {
    id: "loneSurrogate",
    side: "input",
    label: "path id that is not well-formed Unicode",
    how: "a queue id ending in a lone surrogate (`\\uD83D`)",
    outcome: "`RequestValidationError` naming `queueId` (no `URIError`); nothing sent",
    transports: "both",
  },
  {
    id: "baseURLUserinfo",
    side: "input",
    label: "`http://user:pass@host` as `baseURL`",
    how: "`new Inferloop({ baseURL: 'http://user:pass@host' })`, and the same as `traceBaseURL`",
    outcome: "`InferloopError` naming the option and the credential options; the password is never printed",
    transports: "none",
  },
  {
    id: "causeSecrets",
    side: "input",
    label: "secrets in `err.cause`",
    how: "an API key holding a control character; a custom `fetch` / `dispatcher` whose error carries the request",
    outcome: "no key, password or Basic value anywhere in the error or its cause chain (`util.inspect`, depth ∞)",
    transports: "both",
  },
  {
    id: "parseUnawaited",
    side: "input",
    label: "`parse()` that fails and is never awaited",
    how: "`chat.completions.parse(...)` against a 503, result dropped; `.withResponse()` on a success",
    outcome: "no unhandled rejection; `.withResponse()` gives the parsed data with status and headers",
    transports: "both",
  },
];
