/**
 * What a fault is: its target (which requests, how many times) and each kind's fields. The
 * ready-made faults users call are in `./presets.ts`, the queue in `./queue.ts`, and what a fault
 * does to a response in `./apply.ts`.
 *
 * A fault is queued (option `faults`, or `svc.inject(fault)` at run time), matches requests by
 * optional `method` and `path`, and is used up after `times` matching requests (default 1;
 * `Infinity` for "always"). Only the first matching queued fault applies to a request. CORS
 * preflights (`OPTIONS`) never consume faults, so a fault meant for a browser's POST reaches it.
 *
 * "Chunks" are the body parts the route produces: one SSE event (`data: ...\n\n`) per chunk for a
 * streamed chat completion, one JSONL line per chunk for `/calls/stream_query`, and the whole
 * body as a single chunk for JSON responses.
 *
 * @example
 * ```ts
 * svc.inject(faults.rateLimited({ retryAfter: 1, path: "/v1/chat/completions" }));
 * svc.inject(faults.cutStream(3));
 * svc.inject({ kind: "reset", afterBytes: 100, times: 2 });
 * ```
 */
import type { BodyPart, ContentEncoding } from "../types.js";

/**
 * Which requests a fault applies to, and how many times.
 */
export interface FaultTarget {
  /** HTTP method, case-insensitive. Default: any method but OPTIONS. */
  method?: string;
  /** Exact path (no query string) or a RegExp tested on the path. Default: any path. */
  path?: string | RegExp;
  /** How many matching requests the fault affects. Default 1. */
  times?: number;
}

/**
 * Reply with a status code (and optional body and headers) instead of running the route.
 */
export interface StatusFault extends FaultTarget {
  kind: "status";
  status: number;
  /** A string or bytes is sent as is; an object as JSON. Default: the route family's error envelope. */
  body?: string | Uint8Array | Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Destroy the connection: before headers, or after some bytes or chunks of the real body.
 */
export interface ResetFault extends FaultTarget {
  kind: "reset";
  afterBytes?: number;
  afterChunks?: number;
}

/**
 * Stop writing while keeping the socket open: before headers, or after some bytes or chunks.
 * After `ms` (default: until the client leaves or the service closes) the response carries on.
 */
export interface StallFault extends FaultTarget {
  kind: "stall";
  afterBytes?: number;
  afterChunks?: number;
  ms?: number;
}

/**
 * End the response cleanly after `afterChunks` chunks: a stream without `[DONE]`.
 */
export interface CutStreamFault extends FaultTarget {
  kind: "cutStream";
  afterChunks: number;
}

/**
 * Insert raw data after `afterChunks` chunks; with `end: true` the response ends right after it.
 */
export interface InsertFault extends FaultTarget {
  kind: "insert";
  afterChunks: number;
  data: BodyPart;
  end?: boolean;
}

/**
 * Replace the whole response with a raw body (malformed JSON, invalid UTF-8, ...).
 */
export interface BodyFault extends FaultTarget {
  kind: "body";
  /** Default 200. */
  status?: number;
  /** Default: `content-type: application/json`. */
  headers?: Record<string, string>;
  body: BodyPart | (() => Iterable<BodyPart>);
}

/**
 * Add a delay before this response (on top of the `latencyMs` option).
 */
export interface LatencyFault extends FaultTarget {
  kind: "latency";
  ms: number;
}

/**
 * After `afterChunks` chunks, send only `data` (default an SSE comment, `: ping`) every
 * `everyMs` (default 100) until the client leaves: a connection kept warm by keep-alives while
 * no event ever comes.
 */
export interface KeepAliveFault extends FaultTarget {
  kind: "keepAlive";
  afterChunks: number;
  everyMs?: number;
  data?: BodyPart;
}

/**
 * After `afterChunks` chunks, start one value that never ends: `prefix` (default an SSE
 * `data:` line opening a JSON string), then `x` bytes with no line break, until `bytes` have
 * been sent (default: until the client leaves).
 */
export interface EndlessFault extends FaultTarget {
  kind: "endless";
  afterChunks: number;
  prefix?: string;
  bytes?: number;
}

/**
 * Compress the route's real body with `encoding`, whatever the request asked for.
 */
export interface CompressFault extends FaultTarget {
  kind: "compress";
  encoding: ContentEncoding;
}

/**
 * A 200 whose compressed body inflates without end (a decompression bomb): `prefix`, then
 * spaces, compressed on the fly with `encoding`, until the client leaves.
 */
export interface BombFault extends FaultTarget {
  kind: "bomb";
  encoding: ContentEncoding;
  prefix?: string;
  /** Default `application/json`. */
  contentType?: string;
}

/**
 * Answer with a redirect (default 307) to `location`, with an empty body.
 */
export interface RedirectFault extends FaultTarget {
  kind: "redirect";
  status?: number;
  location: string;
}

/**
 * Any fault the service can inject.
 */
export type Fault =
  | StatusFault
  | ResetFault
  | StallFault
  | CutStreamFault
  | InsertFault
  | BodyFault
  | LatencyFault
  | KeepAliveFault
  | EndlessFault
  | CompressFault
  | BombFault
  | RedirectFault
  | TrainingFailedFault;

/**
 * Make the next training job created fail: its events run `afterSteps` gradient steps (default
 * 1), then `training_failed` with `data.error_message` = `message`. The create itself succeeds.
 */
export interface TrainingFailedFault extends FaultTarget {
  kind: "trainingFailed";
  message: string;
  afterSteps?: number;
}
