/**
 * The node:http adapter: a real HTTP server on loopback that runs the shared router, writes
 * bodies progressively with backpressure, and carries out faults at the socket level.
 */
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { Socket } from "node:net";
import * as zlib from "node:zlib";
import { asyncDispose } from "../core/pipeline/dispose.js";
import type { AnnotationStore } from "./annotation-queues/store.js";
import type { Fault } from "./faults/kinds.js";
import type { FakeServiceOptions } from "./options.js";
import { handle, parseJsonBody } from "./router.js";
import type { FakeState } from "./state.js";
import { createFakeState } from "./state.js";
import type {
  BodyPart,
  ContentEncoding,
  FakeCallRecord,
  FakeTrainingJob,
  RecordedRequest,
  ResponsePlan,
} from "./types.js";
import { ConnectionReset } from "./types.js";

/**
 * A running fake service.
 */
export interface FakeService extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`, the `{base_url}` of every route. */
  readonly url: string;
  readonly port: number;
  readonly apiKey: string;
  readonly username: string;
  readonly password: string;
  /** Trace-server user id of the Basic-auth session (`annotator_user_id` of progress). */
  readonly userId: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** The whole in-memory state. */
  readonly state: FakeState;
  /** Training jobs created so far. */
  readonly trainingJobs: FakeTrainingJob[];
  /** Call-store helpers. */
  readonly calls: {
    /** Stores records (any iterable, e.g. `generateCalls(n)`); returns how many. */
    insert(records: Iterable<FakeCallRecord>): number;
    /** Stored records in default order, without derived fields. */
    records(): FakeCallRecord[];
    /** Number of stored records. */
    readonly size: number;
  };
  /** Annotation queues and items (add queues/items, set other annotators' progress). */
  readonly annotation: AnnotationStore;
  /** Queues a fault (see `faults/kinds.ts`). */
  inject(fault: Fault): void;
  /** Restores the initial state (seeds, option faults) and forgets requests and jobs. */
  reset(): void;
  /** Stops the server and destroys open sockets (stalled and streaming ones included). */
  close(): Promise<void>;
  /** {@link close}, for `await using svc = await startFakeService()`. */
  [Symbol.asyncDispose](): Promise<void>;
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Resolves on `drain` or `close`, and removes both listeners either way: an endless body
 * waits thousands of times, and `Promise.race` of two `once()` would leave one behind each time. */
function drainOrClose(stream: NodeJS.EventEmitter & { destroyed: boolean }): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

async function waitForDrain(res: ServerResponse): Promise<void> {
  await drainOrClose(res);
}

const FLUSH_BYTES = 64 * 1024;

/** A streaming compressor at the fast levels a server uses on the fly, not the archival
 * defaults (brotli's default quality 11 would make the service the bottleneck). */
function compressor(encoding: ContentEncoding): zlib.Gzip | zlib.BrotliCompress | zlib.Deflate | zlib.ZstdCompress {
  const P = zlib.constants;
  switch (encoding) {
    case "gzip":
      return zlib.createGzip({ level: 4 });
    case "deflate":
      return zlib.createDeflate({ level: 4 });
    case "br":
      return zlib.createBrotliCompress({ params: { [P.BROTLI_PARAM_QUALITY]: 4 } });
    case "zstd":
      return zlib.createZstdCompress({ params: { [P.ZSTD_c_compressionLevel]: 3 } });
  }
}

/** The body compressed with `encoding`, as parts: what `writePlan` sends in place of the body. */
async function* compressed(body: AsyncIterable<BodyPart>, encoding: ContentEncoding): AsyncGenerator<Buffer> {
  const z = compressor(encoding);
  const feed = (async () => {
    try {
      for await (const part of body) {
        if (z.destroyed) return;
        if (!z.write(part)) await drainOrClose(z);
      }
      if (!z.destroyed) z.end();
    } catch (err) {
      z.destroy(err as Error);
    }
  })();
  try {
    for await (const chunk of z) yield chunk as Buffer;
  } finally {
    z.destroy();
    await feed;
  }
}

async function writePlan(
  res: ServerResponse,
  plan: Extract<ResponsePlan, { kind: "respond" }>,
  socket: Socket,
): Promise<void> {
  if (plan.encoding) {
    const headers: Record<string, string> = { ...plan.headers, "content-encoding": plan.encoding };
    delete headers["content-length"];
    plan = { ...plan, headers, body: compressed(plan.body, plan.encoding) };
  }
  res.writeHead(plan.status, plan.headers);
  // Parts are gathered and written in batches (at 64 KiB, or when the producer pauses for a
  // macrotask), so 200k small JSONL lines do not cost 200k chunked writes, while a stalled
  // producer still lets what came before reach the client at once.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let immediate: ReturnType<typeof setImmediate> | undefined;
  let lastWrite: Promise<void> = Promise.resolve();
  const flush = (): boolean => {
    if (immediate !== undefined) clearImmediate(immediate);
    immediate = undefined;
    if (pending.length === 0 || res.destroyed) return true;
    const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    let written: () => void = () => {};
    lastWrite = new Promise<void>((resolve) => (written = resolve));
    return res.write(data, () => written());
  };
  try {
    for await (const part of plan.body) {
      if (res.destroyed) return;
      const buffer =
        typeof part === "string"
          ? Buffer.from(part, "utf8")
          : Buffer.from(part.buffer, part.byteOffset, part.byteLength);
      pending.push(buffer);
      pendingBytes += buffer.length;
      if (pendingBytes >= FLUSH_BYTES) {
        if (!flush()) await waitForDrain(res);
      } else {
        immediate ??= setImmediate(flush);
      }
    }
    flush();
    res.end();
  } catch (error) {
    if (error instanceof ConnectionReset) {
      // Let the bytes produced before the fault reach the peer, then drop the connection.
      flush();
      await lastWrite;
    }
    socket.destroy();
  } finally {
    if (immediate !== undefined) clearImmediate(immediate);
  }
}

/**
 * Starts the fake service on loopback and resolves once it listens.
 *
 * @example
 * ```ts
 * const svc = await startFakeService({ latencyMs: 5, faults: [faults.serviceUnavailable()] });
 * try {
 *   // ... run the client against svc.url with svc.apiKey ...
 * } finally {
 *   await svc.close();
 * }
 * ```
 */
export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const state = createFakeState(options);
  const closing = new AbortController();
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const requestAbort = new AbortController();
    const onGone = (): void => requestAbort.abort();
    res.on("close", onGone);
    closing.signal.addEventListener("abort", onGone, { once: true });
    res.on("close", () => closing.signal.removeEventListener("abort", onGone));
    void (async () => {
      try {
        const bytes = await readBody(req);
        const body = new TextDecoder("utf-8").decode(bytes);
        const [path = "/", query = ""] = (req.url ?? "/").split(/\?(.*)/s, 2);
        const plan = await handle(
          {
            method: req.method ?? "GET",
            path,
            query: query === "" ? "" : `?${query}`,
            headers: headerRecord(req),
            body,
            bytes,
            json: parseJsonBody(body),
            signal: requestAbort.signal,
          },
          state,
        );
        if (res.destroyed) return;
        if (plan.kind === "reset") {
          req.socket.destroy();
          return;
        }
        await writePlan(res, plan, req.socket);
      } catch {
        req.socket.destroy();
      }
    })();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const host = options.host ?? "127.0.0.1";
  server.listen(options.port ?? 0, host);
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const urlHost = host.includes(":") ? `[${host}]` : host;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= new Promise<void>((resolve) => {
      closing.abort();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }));
  return {
    url: `http://${urlHost}:${port}`,
    port,
    apiKey: state.credentials.apiKey,
    username: state.credentials.username,
    password: state.credentials.password,
    userId: state.userId,
    get requests() {
      return state.requests;
    },
    state,
    get trainingJobs() {
      return state.trainingJobs;
    },
    calls: {
      insert: (records) => state.calls.insert(records),
      records: () => state.calls.records(),
      get size() {
        return state.calls.size;
      },
    },
    annotation: state.annotation,
    inject: (fault) => state.inject(fault),
    reset: () => state.reset(),
    close,
    [asyncDispose]: close,
  };
}
