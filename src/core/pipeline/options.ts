import type { Dispatcher } from "undici";
import type { Logger, LogLevel } from "../errors/log.js";
import type { TelemetryOptions } from "../telemetry/telemetry.js";
import type { FetchLike } from "../transport/fetch.js";

/**
 * Options of `new Inferloop(options)`. Every field is optional; environment variables fill the
 * gaps (`INFERLOOP_API_KEY` or `WANDB_API_KEY`, `INFERLOOP_USERNAME`, `INFERLOOP_PASSWORD`, `INFERLOOP_BASE_URL`,
 * `INFERLOOP_TRACE_BASE_URL`, `INFERLOOP_TRAINING_BASE_URL`, `INFERLOOP_WANDB_BASE_URL`,
 * `INFERLOOP_LOG`). With no base URL at all, each service goes to W&B's host.
 */
export interface ClientOptions {
  /**
   * Bearer token for chat, models, trainable models and training jobs (and Basic `api:<key>`
   * for W&B's own API). Default: env `INFERLOOP_API_KEY`, else `WANDB_API_KEY`.
   */
  apiKey?: string | undefined;
  /** Basic-auth user for calls and annotation queues. Default: env `INFERLOOP_USERNAME`, else `"api"`. */
  username?: string | undefined;
  /** Basic-auth password. Default: env `INFERLOOP_PASSWORD`, else the API key. */
  password?: string | undefined;
  /**
   * Inference's base URL (chat, models), without `/v1`; alone, it serves every service (a
   * vLLM, the fake). Default: env `INFERLOOP_BASE_URL`, else `https://api.inference.wandb.ai`.
   */
  baseURL?: string | undefined;
  /**
   * The trace server's base URL (calls, annotation queues, feedback). Default: `baseURL`, else
   * env `INFERLOOP_TRACE_BASE_URL`, else `INFERLOOP_BASE_URL`, else `https://trace.wandb.ai`.
   */
  traceBaseURL?: string | undefined;
  /**
   * W&B Training's base URL (trainable models, training and SFT jobs, and chat on trained
   * checkpoints through a model's `chat`). Default: `baseURL`, else env
   * `INFERLOOP_TRAINING_BASE_URL`, else `INFERLOOP_BASE_URL`, else `https://api.training.wandb.ai`.
   */
  trainingBaseURL?: string | undefined;
  /**
   * W&B's own API (GraphQL, for artifacts), with Basic `api:<apiKey>`. Default: `baseURL`, else
   * env `INFERLOOP_WANDB_BASE_URL`, else `INFERLOOP_BASE_URL`, else `https://api.wandb.ai`.
   */
  wandbBaseURL?: string | undefined;
  /** `"<team>/<project>"`, sent as the `Client-Project` and `OpenAI-Project` headers (same value) on `models.list`. */
  project?: string | undefined;
  /** ms to wait for response headers. Default 600 000. */
  timeout?: number | undefined;
  /** ms allowed between two chunks of a response body or stream. Default 120 000. */
  idleTimeout?: number | undefined;
  /**
   * ms to wait for the next data event of an SSE stream or the next record of a JSONL answer
   * (the first one counted from the response headers). Keep-alive comments, blank lines and
   * partial bytes do not count as an event. Default 600 000; 0 means no limit.
   */
  eventTimeout?: number | undefined;
  /**
   * The most bytes held for one JSON value: a whole JSON body, one SSE event, one JSONL line
   * (after decompression). Above it the request is closed with `ResponseTooLargeError`.
   * Default 536 870 912 (512 MiB).
   */
  maxBufferBytes?: number | undefined;
  /** Retries after the first attempt for retryable failures. Default 2. */
  maxRetries?: number | undefined;
  /** Headers sent with every request; a `null` value removes a default header. */
  defaultHeaders?: Record<string, string | null | undefined> | undefined;
  /** A standard `fetch` to use instead of undici (also the default outside Node). */
  fetch?: FetchLike | undefined;
  /** An undici dispatcher (e.g. `ProxyAgent`) for Node; ignored when `fetch` is given. */
  dispatcher?: Dispatcher | undefined;
  /** Where log lines go. Default: `console`. */
  logger?: Logger | undefined;
  /** Default: env `INFERLOOP_LOG`, else `"off"`. Anything other than `off`, `error`, `warn`, `info` or
   * `debug`, here or in `INFERLOOP_LOG`, throws an `InferloopError` listing them. */
  logLevel?: LogLevel | undefined;
  /**
   * Fields merged into the top level of every JSON request body after validation, unvalidated,
   * overriding; a request's own `extraBody` is merged over these. For fields the SDK does not
   * know yet (a vLLM field newer than the SDK).
   */
  extraBody?: Record<string, unknown> | undefined;
  /** OpenTelemetry spans (made only when the app has registered OpenTelemetry); see the Observability guide. */
  telemetry?: TelemetryOptions | undefined;
}

/**
 * The last argument of every method: overrides for one request. Checked exactly as the
 * client's options are, before anything is sent: a bad value (a NaN or negative number, a
 * `signal` that is not an `AbortSignal`, a blank `idempotencyKey`) rejects with
 * `RequestValidationError` naming it.
 */
export interface RequestOptions {
  /** Abort the request (and any retry wait) from outside. */
  signal?: AbortSignal | undefined;
  /** ms to wait for response headers; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** ms allowed between two body chunks; overrides the client's `idleTimeout`. */
  idleTimeout?: number | undefined;
  /** ms to wait for the next SSE data event or JSONL record; overrides the client's `eventTimeout`. */
  eventTimeout?: number | undefined;
  /** The most bytes held for one JSON value; overrides the client's `maxBufferBytes`. */
  maxBufferBytes?: number | undefined;
  /** Retries after the first attempt; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Extra headers; `null` removes a default one. */
  headers?: Record<string, string | null | undefined> | undefined;
  /** Sent as `Idempotency-Key` on every attempt; lets non-idempotent operations be retried.
   * A non-blank string without control characters, one per logical operation. */
  idempotencyKey?: string | undefined;
  /**
   * Fields merged into the top level of the JSON body after validation, unvalidated,
   * overriding the body's own and the client's `extraBody`: the explicit way to send a field
   * the SDK does not know yet. Ignored by `models.list` (no body).
   *
   * @example
   * ```ts
   * await client.chat.completions.create({ model, messages }, { extraBody: { new_vllm_field: 256 } });
   * ```
   */
  extraBody?: Record<string, unknown> | undefined;
}
