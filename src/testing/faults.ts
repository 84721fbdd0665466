/**
 * Fault injection: the whole fault API of the fake service, in one file.
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
 * svc.inject(faults.rateLimited({ retryAfter: 1, path: "/v1/chat/completions" }));
 * svc.inject(faults.cutStream(3));
 * svc.inject({ kind: "reset", afterBytes: 100, times: 2 });
 */
import { openAiError, reasonError, toBody } from "./responses.js";
import { ConnectionReset } from "./types.js";
import type { BodyPart, ContentEncoding, FakeRequest, ResponsePlan } from "./types.js";
import { sleep } from "./util.js";

/**
 * Which requests a fault applies to, and how many times.
 *
 * @example
 * const target: FaultTarget = { method: "POST", path: /^\/calls\//, times: 3 };
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
 *
 * @example
 * svc.inject({ kind: "status", status: 500, body: { reason: "boom" } });
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
 *
 * @example
 * svc.inject({ kind: "reset", afterBytes: 100 });
 */
export interface ResetFault extends FaultTarget {
  kind: "reset";
  afterBytes?: number;
  afterChunks?: number;
}

/**
 * Stop writing while keeping the socket open: before headers, or after some bytes or chunks.
 * After `ms` (default: until the client leaves or the service closes) the response carries on.
 *
 * @example
 * svc.inject({ kind: "stall", afterChunks: 2, ms: 500 });
 */
export interface StallFault extends FaultTarget {
  kind: "stall";
  afterBytes?: number;
  afterChunks?: number;
  ms?: number;
}

/**
 * End the response cleanly after `afterChunks` chunks: a stream without `[DONE]`.
 *
 * @example
 * svc.inject({ kind: "cutStream", afterChunks: 3 });
 */
export interface CutStreamFault extends FaultTarget {
  kind: "cutStream";
  afterChunks: number;
}

/**
 * Insert raw data after `afterChunks` chunks; with `end: true` the response ends right after it.
 *
 * @example
 * svc.inject({ kind: "insert", afterChunks: 1, data: ": comment\n\n" });
 */
export interface InsertFault extends FaultTarget {
  kind: "insert";
  afterChunks: number;
  data: BodyPart;
  end?: boolean;
}

/**
 * Replace the whole response with a raw body (malformed JSON, invalid UTF-8, ...).
 *
 * @example
 * svc.inject({ kind: "body", status: 200, body: "{not json" });
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
 *
 * @example
 * svc.inject({ kind: "latency", ms: 250, path: "/v1/models" });
 */
export interface LatencyFault extends FaultTarget {
  kind: "latency";
  ms: number;
}

/**
 * After `afterChunks` chunks, send only `data` (default an SSE comment, `: ping`) every
 * `everyMs` (default 100) until the client leaves: a connection kept warm by keep-alives while
 * no event ever comes.
 *
 * @example
 * svc.inject({ kind: "keepAlive", afterChunks: 1, everyMs: 100 });
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
 *
 * @example
 * svc.inject({ kind: "endless", afterChunks: 1, prefix: '{"id": "endless", "pad": "' });
 */
export interface EndlessFault extends FaultTarget {
  kind: "endless";
  afterChunks: number;
  prefix?: string;
  bytes?: number;
}

/**
 * Compress the route's real body with `encoding`, whatever the request asked for.
 *
 * @example
 * svc.inject({ kind: "compress", encoding: "gzip" });
 */
export interface CompressFault extends FaultTarget {
  kind: "compress";
  encoding: ContentEncoding;
}

/**
 * A 200 whose compressed body inflates without end (a decompression bomb): `prefix`, then
 * spaces, compressed on the fly with `encoding`, until the client leaves.
 *
 * @example
 * svc.inject({ kind: "bomb", encoding: "gzip", prefix: "[" });
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
 *
 * @example
 * svc.inject({ kind: "redirect", status: 308, location: "https://elsewhere.example/v1/models?token=abc" });
 */
export interface RedirectFault extends FaultTarget {
  kind: "redirect";
  status?: number;
  location: string;
}

/**
 * Any fault the service can inject.
 *
 * @example
 * const f: Fault = { kind: "status", status: 503, times: 3 };
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
 *
 * @example
 * svc.inject(faults.trainingFailed("CUDA out of memory"));
 */
export interface TrainingFailedFault extends FaultTarget {
  kind: "trainingFailed";
  message: string;
  afterSteps?: number;
}

type Target = FaultTarget;

const TEN_MB = 10 * 1024 * 1024;

function sseEvent(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

function concatBytes(...parts: Array<Uint8Array | string>): Uint8Array {
  const encoded = parts.map((p) => (typeof p === "string" ? new TextEncoder().encode(p) : p));
  const out = new Uint8Array(encoded.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of encoded) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * Ready-made faults for the usual failure modes. Every helper takes an optional target
 * (`method`, `path`, `times`).
 *
 * @example
 * svc.inject(faults.serviceUnavailable({ times: 3 }));
 * svc.inject(faults.streamError({ afterChunks: 2 }));
 */
export const faults = {
  /**
   * A status code with an optional body and headers.
   *
   * @example
   * faults.status(500, { body: { reason: "boom" } });
   */
  status(status: number, init: Omit<StatusFault, "kind" | "status"> = {}): StatusFault {
    return { kind: "status", status, ...init };
  },

  /**
   * 429 with `retry-after` (seconds, or an HTTP date when given a Date) and/or `retry-after-ms`.
   *
   * @example
   * faults.rateLimited({ retryAfter: new Date(Date.now() + 1000) });
   * faults.rateLimited({ retryAfterMs: 20 });
   */
  rateLimited(init: Target & { retryAfter?: number | Date; retryAfterMs?: number } = {}): StatusFault {
    const { retryAfter, retryAfterMs, ...target } = init;
    const headers: Record<string, string> = {};
    if (retryAfter !== undefined)
      headers["retry-after"] = retryAfter instanceof Date ? retryAfter.toUTCString() : String(retryAfter);
    if (retryAfterMs !== undefined) headers["retry-after-ms"] = String(retryAfterMs);
    return {
      kind: "status",
      status: 429,
      headers,
      body: {
        error: { message: "Concurrency limit reached for requests", type: "RateLimitError", param: null, code: 429 },
      },
      ...target,
    };
  },

  /**
   * 503 "engine overloaded"; pass `times` for a burst.
   *
   * @example
   * faults.serviceUnavailable({ times: 2 });
   */
  serviceUnavailable(target: Target = {}): StatusFault {
    return {
      kind: "status",
      status: 503,
      body: {
        error: {
          message: "The engine is currently overloaded, please try again later",
          type: "ServiceUnavailableError",
          param: null,
          code: 503,
        },
      },
      ...target,
    };
  },

  /**
   * 502 with an HTML page, as a proxy in front of the service sends.
   *
   * @example
   * faults.badGatewayHtml();
   */
  badGatewayHtml(target: Target = {}): StatusFault {
    return {
      kind: "status",
      status: 502,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
      ...target,
    };
  },

  /**
   * Destroys the connection before headers, or after `afterBytes`/`afterChunks` of the body.
   *
   * @example
   * faults.reset({ afterChunks: 3 });
   */
  reset(init: Target & { afterBytes?: number; afterChunks?: number } = {}): ResetFault {
    return { kind: "reset", ...init };
  },

  /**
   * Stops writing (socket kept open) before headers or mid-body, for `ms` or until closed.
   *
   * @example
   * faults.stall({ afterChunks: 2 });
   */
  stall(init: Target & { afterBytes?: number; afterChunks?: number; ms?: number } = {}): StallFault {
    return { kind: "stall", ...init };
  },

  /**
   * Ends the stream cleanly after `afterChunks` chunks, with no `[DONE]`.
   *
   * @example
   * faults.cutStream(3, { path: "/v1/chat/completions" });
   */
  cutStream(afterChunks: number, target: Target = {}): CutStreamFault {
    return { kind: "cutStream", afterChunks, ...target };
  },

  /**
   * Inserts raw data after `afterChunks` chunks.
   *
   * @example
   * faults.insert(1, ": keep-alive comment\n\n");
   */
  insert(afterChunks: number, data: BodyPart, init: Target & { end?: boolean } = {}): InsertFault {
    return { kind: "insert", afterChunks, data, ...init };
  },

  /**
   * Replaces the response with a raw body.
   *
   * @example
   * faults.body("{\"truncated\": ", { status: 200 });
   */
  body(body: BodyFault["body"], init: Target & { status?: number; headers?: Record<string, string> } = {}): BodyFault {
    return { kind: "body", body, ...init };
  },

  /**
   * A 200 JSON response whose body is not valid JSON.
   *
   * @example
   * faults.malformedJson({ path: "/v1/models" });
   */
  malformedJson(target: Target = {}): BodyFault {
    return { kind: "body", body: '{"object": "list", "data": [{"id": "broken"', ...target };
  },

  /**
   * An SSE event whose data is not JSON, after `afterChunks` events; the stream then continues.
   *
   * @example
   * faults.malformedSseLine({ afterChunks: 2 });
   */
  malformedSseLine(init: Target & { afterChunks?: number } = {}): InsertFault {
    const { afterChunks = 1, ...target } = init;
    return { kind: "insert", afterChunks, data: 'data: {"id": "chatcmpl-broken", "choices": [\n\n', ...target };
  },

  /**
   * A JSONL line that is not JSON, after `afterLines` good lines; the stream then continues.
   *
   * @example
   * faults.malformedJsonlLine({ afterLines: 2 });
   */
  malformedJsonlLine(init: Target & { afterLines?: number } = {}): InsertFault {
    const { afterLines = 1, ...target } = init;
    return { kind: "insert", afterChunks: afterLines, data: '{"id": "broken-line", "op_name": \n', ...target };
  },

  /**
   * vLLM's in-stream error event (`data: {"error":{...,"code":500}}`) then `[DONE]`.
   *
   * @example
   * faults.streamError({ afterChunks: 2, code: 400, message: "bad" });
   */
  streamError(
    init: Target & { afterChunks?: number; code?: number; message?: string; type?: string } = {},
  ): InsertFault {
    const { afterChunks = 1, code = 500, message = "Internal server error", type, ...target } = init;
    const errorType = type ?? (code >= 500 ? "InternalServerError" : "BadRequestError");
    const data = `${sseEvent({ error: { message, type: errorType, param: null, code } })}data: [DONE]\n\n`;
    return { kind: "insert", afterChunks, data, end: true, ...target };
  },

  /**
   * Bytes that are not valid UTF-8: a whole JSON body by default (`{"text": "<bytes>"}`, plus
   * the members of `members`, so the body can have the shape its route answers with), or
   * inserted as an SSE event (`format: "sse"`) or a JSONL line (`format: "jsonl"`) after
   * `afterChunks` chunks.
   *
   * @example
   * faults.invalidUtf8({ format: "jsonl", afterChunks: 1 });
   * faults.invalidUtf8({ path: "/v1/models", members: { object: "list", data: [] } });
   */
  invalidUtf8(
    init: Target & { format?: "json" | "sse" | "jsonl"; afterChunks?: number; members?: Record<string, unknown> } = {},
  ): BodyFault | InsertFault {
    const { format = "json", afterChunks = 1, members, ...target } = init;
    const bad = new Uint8Array([0xff, 0xfe, 0xc3, 0x28]);
    if (format === "json") {
      const rest = members ? `, ${JSON.stringify(members).slice(1, -1)}` : "";
      return { kind: "body", body: concatBytes('{"text": "', bad, `"${rest}}`), ...target };
    }
    if (format === "sse") {
      const data = concatBytes(
        'data: {"id": "chatcmpl-bad", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "',
        bad,
        '"}}]}\n\n',
      );
      return { kind: "insert", afterChunks, data, ...target };
    }
    return { kind: "insert", afterChunks, data: concatBytes('{"id": "bad-bytes", "text": "', bad, '"}\n'), ...target };
  },

  /**
   * One very long, valid line (default 10 MB): a JSONL record or an SSE event.
   *
   * @example
   * faults.hugeLine({ format: "jsonl", afterChunks: 1 });
   */
  hugeLine(init: Target & { format: "sse" | "jsonl"; bytes?: number; afterChunks?: number }): InsertFault {
    const { format, bytes = TEN_MB, afterChunks = 1, ...target } = init;
    const pad = "x".repeat(Math.max(0, bytes - 64));
    const data =
      format === "jsonl" ? `{"id": "huge-line", "pad": "${pad}"}\n` : `data: {"id": "huge-event", "pad": "${pad}"}\n\n`;
    return { kind: "insert", afterChunks, data, ...target };
  },

  /**
   * A 200 whose body is valid JSON of a shape no client can use: `null`, a number, a list,
   * `{"choices":[null]}`. The client must fail with a typed error naming the member.
   *
   * @example
   * faults.oddJson(null, { path: "/v1/chat/completions" });
   * faults.oddJson({ choices: [null] });
   */
  oddJson(value: unknown, init: Target & { headers?: Record<string, string> } = {}): BodyFault {
    return { kind: "body", body: JSON.stringify(value) ?? "null", ...init };
  },

  /**
   * One SSE event with an odd payload (`null`, `{"choices":[null]}`, ...) after `afterChunks`
   * events; the stream then continues.
   *
   * @example
   * faults.oddChunk({ choices: [{ index: 0, delta: { tool_calls: [null] } }] }, { afterChunks: 1 });
   */
  oddChunk(payload: unknown, init: Target & { afterChunks?: number } = {}): InsertFault {
    const { afterChunks = 1, ...target } = init;
    return { kind: "insert", afterChunks, data: `data: ${JSON.stringify(payload)}\n\n`, ...target };
  },

  /**
   * An error status whose JSON body nests `depth` levels deep (default 50 000) inside its
   * `error` envelope: valid JSON, which a recursive walk of it cannot finish.
   *
   * @example
   * faults.deepErrorBody({ depth: 50_000, status: 500 });
   */
  deepErrorBody(init: Target & { depth?: number; status?: number } = {}): StatusFault {
    const { depth = 50_000, status = 500, ...target } = init;
    const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const body = `{"error":{"message":"nested ${depth} deep","type":"InternalServerError","param":null,"code":${status},"nested":${nested}}}`;
    return { kind: "status", status, body, headers: { "content-type": "application/json" }, ...target };
  },

  /**
   * An error status whose JSON body carries `__proto__` keys at the top, in `error` and in a
   * `detail` entry: a client that copies keys with plain assignment hands the server the
   * choice of the copy's prototype.
   *
   * @example
   * faults.protoErrorBody({ status: 422 });
   */
  protoErrorBody(init: Target & { status?: number } = {}): StatusFault {
    const { status = 422, ...target } = init;
    const proto = '"__proto__":{"polluted":"yes","message":"from the prototype"}';
    const body = `{${proto},"error":{${proto},"message":"proto body","type":"BadRequestError","code":${status}},"detail":[{${proto},"loc":["body","x"],"msg":"bad","type":"value_error"}]}`;
    return { kind: "status", status, body, headers: { "content-type": "application/json" }, ...target };
  },

  /**
   * A call query answered with `records` JSONL records (default 50 000) whatever `limit` and
   * `offset` asked for, as a server that ignores paging does. Ids are `ignored-0`, `ignored-1`, ...
   *
   * @example
   * faults.ignoresLimit({ records: 50_000, path: "/calls/stream_query" });
   */
  ignoresLimit(init: Target & { records?: number } = {}): BodyFault {
    const { records = 50_000, ...target } = init;
    return {
      kind: "body",
      headers: { "content-type": "application/jsonl" },
      body: function* () {
        for (let i = 0; i < records; i += 1000) {
          let lines = "";
          for (let j = i; j < Math.min(records, i + 1000); j++)
            lines += `${JSON.stringify({ id: `ignored-${j}`, op_name: "ignored", trace_id: "t" })}\n`;
          yield lines;
        }
      },
      ...target,
    };
  },

  /**
   * After `afterChunks` chunks, only keep-alives (`: ping` SSE comments by default; pass
   * `data: "\n"` for JSONL blank lines) every `everyMs` until the client leaves.
   *
   * @example
   * faults.keepAliveOnly({ afterChunks: 1, everyMs: 100 });
   */
  keepAliveOnly(init: Target & { afterChunks?: number; everyMs?: number; data?: BodyPart } = {}): KeepAliveFault {
    const { afterChunks = 1, ...rest } = init;
    return { kind: "keepAlive", afterChunks, ...rest };
  },

  /**
   * One SSE event (`format: "sse"`) or JSONL line (`"jsonl"`) that never ends, after
   * `afterChunks` chunks; `bytes` caps it (default: endless).
   *
   * @example
   * faults.endlessValue({ format: "sse", afterChunks: 1 });
   */
  endlessValue(init: Target & { format: "sse" | "jsonl"; afterChunks?: number; bytes?: number }): EndlessFault {
    const { format, afterChunks = 1, ...target } = init;
    const prefix = format === "sse" ? 'data: {"id": "endless", "pad": "' : '{"id": "endless", "pad": "';
    return { kind: "endless", afterChunks, prefix, ...target };
  },

  /**
   * The route's real answer, compressed with `encoding` (default gzip).
   *
   * @example
   * faults.compressed("br", { path: "/v1/models" });
   */
  compressed(encoding: ContentEncoding = "gzip", target: Target = {}): CompressFault {
    return { kind: "compress", encoding, ...target };
  },

  /**
   * A decompression bomb: a 200 whose body, compressed with `encoding` (default gzip),
   * inflates without end (`prefix`, then spaces).
   *
   * @example
   * faults.compressionBomb({ encoding: "br", prefix: "data: " , contentType: "text/event-stream" });
   */
  compressionBomb(
    init: Target & { encoding?: ContentEncoding; prefix?: string; contentType?: string } = {},
  ): BombFault {
    const { encoding = "gzip", ...rest } = init;
    return { kind: "bomb", encoding, ...rest };
  },

  /**
   * A redirect (default 307) to `location`.
   *
   * @example
   * faults.redirect("https://elsewhere.example/v1/models", { status: 301 });
   */
  redirect(location: string, init: Target & { status?: number } = {}): RedirectFault {
    return { kind: "redirect", location, ...init };
  },

  /**
   * A delay before this response.
   *
   * @example
   * faults.latency(200, { path: "/v1/models" });
   */
  latency(ms: number, target: Target = {}): LatencyFault {
    return { kind: "latency", ms, ...target };
  },

  /**
   * The next training job fails after `afterSteps` gradient steps (default 1) with `message`.
   *
   * @example
   * faults.trainingFailed("CUDA out of memory", { afterSteps: 2 });
   */
  trainingFailed(message: string, init: { afterSteps?: number; times?: number } = {}): TrainingFailedFault {
    return { kind: "trainingFailed", message, method: "POST", path: "/v1/preview/training-jobs", ...init };
  },
};

function matches(fault: Fault, req: FakeRequest): boolean {
  if (req.method === "OPTIONS") return false;
  if (fault.method !== undefined && fault.method.toUpperCase() !== req.method.toUpperCase()) return false;
  if (fault.path === undefined) return true;
  return typeof fault.path === "string" ? fault.path === req.path : fault.path.test(req.path);
}

/**
 * The queue of pending faults of one fake service.
 *
 * @example
 * const queue = new FaultQueue();
 * queue.inject(faults.serviceUnavailable({ times: 2 }));
 */
export class FaultQueue {
  private readonly entries: Array<{ fault: Fault; remaining: number }> = [];

  /**
   * Queues a fault.
   *
   * @example
   * queue.inject({ kind: "status", status: 500 });
   */
  inject(fault: Fault): void {
    this.entries.push({ fault, remaining: fault.times ?? 1 });
  }

  /**
   * Takes the first matching fault for a request and uses up one of its `times`.
   *
   * @example
   * const fault = queue.take(req);
   */
  take(req: FakeRequest): Fault | undefined {
    const index = this.entries.findIndex((e) => e.remaining > 0 && matches(e.fault, req));
    if (index < 0) return undefined;
    const entry = this.entries[index]!;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.entries.splice(index, 1);
    return entry.fault;
  }

  /**
   * Faults not used up yet.
   *
   * @example
   * expect(queue.pending()).toHaveLength(0);
   */
  pending(): Fault[] {
    return this.entries.map((e) => e.fault);
  }

  /**
   * Drops every pending fault.
   *
   * @example
   * queue.clear();
   */
  clear(): void {
    this.entries.length = 0;
  }
}

const FOREVER_MS = 2_147_483_647;

function defaultStatusBody(status: number, path: string): ResponsePlan {
  return path.startsWith("/v1/")
    ? openAiError(status, status >= 500 ? "InternalServerError" : "APIError", `Injected fault: HTTP ${status}`)
    : reasonError(status, `Injected fault: HTTP ${status}`);
}

function statusPlan(fault: StatusFault, req: FakeRequest): ResponsePlan {
  if (fault.body === undefined) {
    const plan = defaultStatusBody(fault.status, req.path);
    if (plan.kind === "respond") plan.headers = { ...plan.headers, ...fault.headers };
    return plan;
  }
  const isRaw = typeof fault.body === "string" || fault.body instanceof Uint8Array;
  const body = isRaw ? (fault.body as BodyPart) : JSON.stringify(fault.body);
  return {
    kind: "respond",
    status: fault.status,
    headers: { "content-type": "application/json", ...fault.headers },
    body: toBody(body),
  };
}

/** What a mid-body fault does once its threshold is reached. */
type MidBodyAction = ResetFault | StallFault | CutStreamFault | InsertFault | KeepAliveFault | EndlessFault;

const FILL = "x".repeat(64 * 1024);

/** `prefix`, then `fill` pieces until `bytes` (or forever), stopping when the client leaves. */
async function* endless(prefix: string, fill: string, bytes: number, signal: AbortSignal): AsyncGenerator<BodyPart> {
  yield prefix;
  for (let sent = prefix.length; sent < bytes && !signal.aborted; sent += fill.length) {
    // The adapter waits for the socket to drain, so a departed client stops this loop.
    yield fill;
  }
}

async function* wrapBody(
  body: AsyncIterable<BodyPart>,
  fault: MidBodyAction,
  signal: AbortSignal,
): AsyncGenerator<BodyPart> {
  const afterBytes = fault.kind === "reset" || fault.kind === "stall" ? fault.afterBytes : undefined;
  const afterChunks = fault.kind === "reset" || fault.kind === "stall" ? fault.afterChunks : fault.afterChunks;
  let chunks = 0;
  let bytes = 0;
  let fired = false;

  // Returns true when the response must end (cleanly) right away.
  async function* fire(): AsyncGenerator<BodyPart, boolean> {
    fired = true;
    switch (fault.kind) {
      case "reset":
        throw new ConnectionReset();
      case "stall":
        await sleep(fault.ms ?? FOREVER_MS, signal);
        return signal.aborted;
      case "cutStream":
        return true;
      case "insert":
        yield fault.data;
        return fault.end === true;
      case "keepAlive":
        while (!signal.aborted) {
          yield fault.data ?? ": ping\n\n";
          await sleep(fault.everyMs ?? 100, signal);
        }
        return true;
      case "endless":
        yield* endless(fault.prefix ?? 'data: {"pad": "', FILL, fault.bytes ?? Number.POSITIVE_INFINITY, signal);
        return true;
    }
  }

  if (!fired && afterChunks === 0 && afterBytes === undefined) {
    if (yield* fire()) return;
  }
  for await (let part of body) {
    if (!fired && afterBytes !== undefined) {
      const encoded = typeof part === "string" ? new TextEncoder().encode(part) : part;
      if (bytes + encoded.length >= afterBytes) {
        const head = encoded.subarray(0, afterBytes - bytes);
        if (head.length > 0) yield head;
        bytes = afterBytes;
        if (yield* fire()) return;
        part = encoded.subarray(head.length);
        if (part.length === 0) continue;
      } else {
        bytes += encoded.length;
      }
    }
    yield part;
    chunks += 1;
    if (!fired && afterChunks !== undefined && afterBytes === undefined && chunks >= afterChunks) {
      if (yield* fire()) return;
    }
  }
  // A threshold beyond the body's end still applies (a reset at the very end is still a reset).
  if (!fired && fault.kind !== "cutStream") yield* fire();
}

/**
 * Runs `produce` (the real route) under a fault, returning the plan the adapter must follow.
 *
 * @example
 * const plan = await applyFault(fault, req, () => route(req));
 */
export async function applyFault(
  fault: Fault,
  req: FakeRequest,
  produce: () => Promise<ResponsePlan>,
): Promise<ResponsePlan> {
  switch (fault.kind) {
    case "latency":
      await sleep(fault.ms, req.signal);
      return produce();
    case "trainingFailed":
      // The router passes this fault to the job it creates; the response itself is the route's.
      return produce();
    case "status":
      return statusPlan(fault, req);
    case "body": {
      const source = typeof fault.body === "function" ? fault.body() : fault.body;
      return {
        kind: "respond",
        status: fault.status ?? 200,
        headers: { "content-type": "application/json", ...fault.headers },
        body: toBody(source),
      };
    }
    case "reset":
      if (fault.afterBytes === undefined && fault.afterChunks === undefined) return { kind: "reset" };
      break;
    case "redirect":
      return {
        kind: "respond",
        status: fault.status ?? 307,
        headers: { location: fault.location, "content-length": "0" },
        body: toBody(""),
      };
    case "bomb":
      return {
        kind: "respond",
        status: 200,
        headers: { "content-type": fault.contentType ?? "application/json" },
        body: endless(fault.prefix ?? "", " ".repeat(64 * 1024), Number.POSITIVE_INFINITY, req.signal),
        encoding: fault.encoding,
      };
    case "compress": {
      const plan = await produce();
      return plan.kind === "reset" ? plan : { ...plan, encoding: fault.encoding };
    }
    case "stall":
      if (fault.afterBytes === undefined && fault.afterChunks === undefined) {
        await sleep(fault.ms ?? FOREVER_MS, req.signal);
        if (req.signal.aborted) return { kind: "reset" };
        return produce();
      }
      break;
    case "cutStream":
    case "insert":
    case "keepAlive":
    case "endless":
      break;
  }
  const plan = await produce();
  if (plan.kind === "reset") return plan;
  return { ...plan, body: wrapBody(plan.body, fault, req.signal) };
}
