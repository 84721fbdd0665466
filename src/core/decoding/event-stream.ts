import { describeErrorPayload } from "../errors/error-body.js";
import { APIConnectionError, type APIError, apiErrorFor, ResponseParseError } from "../errors/errors.js";
import type { Redactor } from "../errors/secrets.js";
import type { SSEEvent } from "./sse.js";

/** Payloads handed over at a time by {@link readJSONEventBatches}. */
const SLICE = 32;

/** The data of the event that ends a stream. Only the exact value counts. */
const DONE = "[DONE]";

/**
 * Build the error for an error event inside a stream: `data: {"error":{...}}`, the flat
 * `{"object":"error",...}` form, or any event named `error`. Its numeric `code` picks the
 * class (the HTTP status was already 200); without one it counts as a server fault (500).
 */
export function streamEventError(payload: unknown, headers: Record<string, string>, redactor: Redactor): APIError {
  const clean = redactor.value(payload);
  const inner = (clean as { error?: unknown })?.error;
  const src = (typeof inner === "object" && inner !== null ? inner : clean) as { code?: unknown };
  const code = typeof src?.code === "number" ? src.code : Number.parseInt(String(src?.code), 10);
  const status = Number.isInteger(code) && code >= 400 && code <= 599 ? code : 500;
  return apiErrorFor({
    status,
    body: clean,
    headers: new Headers(redactor.headers(headers)),
    ...describeErrorPayload(status, clean),
  });
}

function isErrorPayload(p: unknown): boolean {
  if (typeof p !== "object" || p === null) return false;
  const o = p as { error?: unknown; object?: unknown };
  return (o.error !== undefined && o.error !== null) || o.object === "error";
}

/**
 * The JSON payloads of an SSE response, in order, until `data: [DONE]` (anything after it is
 * ignored). An error event rejects with an `APIError`; a data line that is not JSON rejects
 * with {@link ResponseParseError} (its content is never quoted); a stream that ends without
 * `[DONE]` rejects with {@link APIConnectionError}, because it was cut off and must not look
 * complete.
 */
export async function* readJSONEvents<T>(
  events: AsyncIterable<SSEEvent>,
  headers: Record<string, string>,
  redactor: Redactor,
): AsyncGenerator<T> {
  // A per-event view of the batched reader, so both share one set of rules.
  async function* single(): AsyncGenerator<SSEEvent[]> {
    for await (const ev of events) yield [ev];
  }
  for await (const batch of readJSONEventBatches<T>(single(), headers, redactor)) yield* batch;
}

/**
 * {@link readJSONEvents} over batches of events (see `decodeSSEBatches`), yielding the
 * payloads of each batch in non-empty arrays of at most 32. Same order and same failures: the payloads before a
 * bad event or `[DONE]` are handed over first, then the error is thrown (or the end reached).
 * `atDone` is called when `[DONE]` is read (see `TransportResponse.finish`).
 */
export async function* readJSONEventBatches<T>(
  batches: AsyncIterable<SSEEvent[]>,
  headers: Record<string, string>,
  redactor: Redactor,
  atDone?: () => void,
): AsyncGenerator<T[]> {
  let n = 0;
  for await (const events of batches) {
    let out: T[] = [];
    for (let i = 0; i < events.length; i++) {
      const ev = events[i]!;
      n++;
      if (ev.data === DONE) {
        // Before the last payloads are handed over: the reader may stop at them.
        atDone?.();
        if (out.length) yield out;
        return;
      }
      let payload: T;
      try {
        payload = parseEvent<T>(ev, n, headers, redactor);
      } catch (err) {
        if (out.length) yield out;
        throw err;
      }
      out.push(payload);
      // A network read holds hundreds of events: parsed all at once, they would all be alive
      // together, so every young-generation GC would find them all to keep and V8 would
      // grow the young generation, raising a long stream's peak RSS. Handed
      // over a few at a time, each is parsed only when the reader gets to it.
      if (out.length === SLICE) {
        yield out;
        out = [];
      }
    }
    if (out.length) yield out;
  }
  throw cutOff();
}

/** One event's JSON payload, or the error it stands for. */
function parseEvent<T>(ev: SSEEvent, n: number, headers: Record<string, string>, redactor: Redactor): T {
  let payload: unknown;
  try {
    payload = JSON.parse(ev.data);
  } catch {
    // Scrubbed before it is cut short: a secret cut in two would escape the redactor.
    if (ev.event === "error")
      throw streamEventError({ message: redactor.text(ev.data).slice(0, 200) }, headers, redactor);
    throw new ResponseParseError(`Event ${n} of the stream is not valid JSON.`, { line: n });
  }
  if (ev.event === "error" || isErrorPayload(payload)) throw streamEventError(payload, headers, redactor);
  return payload as T;
}

function cutOff(): APIConnectionError {
  return new APIConnectionError("The stream ended before its [DONE] marker: the response was cut off.");
}
