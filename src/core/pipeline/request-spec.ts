// What the pipeline sends: one operation's request as an endpoint declaration resolves it. Its own
// module so that the pipeline's helpers (telemetry, lists) can name these types without importing
// the declarations or the pipeline itself.
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

/** What an error answer whose message `match` finds gets added to it (see {@link RequestHooks}). */
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
  lookup?(failed: ErrorLookupContext): Promise<string | undefined>;
}

/**
 * What an {@link ErrorHint}'s `lookup` gets: the pipeline that sent the call (the `HttpClient`,
 * which an endpoint's lookup names by its own type), and the body as sent.
 */
export interface ErrorLookupContext {
  http: unknown;
  body: unknown;
  signal: AbortSignal | undefined;
}

/** What every endpoint is: its name, HTTP method, server and retry class. */
export interface EndpointIdentity {
  /**
   * `training_jobs.events.list`: the SDK method's path in snake_case. It names the telemetry
   * span, the debug log lines, refusals ("Invalid training_jobs.events.list request: …") and
   * the API reference page; ids never appear in it.
   */
  readonly operation: string;
  readonly method: "GET" | "POST" | "DELETE" | "PATCH" | "PUT";
  /**
   * Which base URL and auth: `inference` (`baseURL`, Bearer), `trace` (`traceBaseURL`, Basic),
   * `training` (`trainingBaseURL`, Bearer), `wandb` (`wandbBaseURL`, Basic `api:<key>`).
   */
  readonly service: Service;
  readonly retry: RetryPolicy;
  /** With `retry: "unsent-only"`: what a second attempt could create twice ("training job"). */
  readonly creates?: string | undefined;
}

/** The few endpoints' own needs that the pipeline reads while sending. */
export interface RequestHooks {
  /**
   * The GenAI semantic-convention operation (`chat`): the span is then named
   * `{genAiOperation} {model}` as that convention asks, instead of by `operation`.
   */
  readonly genAiOperation?: string;
  /** Headers every request of the endpoint carries (an `accept` for NDJSON). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * What the user can do about an error answer the server words in a known way: when `match`
   * finds the server's message (of `status`, when given), `hint` is added after it.
   */
  readonly errorHints?: readonly ErrorHint[];
}

/** One request, checked and ready: the endpoint's identity with its filled path and final body. */
export interface RequestSpec extends EndpointIdentity {
  /** Path under the base URL, starting with `/`, already percent-encoded. */
  path: string;
  /** The body as sent: checked, prepared and with `extraBody` merged. */
  body?: unknown;
  headers?: Record<string, string | undefined>;
  /** The body holds parts already written as JSON text (`SerializedJSON`): sent in pieces
   * (`jsonPieces`) instead of as one `JSON.stringify` string. */
  bodyInPieces?: boolean;
  /** The answer is SSE: never ask for compression (a compressing proxy may hold events back). */
  stream?: boolean;
  hooks?: RequestHooks | undefined;
}

/**
 * How the reader's result relates to retries. `"buffered"`: the reader consumes the whole body
 * inside the retry loop, so a body cut short can be retried like any failure. `"streamed"`:
 * the reader hands the body to the caller; once it does, nothing is retried.
 */
export type ReadMode = "buffered" | "streamed";
