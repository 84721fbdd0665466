// What a resource asks of the request pipeline: one operation's request and how its answer is
// read. Its own module so that the pipeline's helpers (telemetry) can name these types without
// importing the pipeline itself.
import type { HttpClient } from "./http-client.js";

/**
 * Whether a failed attempt may be sent again. `"safe"`: the operation can run twice without
 * harm. `"unsent-only"`: it must not (it creates something), so only a request that provably
 * never reached the server is sent again, unless the caller gave an idempotency key.
 */
export type RetryPolicy = "safe" | "unsent-only";

/**
 * Which server answers: `inference` is `baseURL` with Bearer auth (chat, models); `trace` is
 * `traceBaseURL` with Basic auth (calls, annotation queues, feedback); `training` is
 * `trainingBaseURL` with Bearer auth (trainable models, training jobs, SFT jobs); `wandb` is
 * `wandbBaseURL` with Basic `api:<key>` (W&B's own API: GraphQL).
 */
export type Service = "inference" | "trace" | "training" | "wandb";

/** A hint added to an error answer whose message `match` finds (see `Endpoint.errorHints`). */
export interface ErrorHint {
  status?: number;
  match: RegExp;
  /** Added after the server's message. */
  hint?: string;
  /**
   * Looked up once the call has failed for good with such an answer, never before: it may send
   * one request of its own (which has no lookup), and its failure adds nothing. What it resolves
   * to is added after the message.
   */
  lookup?: (failed: ErrorLookupContext) => Promise<string | undefined>;
}

/** What an {@link ErrorHint}'s `lookup` gets: the pipeline that sent the call, and its body. */
export interface ErrorLookupContext {
  http: HttpClient;
  /** The request's JSON body, as sent. */
  body: unknown;
  signal: AbortSignal | undefined;
}

/** One operation's request, as an endpoint declaration ({@link Endpoint}) resolves it. */
export interface RequestSpec {
  /** The operation's name (`training_jobs.events.list`): span name, log lines. */
  operation: string;
  /** The GenAI convention's operation (`chat`), when the span is named by that convention. */
  genAiOperation?: string;
  method: "GET" | "POST" | "DELETE" | "PATCH" | "PUT";
  /** Path under the base URL, starting with `/`, already percent-encoded. */
  path: string;
  service: Service;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  retry: RetryPolicy;
  /** With `"unsent-only"`: what a second attempt could create twice ("training job"), for the
   * error that says why the request was not retried. */
  creates?: string;
  /** The body holds parts already written as JSON text ({@link SerializedJSON}): it is sent
   * in pieces ({@link jsonPieces}) instead of as one `JSON.stringify` string. */
  bodyInPieces?: boolean;
  /** The answer is SSE: never ask for compression (a compressing proxy may hold events back). */
  stream?: boolean;
  /** Hints added to error answers the endpoint's server words in a known way. */
  errorHints?: readonly ErrorHint[];
  /**
   * Body members that `extraBody` merges into member by member instead of replacing
   * (`experimental_config`: a setting newer than the SDK joins the validated ones).
   */
  extraBodyMerges?: readonly string[];
}

/**
 * How the reader's result relates to retries. `"buffered"`: the reader consumes the whole body
 * inside the retry loop, so a body cut short can be retried like any failure. `"streamed"`:
 * the reader hands the body to the caller; once it does, nothing is retried.
 */
export type ReadMode = "buffered" | "streamed";
