/**
 * Every error the SDK throws extends {@link InferloopError}, so one `instanceof` check catches
 * them all; HTTP failures extend {@link APIError} and carry the status, headers and body.
 *
 * @example
 * ```ts
 * try {
 *   await client.models.list();
 * } catch (err) {
 *   if (err instanceof RateLimitError) console.log("retry in", err.retryAfter, "ms");
 *   else if (err instanceof APIError) console.log(err.status, err.requestId);
 *   else throw err;
 * }
 * ```
 */
export class InferloopError extends Error {
  override name = "InferloopError";
}

/** One entry of a FastAPI-style `detail` list. */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
  [key: string]: unknown;
}

/** What an {@link APIError} is built from. */
export interface APIErrorInit {
  status: number;
  headers: Headers;
  body: unknown;
  message: string;
  /** The machine-readable `type` of an OpenAI-style envelope, when present. */
  type?: string | undefined;
  /** The `param` of an OpenAI-style envelope, when present. */
  param?: string | null | undefined;
  /** The `code` of the envelope: vLLM sends the numeric status, gateways a string. */
  code?: string | number | null | undefined;
  detail?: ValidationDetail[] | undefined;
}

/**
 * The server answered with an error status, or sent an error event inside a stream.
 */
export class APIError extends InferloopError {
  override name = "APIError";
  /** HTTP status, or the numeric `code` of an in-stream error event. */
  readonly status: number;
  /** Response headers (rate-limit headers included). */
  readonly headers: Headers;
  /** The parsed error body (JSON when it was JSON, else the text, shortened). */
  readonly body: unknown;
  /** `x-request-id` of the response, for support tickets. */
  readonly requestId: string | undefined;
  /** The machine-readable `type` of an OpenAI-style error envelope, when the body had one. */
  readonly type: string | undefined;
  /** The request field the error is about (`param` of the envelope), when given. */
  readonly param: string | null | undefined;
  /** The envelope's `code`: vLLM sends the numeric status, gateways a string. */
  readonly code: string | number | null | undefined;

  constructor(init: APIErrorInit) {
    super(init.message);
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
    this.requestId = init.headers.get("x-request-id") ?? undefined;
    this.type = init.type;
    this.param = init.param;
    this.code = init.code;
  }
}

/** HTTP 400. */
export class BadRequestError extends APIError {
  override name = "BadRequestError";
}
/** HTTP 401: the API key or Basic credentials were refused. */
export class AuthenticationError extends APIError {
  override name = "AuthenticationError";
}
/** HTTP 403. */
export class PermissionDeniedError extends APIError {
  override name = "PermissionDeniedError";
}
/** HTTP 404. */
export class NotFoundError extends APIError {
  override name = "NotFoundError";
}
/** HTTP 409. */
export class ConflictError extends APIError {
  override name = "ConflictError";
}

/**
 * HTTP 422, with the server's `detail` list (`{loc, msg, type}` per fault).
 */
export class UnprocessableEntityError extends APIError {
  override name = "UnprocessableEntityError";
  readonly detail: ValidationDetail[];
  constructor(init: APIErrorInit) {
    super(init);
    this.detail = init.detail ?? [];
  }
}

/**
 * HTTP 429, with `retryAfter` in milliseconds when the server said how long to wait.
 */
export class RateLimitError extends APIError {
  override name = "RateLimitError";
  readonly retryAfter: number | undefined;
  constructor(init: APIErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** HTTP 500 and above. */
export class InternalServerError extends APIError {
  override name = "InternalServerError";
}

/**
 * The request could not be completed at the network level: refused, reset, cut off mid-body,
 * or a stream that ended without its end marker.
 */
export class APIConnectionError extends InferloopError {
  override name = "APIConnectionError";
  constructor(message = "Connection error.", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * No response headers within `timeout`, no body data within `idleTimeout`, or the request's
 * `signal` came from `AbortSignal.timeout()` and fired (then `cause` is its `TimeoutError`).
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = "APIConnectionTimeoutError";
  constructor(message = "Request timed out.", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The caller aborted the request (its `signal`, or `stream.abort()`). The reason given to
 * `abort(reason)` is the error's `cause`. A `break` out of a stream loop throws nothing: it closes
 * the request quietly, and only a later `finalCompletion()` on that stream rejects with this
 * error (the rest was never read).
 */
export class APIUserAbortError extends InferloopError {
  override name = "APIUserAbortError";
  constructor(message = "Request was aborted.", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** One problem found in a request before it was sent. */
export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `messages.2.role`; `""` for the whole object. */
  path: string;
  message: string;
  /** The zod issue code behind it (`invalid_type`, `unrecognized_keys`, `custom`, ...), when known. */
  code?: string;
}

// A schema's own message often starts with its field's name ("model_id must be a UUID"), which
// reads well alone but says the name twice after the path ("model_id: model_id must ...").
function unrepeated(path: string, message: string): string {
  const name = path.slice(path.lastIndexOf(".") + 1);
  return message.startsWith(`${name} `) ? message.slice(name.length + 1) : message;
}

/**
 * The input was refused on the client: nothing was sent.
 */
export class RequestValidationError extends InferloopError {
  override name = "RequestValidationError";
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[], what = "request") {
    const summary = issues
      .slice(0, 5)
      .map((i) => (i.path ? `${i.path}: ${unrepeated(i.path, i.message)}` : i.message))
      .join("; ");
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : "";
    super(`Invalid ${what}: ${summary}${more}. Nothing was sent.`);
    this.issues = issues;
  }
}

/**
 * A response body could not be decoded (a JSONL line or an SSE data line that is not JSON).
 * The message names the position but never includes the body itself.
 */
export class ResponseParseError extends InferloopError {
  override name = "ResponseParseError";
  /** 1-based line (JSONL) or event (SSE) number, when known. */
  readonly line: number | undefined;
  constructor(message: string, options?: { line?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.line = options?.line;
  }
}

/**
 * One JSON value of the response (a whole JSON body, one SSE event or one JSONL line) was
 * larger than `maxBufferBytes`. The request was closed and is not retried: the same request
 * would get the same answer. Raise the option (per request or on the client) if the reply is
 * legitimate.
 */
export class ResponseTooLargeError extends InferloopError {
  override name = "ResponseTooLargeError";
  /** The `maxBufferBytes` in force, in bytes. */
  readonly limit: number;
  constructor(what: string, limit: number) {
    super(
      `${what} is larger than maxBufferBytes (${limit} bytes); the request was closed. Raise \`maxBufferBytes\` if this reply is expected.`,
    );
    this.limit = limit;
  }
}

/**
 * Pick the error class for an HTTP status. Used for responses and for in-stream error events,
 * whose numeric `code` stands for the status.
 */
export function apiErrorFor(init: APIErrorInit & { retryAfter?: number | undefined }): APIError {
  const s = init.status;
  if (s === 400) return new BadRequestError(init);
  if (s === 401) return new AuthenticationError(init);
  if (s === 403) return new PermissionDeniedError(init);
  if (s === 404) return new NotFoundError(init);
  if (s === 409) return new ConflictError(init);
  if (s === 422) return new UnprocessableEntityError(init);
  if (s === 429) return new RateLimitError(init);
  if (s >= 500) return new InternalServerError(init);
  return new APIError(init);
}
