import { checkOptions } from "../checks/option-checks.js";
import { parseErrorBody } from "../errors/error-body.js";
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  apiErrorFor,
  InferloopError,
  ResponseParseError,
  ResponseTooLargeError,
} from "../errors/errors.js";
import type { Log } from "../errors/log.js";
import type { Redactor } from "../errors/secrets.js";
import { jsonPieces } from "../json/json-value.js";
import { endSpanWithBody, type OperationSpan, type TelemetryOptions, traced } from "../telemetry/telemetry.js";
import { type Transport, type TransportRequest, type TransportResponse, wasUnsent } from "../transport/types.js";
import { signalAbortError } from "./abort.js";
import type { ResponseInfo, WithResponse } from "./api-promise.js";
import { type AuthScheme, authFailureHint, authorizationHeader, type Credentials } from "./auth.js";
import { checkRequestHeaders } from "./header-values.js";
import type { RequestOptions } from "./options.js";
import { redirectMessage } from "./redirect.js";
import type { ErrorHint, ReadMode, RequestSpec, Service } from "./request-spec.js";
import { type AttemptOutcome, decideRetry, type RetryTerms, retryAfterMs, sleep } from "./retry.js";

/** A base URL split once into what undici wants: the origin and a path prefix. */
export interface Base {
  origin: string;
  prefix: string;
  /** The client option it came from, for messages that say what to change. */
  option: string;
}

/** Parse a base URL, with a message that names the option when it is not one. */
export function parseBase(url: string, option: string): Base {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new InferloopError(`\`${option}\` is not a valid URL.`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new InferloopError(`\`${option}\` must be an http(s) URL.`);
  // Credentials in the URL would be printed wherever the URL is (logs, inspect, JSON), and
  // fetch refuses them anyway. The message names the options to use instead, never the URL.
  if (u.username !== "" || u.password !== "")
    throw new InferloopError(
      `\`${option}\` must not contain credentials (user:password@): pass \`apiKey\`, or \`username\` and \`password\`, instead.`,
    );
  return { origin: u.origin, prefix: u.pathname.replace(/\/+$/, ""), option };
}

/**
 * The openai habit of a base URL ending in `/v1` doubles the version segment
 * (`/v1/v1/chat/completions`), and the server's 404 alone does not say why.
 */
function doubledV1Hint(status: number, base: Base, path: string): string {
  if (status !== 404 || !/\/v1$/i.test(base.prefix) || !path.startsWith("/v1/")) return "";
  return ` (${base.prefix}${path}: inferloop adds /v1 itself; set baseURL to the service root)`;
}

/** Everything the pipeline needs, resolved once by the client. */
export interface HttpConfig {
  /** The `inference` service's base (`baseURL`). */
  api: Base;
  trace: Base;
  training: Base;
  wandb: Base;
  credentials: Credentials;
  /** `"<team>/<project>"` for the `Client-Project` header, when set. */
  project: string | undefined;
  timeout: number;
  idleTimeout: number;
  eventTimeout: number;
  maxBufferBytes: number;
  maxRetries: number;
  defaultHeaders: Record<string, string | null | undefined>;
  /** Fields merged into every JSON body after validation (the client's `extraBody`). */
  extraBody?: Record<string, unknown> | undefined;
  transport: Transport;
  log: Log;
  redactor: Redactor;
  /** OpenTelemetry span options; spans are made only when the app has registered OpenTelemetry. */
  telemetry?: TelemetryOptions;
}

/** How much of an error body is read to build the message (which keeps 500 characters):
 * enough for any real error envelope, and an endless body cannot hold the request. */
export const ERROR_BODY_BYTES = 64 * 1024;

/** The limits a reader applies to one response, resolved from the request and client options. */
export interface ReadLimits {
  /** ms to wait for the next SSE data event or JSONL record. */
  eventTimeout: number;
  /** The most bytes held for one JSON value. */
  maxBufferBytes: number;
  /** `Date.now()` when the response headers arrived: the first event's wait counts from here. */
  since: number;
}

/**
 * A successful response, handed to a resource's reader. `signal` aborts with the caller's
 * signal; readers turn the body into JSON, SSE events or JSONL records.
 */
export interface APIResponse extends TransportResponse {
  requestId: string | undefined;
  limits: ReadLimits;
  /** The operation's OpenTelemetry span, for readers that report stream chunks to it. */
  span?: OperationSpan | undefined;
  info(): ResponseInfo;
}

/**
 * The request pipeline shared by every resource: URL and headers, auth, retries with backoff,
 * error mapping and logging. Resources describe what to send and how to read the answer.
 */
export class HttpClient {
  // Private, with a getter: the config holds the credentials, and a public field would put
  // them into JSON.stringify(client) and util.inspect(client, { depth: Infinity }).
  readonly #config: HttpConfig;

  constructor(config: HttpConfig) {
    this.#config = config;
  }

  get config(): HttpConfig {
    return this.#config;
  }

  /** The base URL a service's requests go to. */
  baseOf(service: Service): Base {
    const cfg = this.#config;
    return service === "inference" ? cfg.api : cfg[service];
  }

  /**
   * The same pipeline (transport, credentials, options) with the `inference` service's
   * requests sent to `service`'s base URL instead: W&B serves chat on trained checkpoints on
   * the Training host, so a trainable model's `chat` is the chat namespace over this.
   *
   */
  routedTo(service: Service): HttpClient {
    return new HttpClient({ ...this.#config, api: this.baseOf(service) });
  }

  /** Send `spec` with retries and hand the successful response to `read`. */
  request<T>(
    spec: RequestSpec,
    options: RequestOptions | undefined,
    read: (res: APIResponse, spec: RequestSpec) => Promise<T> | T,
    mode: ReadMode = "buffered",
  ): Promise<WithResponse<T>> {
    // Not an async function: the pipeline's promise is returned as it is (an async wrapper
    // would add steps to every call), so a refusal is turned into a rejection by hand.
    try {
      // Checked exactly as the constructor checks its options, before anything is sent: a NaN
      // maxRetries would retry forever, a string timeout fail only after a retry.
      checkOptions(options, `${spec.operation} request`);
    } catch (err) {
      return Promise.reject(err);
    }
    const base = this.baseOf(spec.service);
    return traced(spec, base.origin, this.config.telemetry, mode, (span) =>
      this.#send(spec, options, read, mode, span),
    );
  }

  async #send<T>(
    spec: RequestSpec,
    options: RequestOptions | undefined,
    read: (res: APIResponse, spec: RequestSpec) => Promise<T> | T,
    mode: ReadMode,
    span: OperationSpan | undefined,
  ): Promise<WithResponse<T>> {
    const cfg = this.config;
    const base = this.baseOf(spec.service);
    const maxRetries = options?.maxRetries ?? cfg.maxRetries;
    const timeout = options?.timeout ?? cfg.timeout;
    const idleTimeout = options?.idleTimeout ?? cfg.idleTimeout;
    const eventTimeout = options?.eventTimeout ?? cfg.eventTimeout;
    const maxBufferBytes = options?.maxBufferBytes ?? cfg.maxBufferBytes;
    const signal = options?.signal;
    checkRequestHeaders(options?.headers, options?.idempotencyKey, spec.operation);
    const { headers, callerAuth } = this.#headers(spec, options);
    const value = spec.body;
    const body: TransportRequest["body"] =
      value === undefined ? undefined : spec.bodyInPieces ? { pieces: () => jsonPieces(value) } : JSON.stringify(value);
    const path = base.prefix + spec.path;
    // The same for every attempt: a retry sends the same bytes.
    const request: TransportRequest = {
      method: spec.method,
      origin: base.origin,
      path,
      headers,
      body,
      signal,
      timeout,
      idleTimeout,
      compress: spec.stream !== true,
    };
    const terms: RetryTerms = { policy: spec.retry, idempotencyKey: options?.idempotencyKey !== undefined, maxRetries };
    const log = cfg.log;

    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw signalAbortError(signal);
      const started = Date.now();
      if (log.enabled("debug"))
        log.write("debug", `→ ${spec.operation}: ${spec.method} ${path}${attempt ? ` (retry ${attempt})` : ""}`, {
          headers: cfg.redactor.headers(headers),
        });
      let failure: unknown;
      let outcome: AttemptOutcome;
      let res: TransportResponse | undefined;
      try {
        res = await cfg.transport.send(request);
      } catch (err) {
        failure = err;
      }
      if (res === undefined) outcome = sendFailure(failure, signal);
      else {
        if (log.enabled("debug"))
          log.write("debug", `← ${spec.operation}: ${res.status} ${spec.method} ${path} in ${Date.now() - started} ms`);
        if (res.status >= 200 && res.status < 300) {
          if (span && mode === "streamed") res = Object.assign(endSpanWithBody(res, span), { span });
          const response = withInfo(res, { eventTimeout, maxBufferBytes, since: Date.now() });
          if (mode === "streamed") return withResponse(await read(response, spec), response);
          try {
            return withResponse(await read(response, spec), response);
          } catch (err) {
            response.cancel();
            failure = asSdkError(err);
            // Only a body cut off or stalled is worth another attempt; a body that arrived
            // whole but cannot be read will read the same way next time.
            outcome = err instanceof APIConnectionError ? CONNECTION_FAILED : UNREADABLE;
          }
        } else {
          failure = await this.#errorFrom(
            res,
            res.status < 400 ? { spec, base } : undefined,
            res.status === 401
              ? authFailureHint(authOf(spec), cfg.credentials, callerAuth, base.origin)
              : doubledV1Hint(res.status, base, spec.path),
            spec.hooks?.errorHints,
          );
          outcome = { kind: "status", status: res.status, headers: res.headers };
        }
      }

      const decision = decideRetry(outcome, terms, attempt);
      if (!decision.retry) {
        // Say why a failure that is normally retried was not: the caller can make it retryable.
        if (decision.why === "may-duplicate") notRetried(failure as Error, spec);
        if (failure instanceof APIError && spec.hooks?.errorHints) await this.#lookUp(failure, spec, signal);
        throw cfg.redactor.error(failure);
      }
      span?.retry(attempt + 1, decision.delayMs, failure);
      if (log.enabled("warn"))
        log.write(
          "warn",
          `${spec.operation}: ${spec.method} ${path} failed (${describe(failure)}); retrying in ${Math.round(decision.delayMs)} ms (${attempt + 1}/${maxRetries})`,
        );
      await sleep(decision.delayMs, signal);
    }
  }

  /** The request's headers, and whether the caller set `Authorization` itself. */
  #headers(
    spec: RequestSpec,
    options: RequestOptions | undefined,
  ): { headers: Record<string, string>; callerAuth: boolean } {
    const out: Record<string, string> = { accept: "application/json" };
    if (spec.body !== undefined) out["content-type"] = "application/json";
    mergeHeaders(out, this.config.defaultHeaders);
    if (spec.headers) mergeHeaders(out, spec.headers);
    if (options?.headers) mergeHeaders(out, options.headers);
    const callerAuth = out.authorization !== undefined;
    if (!callerAuth) out.authorization = authorizationHeader(authOf(spec), this.config.credentials);
    if (options?.idempotencyKey !== undefined) out["idempotency-key"] = options.idempotencyKey;
    return { headers: out, callerAuth };
  }

  /** Runs the lookup of the hint that matches a final error answer, adding what it finds. */
  async #lookUp(failure: APIError, spec: RequestSpec, signal: AbortSignal | undefined): Promise<void> {
    const hint = spec.hooks?.errorHints?.find(
      (h) =>
        h.lookup !== undefined &&
        (h.status === undefined || h.status === failure.status) &&
        h.match.test(failure.message),
    );
    if (hint?.lookup === undefined) return;
    const found = await hint.lookup({ http: this, body: spec.body, signal }).catch(() => undefined);
    if (found) failure.message += found;
  }

  async #errorFrom(
    res: TransportResponse,
    redirect?: { spec: RequestSpec; base: Base },
    hint = "",
    declared?: readonly ErrorHint[],
  ): Promise<APIError> {
    let text = "";
    try {
      // Only the head of an error body is read; the rest is left unread and the connection
      // closed, so a huge or endless error page costs neither time nor memory.
      ({ text } = await res.text(ERROR_BODY_BYTES));
    } catch {
      // The error body itself was cut off: the status alone still tells what happened.
    }
    const redactor = this.config.redactor;
    // Scrubbed before parsing (a secret cut in two by the length limit) and after: a JSON body
    // may carry a secret escaped (`\"`, `\u00e4`), which only parsing turns back into the secret.
    const parsed = redactor.value(parseErrorBody(res.status, redactor.text(text), res.headers["content-type"]));
    if (redirect)
      parsed.message = redirectMessage(res.status, res.headers.location, {
        url: redirect.base.origin + redirect.base.prefix + redirect.spec.path,
        path: redirect.spec.path,
        option: redirect.base.option,
      });
    const known = declared?.find(
      (h) => (h.status === undefined || h.status === res.status) && h.match.test(parsed.message),
    );
    if (known?.hint !== undefined) hint += known.hint;
    return apiErrorFor({
      ...parsed,
      message: parsed.message + hint,
      // Scrubbed too: a proxy may echo the request's credentials back in a header.
      headers: new Headers(redactor.headers(res.headers)),
      retryAfter: res.status === 429 ? retryAfterMs(res.headers) : undefined,
    });
  }
}

const CONNECTION_FAILED: AttemptOutcome = { kind: "connection", unsent: false };
const UNREADABLE: AttemptOutcome = { kind: "unreadable" };
const ABORTED: AttemptOutcome = { kind: "aborted" };
const UNSENT: AttemptOutcome = { kind: "connection", unsent: true };
const UNKNOWN: AttemptOutcome = { kind: "unknown" };

/** What the transport's failure means for a retry. Whatever the error, once the caller's signal
 * has fired (a timeout signal included), another attempt would end the same way. */
function sendFailure(err: unknown, signal: AbortSignal | undefined): AttemptOutcome {
  if (err instanceof APIUserAbortError || signal?.aborted) return ABORTED;
  if (err instanceof APIConnectionError) return wasUnsent(err) ? UNSENT : CONNECTION_FAILED;
  return UNKNOWN;
}

/**
 * Inference and Training take the API key as a Bearer token; the trace server, Basic auth with
 * the client's username and password; W&B's own API, Basic `api:<key>`.
 */
function authOf(spec: RequestSpec): AuthScheme {
  if (spec.service === "trace") return "basic";
  if (spec.service === "wandb") return "api-key-basic";
  return "bearer";
}

/** Header names are case-insensitive: store lower-case; `null` deletes. */
function mergeHeaders(into: Record<string, string>, from: Record<string, string | null | undefined>): void {
  for (const key in from) {
    const v = from[key];
    const k = key.toLowerCase();
    if (v === null) delete into[k];
    else if (v !== undefined) into[k] = v;
  }
}

function withInfo(res: TransportResponse, limits: ReadLimits): APIResponse {
  const response = res as APIResponse;
  const requestId = res.headers["x-request-id"];
  response.requestId = requestId;
  response.limits = limits;
  response.info = () => ({ status: res.status, headers: new Headers(res.headers), requestId });
  return response;
}

/**
 * The result with its {@link ResponseInfo}, built on first access: most callers await the data
 * only, and a `Headers` object per call is a measurable part of a small request's cost. A class,
 * so the getter is on its prototype (an object literal with a getter is slow to create).
 */
class Result<T> implements WithResponse<T> {
  readonly data: T;
  readonly #res: APIResponse;
  #info: ResponseInfo | undefined;
  constructor(data: T, res: APIResponse) {
    this.data = data;
    this.#res = res;
  }
  get response(): ResponseInfo {
    return (this.#info ??= this.#res.info());
  }
}

function withResponse<T>(data: T, res: APIResponse): WithResponse<T> {
  return new Result(data, res);
}

/** A reader's own failure as an SDK error: anything not already one (a `TypeError` from an
 * odd body) becomes a {@link ResponseParseError}, so every error extends `InferloopError`. */
function asSdkError(err: unknown): unknown {
  if (err instanceof InferloopError) return err;
  const name = err instanceof Error ? err.name : typeof err;
  return new ResponseParseError(`The response could not be read (${name}).`, { cause: err });
}

/**
 * Adds to the message of `err` why it was not retried: the request creates something and may
 * have reached the server, so a second attempt could create it twice. Returns `err`.
 */
function notRetried<E extends Error>(err: E, spec: RequestSpec): E {
  const twice = spec.creates ? `create a duplicate ${spec.creates}` : "do its work twice";
  const note = ` Not retried on purpose: it may have reached the server, and a retry could ${twice}; pass \`idempotencyKey\` to make it retryable.`;
  const before = err.message;
  Object.defineProperty(err, "message", { value: before + note, writable: true, configurable: true });
  if (typeof err.stack === "string")
    Object.defineProperty(err, "stack", {
      value: err.stack.replace(before, before + note),
      writable: true,
      configurable: true,
    });
  return err;
}

function describe(err: unknown): string {
  if (err instanceof APIError) return `status ${err.status}`;
  if (err instanceof Error) return err.name;
  return "error";
}

/** Read a buffered JSON body, up to `maxBufferBytes`; a body that is not JSON gives an error
 * without its content. */
export async function readJSON<T>(res: APIResponse): Promise<T> {
  const { text, complete } = await res.text(res.limits.maxBufferBytes);
  if (!complete) throw new ResponseTooLargeError("The JSON response body", res.limits.maxBufferBytes);
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new ResponseParseError(
      `The response body (status ${res.status}, ${text.length} characters) is not valid JSON.`,
      { cause: err instanceof Error ? new Error(err.name) : undefined },
    );
  }
}
