/**
 * What a fault does to a response: replaces it (status, body, redirect, bomb), delays it, or
 * wraps the route's real body to cut, stall, reset, insert into or compress it.
 */
import { openAiError, reasonError, toBody } from "../responses.js";
import type { BodyPart, FakeRequest, ResponsePlan } from "../types.js";
import { ConnectionReset } from "../types.js";
import { sleep } from "../util.js";
import type {
  CutStreamFault,
  EndlessFault,
  Fault,
  InsertFault,
  KeepAliveFault,
  ResetFault,
  StallFault,
  StatusFault,
} from "./kinds.js";

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
