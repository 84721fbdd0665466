/**
 * `faults.*`: ready-made faults for the usual failure modes, as users call them.
 */

import type { BodyPart, ContentEncoding } from "../types.js";
import type {
  BodyFault,
  BombFault,
  CompressFault,
  CutStreamFault,
  EndlessFault,
  FaultTarget,
  InsertFault,
  KeepAliveFault,
  LatencyFault,
  RedirectFault,
  ResetFault,
  StallFault,
  StatusFault,
  TrainingFailedFault,
} from "./kinds.js";

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
 * ```ts
 * svc.inject(faults.serviceUnavailable({ times: 3 }));
 * svc.inject(faults.streamError({ afterChunks: 2 }));
 * ```
 */
export const faults = {
  /**
   * A status code with an optional body and headers.
   *
   * @example
   * ```ts
   * faults.status(500, { body: { reason: "boom" } });
   * ```
   */
  status(status: number, init: Omit<StatusFault, "kind" | "status"> = {}): StatusFault {
    return { kind: "status", status, ...init };
  },

  /**
   * 429 with `retry-after` (seconds, or an HTTP date when given a Date) and/or `retry-after-ms`.
   *
   * @example
   * ```ts
   * faults.rateLimited({ retryAfter: new Date(Date.now() + 1000) });
   * faults.rateLimited({ retryAfterMs: 20 });
   * ```
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
   * ```ts
   * faults.serviceUnavailable({ times: 2 });
   * ```
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
   * ```ts
   * faults.badGatewayHtml();
   * ```
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
   * ```ts
   * faults.reset({ afterChunks: 3 });
   * ```
   */
  reset(init: Target & { afterBytes?: number; afterChunks?: number } = {}): ResetFault {
    return { kind: "reset", ...init };
  },

  /**
   * Stops writing (socket kept open) before headers or mid-body, for `ms` or until closed.
   *
   * @example
   * ```ts
   * faults.stall({ afterChunks: 2 });
   * ```
   */
  stall(init: Target & { afterBytes?: number; afterChunks?: number; ms?: number } = {}): StallFault {
    return { kind: "stall", ...init };
  },

  /**
   * Ends the stream cleanly after `afterChunks` chunks, with no `[DONE]`.
   *
   * @example
   * ```ts
   * faults.cutStream(3, { path: "/v1/chat/completions" });
   * ```
   */
  cutStream(afterChunks: number, target: Target = {}): CutStreamFault {
    return { kind: "cutStream", afterChunks, ...target };
  },

  /**
   * Inserts raw data after `afterChunks` chunks.
   *
   * @example
   * ```ts
   * faults.insert(1, ": keep-alive comment\n\n");
   * ```
   */
  insert(afterChunks: number, data: BodyPart, init: Target & { end?: boolean } = {}): InsertFault {
    return { kind: "insert", afterChunks, data, ...init };
  },

  /**
   * Replaces the response with a raw body.
   *
   * @example
   * ```ts
   * faults.body("{\"truncated\": ", { status: 200 });
   * ```
   */
  body(body: BodyFault["body"], init: Target & { status?: number; headers?: Record<string, string> } = {}): BodyFault {
    return { kind: "body", body, ...init };
  },

  /**
   * A 200 JSON response whose body is not valid JSON.
   *
   * @example
   * ```ts
   * faults.malformedJson({ path: "/v1/models" });
   * ```
   */
  malformedJson(target: Target = {}): BodyFault {
    return { kind: "body", body: '{"object": "list", "data": [{"id": "broken"', ...target };
  },

  /**
   * An SSE event whose data is not JSON, after `afterChunks` events; the stream then continues.
   *
   * @example
   * ```ts
   * faults.malformedSseLine({ afterChunks: 2 });
   * ```
   */
  malformedSseLine(init: Target & { afterChunks?: number } = {}): InsertFault {
    const { afterChunks = 1, ...target } = init;
    return { kind: "insert", afterChunks, data: 'data: {"id": "chatcmpl-broken", "choices": [\n\n', ...target };
  },

  /**
   * A JSONL line that is not JSON, after `afterLines` good lines; the stream then continues.
   *
   * @example
   * ```ts
   * faults.malformedJsonlLine({ afterLines: 2 });
   * ```
   */
  malformedJsonlLine(init: Target & { afterLines?: number } = {}): InsertFault {
    const { afterLines = 1, ...target } = init;
    return { kind: "insert", afterChunks: afterLines, data: '{"id": "broken-line", "op_name": \n', ...target };
  },

  /**
   * vLLM's in-stream error event (`data: {"error":{...,"code":500}}`) then `[DONE]`.
   *
   * @example
   * ```ts
   * svc.inject(faults.streamError({ afterChunks: 2, code: 400, message: "context too long" }));
   * ```
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
   * ```ts
   * faults.invalidUtf8({ format: "jsonl", afterChunks: 1 });
   * faults.invalidUtf8({ path: "/v1/models", members: { object: "list", data: [] } });
   * ```
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
   * ```ts
   * faults.hugeLine({ format: "jsonl", afterChunks: 1 });
   * ```
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
   * ```ts
   * faults.oddJson(null, { path: "/v1/chat/completions" });
   * faults.oddJson({ choices: [null] });
   * ```
   */
  oddJson(value: unknown, init: Target & { headers?: Record<string, string> } = {}): BodyFault {
    return { kind: "body", body: JSON.stringify(value) ?? "null", ...init };
  },

  /**
   * One SSE event with an odd payload (`null`, `{"choices":[null]}`, ...) after `afterChunks`
   * events; the stream then continues.
   *
   * @example
   * ```ts
   * faults.oddChunk({ choices: [{ index: 0, delta: { tool_calls: [null] } }] }, { afterChunks: 1 });
   * ```
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
   * ```ts
   * faults.deepErrorBody({ depth: 50_000, status: 500 });
   * ```
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
   * ```ts
   * faults.protoErrorBody({ status: 422 });
   * ```
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
   * ```ts
   * faults.ignoresLimit({ records: 50_000, path: "/calls/stream_query" });
   * ```
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
   * ```ts
   * faults.keepAliveOnly({ afterChunks: 1, everyMs: 100 });
   * ```
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
   * ```ts
   * faults.endlessValue({ format: "sse", afterChunks: 1 });
   * ```
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
   * ```ts
   * faults.compressed("br", { path: "/v1/models" });
   * ```
   */
  compressed(encoding: ContentEncoding = "gzip", target: Target = {}): CompressFault {
    return { kind: "compress", encoding, ...target };
  },

  /**
   * A decompression bomb: a 200 whose body, compressed with `encoding` (default gzip),
   * inflates without end (`prefix`, then spaces).
   *
   * @example
   * ```ts
   * faults.compressionBomb({ encoding: "br", prefix: "data: " , contentType: "text/event-stream" });
   * ```
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
   * ```ts
   * faults.redirect("https://elsewhere.example/v1/models", { status: 301 });
   * ```
   */
  redirect(location: string, init: Target & { status?: number } = {}): RedirectFault {
    return { kind: "redirect", location, ...init };
  },

  /**
   * A delay before this response.
   *
   * @example
   * ```ts
   * faults.latency(200, { path: "/v1/models" });
   * ```
   */
  latency(ms: number, target: Target = {}): LatencyFault {
    return { kind: "latency", ms, ...target };
  },

  /**
   * The next training job fails after `afterSteps` gradient steps (default 1) with `message`.
   * `path: "/v1/preview/sft-training-jobs"` makes it the next SFT job instead.
   *
   * @example
   * ```ts
   * faults.trainingFailed("CUDA out of memory", { afterSteps: 2 });
   * faults.trainingFailed("bad dataset", { path: "/v1/preview/sft-training-jobs" });
   * ```
   */
  trainingFailed(
    message: string,
    init: { afterSteps?: number; times?: number; path?: string } = {},
  ): TrainingFailedFault {
    return { kind: "trainingFailed", message, method: "POST", path: "/v1/preview/training-jobs", ...init };
  },
};
