import { RequestValidationError } from "../../core/errors/errors.js";
import { type CapturedRequest, TrajectoryRecorder } from "../trajectories/recorder.js";
import type { Trajectory } from "../trajectories/trajectory.js";
import { activeCapture } from "./active-capture.js";
import { JSONReplyTap, type ReplyTap, SSEReplyTap } from "./reply-tap.js";

/**
 * A standard `fetch`, as the `openai` client, the AI SDK and inferloop take it.
 */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Options of {@link capturingFetch}.
 */
export interface CapturingFetchOptions {
  /**
   * Record every call into this trajectory, whether or not a capture is running: the explicit
   * form for a runtime without `AsyncLocalStorage` (a browser).
   */
  trajectory?: Trajectory;
  /** With `trajectory`: ask calls for `logprobs` and `return_token_ids` unless they set them. */
  logprobs?: boolean;
}

const CHAT_PATH = /\/chat\/completions\/?(?:[?#]|$)/;

function requestURL(input: string | URL | Request): string {
  if (typeof input === "string") return input;
  return input instanceof URL ? input.href : input.url;
}

async function requestText(input: string | URL | Request, init: RequestInit | undefined): Promise<string | undefined> {
  const body = init?.body;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (body === undefined && typeof Request !== "undefined" && input instanceof Request && input.body !== null)
    return input.clone().text();
  return undefined;
}

function parseRequest(text: string): CapturedRequest | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === "object" && Array.isArray((value as CapturedRequest).messages))
      return value as CapturedRequest;
  } catch {
    // Not JSON: not a chat request this can record.
  }
  return undefined;
}

// The request with the capture's changes (logprobs): a new body, and no stale content-length.
function rewrite(init: RequestInit | undefined, body: CapturedRequest): RequestInit {
  const headers = new Headers(init?.headers);
  headers.delete("content-length");
  return { ...init, headers, body: JSON.stringify(body) };
}

/**
 * The caller's body, chunk for chunk and as each arrives (nothing is held back or re-encoded),
 * with a copy of every chunk handed to `tap`. Cancelling it cancels the original body.
 */
function passThrough(res: Response, tap: ReplyTap, recorder: TrajectoryRecorder, request: CapturedRequest): Response {
  const reader = res.body!.getReader();
  let over = false;
  const finish = (outcome: () => void): void => {
    if (over) return;
    over = true;
    outcome();
  };
  const complete = (): void => {
    try {
      recorder.record(request, tap.end());
    } catch (err) {
      recorder.fail(request, err);
    }
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch (err) {
          finish(() => recorder.fail(request, err));
          controller.error(err);
          return;
        }
        if (r.done) {
          finish(complete);
          controller.close();
          return;
        }
        if (!over) tap.push(r.value);
        controller.enqueue(r.value);
      },
      cancel(reason) {
        // The openai client stops reading at `[DONE]` and cancels the rest: that reply is whole.
        finish(() =>
          tap.whole
            ? complete()
            : recorder.fail(request, reason ?? new Error("the reply was cancelled before its end")),
        );
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const out = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  // Clients read these for redirects and error messages; a constructed Response has them empty.
  Object.defineProperty(out, "url", { value: res.url });
  Object.defineProperty(out, "redirected", { value: res.redirected });
  return out;
}

/**
 * A `fetch` that records OpenAI-compatible chat completions (`POST .../chat/completions`, JSON
 * or streamed) into the current {@link captureTrajectory} scope, for clients other than
 * inferloop's: pass it as their `fetch` option. The response reaches the caller unchanged and
 * as it arrives (each chunk is copied while it passes; nothing is buffered), and an abort
 * still aborts. Outside every capture, and for any other request, it is `fetch` itself. With
 * the capture's `logprobs: true` it adds `logprobs` and `return_token_ids` to a JSON request
 * body that lacks them. An inferloop client given this fetch is recorded once, not twice.
 *
 * @example
 * ```ts
 * import OpenAI from "openai";
 * import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
 * import { captureTrajectory, capturingFetch } from "inferloop";
 *
 * const openai = new OpenAI({ baseURL: "http://localhost:8000/v1", apiKey: "EMPTY", fetch: capturingFetch() });
 * const vllm = createOpenAICompatible({ name: "vllm", baseURL: "http://localhost:8000/v1", fetch: capturingFetch() });
 * const t = await captureTrajectory(async () => {
 *   await openai.chat.completions.create({ model, messages: [{ role: "user", content: "2+2?" }] });
 *   return 1;
 * });
 * ```
 */
export function capturingFetch(fetchImpl?: FetchFunction, options: CapturingFetchOptions = {}): FetchFunction {
  if (fetchImpl !== undefined && typeof fetchImpl !== "function")
    throw new RequestValidationError(
      [{ path: "fetch", message: "must be a fetch function (or left out for globalThis.fetch)" }],
      "capturingFetch",
    );
  const explicit =
    options.trajectory === undefined
      ? undefined
      : new TrajectoryRecorder(options.trajectory, options.logprobs === true);
  return async (input, init) => {
    const send: FetchFunction = fetchImpl ?? globalThis.fetch;
    let recorder = explicit;
    if (recorder === undefined) {
      const capture = activeCapture();
      if (capture === undefined || capture.inClient) return send(input, init);
      recorder = capture.recorder;
    }
    const method = init?.method ?? (typeof Request !== "undefined" && input instanceof Request ? input.method : "GET");
    if (method.toUpperCase() !== "POST" || !CHAT_PATH.test(requestURL(input))) return send(input, init);
    const text = await requestText(input, init);
    let request = text === undefined ? undefined : parseRequest(text);
    if (request === undefined) return send(input, init);
    // A Request object's body cannot be swapped without rebuilding it: it is sent as it is.
    if (typeof init?.body === "string" || init?.body instanceof Uint8Array) {
      const prepared = recorder.prepare(request);
      if (prepared !== request) init = rewrite(init, (request = prepared));
    }
    let res: Response;
    try {
      res = await send(input, init);
    } catch (err) {
      recorder.fail(request, err);
      throw err;
    }
    if (!res.ok || res.body === null) {
      recorder.fail(request, new Error(`HTTP ${res.status} ${res.statusText}`.trimEnd()));
      return res;
    }
    const sse = (res.headers.get("content-type") ?? "").includes("text/event-stream");
    return passThrough(res, sse ? new SSEReplyTap() : new JSONReplyTap(), recorder, request);
  };
}
