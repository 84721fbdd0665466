/**
 * The request pipeline's hook for OpenTelemetry spans. This module is all the pipeline carries
 * without OpenTelemetry: a check for the global that `@opentelemetry/api` registers, so an app
 * without it loads nothing more. The span code (`telemetry-otel.ts`) and the API are imported
 * on the first request made while that global exists.
 */
import type { WithResponse } from "../pipeline/api-promise.js";
import type { ReadMode, RequestSpec } from "../pipeline/request-spec.js";
import type { TransportResponse } from "../transport/types.js";
import type { OperationSpan, SpanStarter, TelemetryOptions } from "./telemetry-types.js";

export type { OperationSpan, SpanStarter, TelemetryOptions } from "./telemetry-types.js";

// The key under which `@opentelemetry/api` (every 1.x) registers its global providers.
const OTEL_GLOBAL = Symbol.for("opentelemetry.js.api.1");

let starter: SpanStarter | null | undefined;
let loading: Promise<void> | undefined;

/**
 * A span for this request, or undefined when the app has not registered OpenTelemetry. Returns
 * synchronously except for the one call that loads the span code.
 */
function openSpan(
  spec: RequestSpec,
  origin: string,
  options: TelemetryOptions,
): OperationSpan | undefined | Promise<OperationSpan | undefined> {
  if (starter === null) return undefined;
  if (starter !== undefined) return startSafely(starter, spec, origin, options);
  // Checked on every request until found: an app may register its tracer after creating the client.
  if (!(OTEL_GLOBAL in globalThis)) return undefined;
  loading ??= import("./telemetry-otel.js").then(
    async (m) => {
      starter = await m.loadSpanStarter();
    },
    () => {
      starter = null;
    },
  );
  return loading.then(() => (starter ? startSafely(starter, spec, origin, options) : undefined));
}

// A tracer that throws (a broken exporter setup, a bad sampler) costs the request its span,
// never the request itself.
function startSafely(
  start: SpanStarter,
  spec: RequestSpec,
  origin: string,
  options: TelemetryOptions,
): OperationSpan | undefined {
  try {
    return start(spec, origin, options);
  } catch {
    return undefined;
  }
}

/**
 * Runs `send` (the pipeline, retries included) inside the operation's span when there is one.
 * A buffered result ends the span here; a streamed one ends it with its body.
 */
export function traced<T>(
  spec: RequestSpec,
  origin: string,
  options: TelemetryOptions | undefined,
  mode: ReadMode,
  send: (span: OperationSpan | undefined) => Promise<WithResponse<T>>,
): Promise<WithResponse<T>> {
  const span = openSpan(spec, origin, options ?? NO_OPTIONS);
  // Without a span, the pipeline's own promise is the result: no async step is added to a call.
  if (span === undefined) return send(undefined);
  return inSpan(span, mode, send);
}

const NO_OPTIONS: TelemetryOptions = {};

async function inSpan<T>(
  opened: OperationSpan | Promise<OperationSpan | undefined>,
  mode: ReadMode,
  send: (span: OperationSpan | undefined) => Promise<WithResponse<T>>,
): Promise<WithResponse<T>> {
  const span = await opened;
  if (span === undefined) return send(undefined);
  try {
    const result = await send(span);
    if (mode === "buffered") span.succeed(result.data);
    return result;
  } catch (err) {
    span.fail(err);
    throw err;
  }
}

/**
 * A streamed response whose span ends with its body: read to the end, failed or abandoned.
 * The body is the one thing every streamed reader (SSE, JSONL) consumes or cancels.
 */
export function endSpanWithBody(res: TransportResponse, span: OperationSpan): TransportResponse {
  span.streaming();
  const body = res.body;
  return {
    ...res,
    body: {
      async *[Symbol.asyncIterator]() {
        let settled = false;
        try {
          yield* body;
          settled = true;
        } catch (err) {
          settled = true;
          span.fail(err);
          throw err;
        } finally {
          // Left early: the consumer stopped, or a decoder above found a bad event and is
          // about to throw it. One macrotask later that error has reached the reader, which
          // reports it to the span first; otherwise the span ends as abandoned.
          if (settled) span.end();
          else setTimeout(() => span.end(), 0);
        }
      },
    },
    text: async (maxBytes) => {
      try {
        return await res.text(maxBytes);
      } finally {
        span.end();
      }
    },
    cancel: () => {
      span.end();
      res.cancel();
    },
  };
}
