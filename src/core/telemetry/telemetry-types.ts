// The shapes shared by the telemetry hook and the span code it loads lazily, in a module of
// their own so the lazily loaded code does not import the hook back.
import type { RequestSpec } from "../pipeline/request-spec.js";

/**
 * Options of the client's spans (off unless the app has registered OpenTelemetry).
 */
export interface TelemetryOptions {
  /**
   * Record request messages and reply content on spans (`gen_ai.input.messages`,
   * `gen_ai.output.messages`, each reply with its `logprobs` and `token_ids` when the call asked
   * for them, so a traced rollout read back by `calls.trajectoryGroups` is trainable). Default
   * false: prompts and replies often hold personal data.
   */
  recordContent?: boolean | undefined;
}

/** One operation's span, as the pipeline and the stream reader drive it. */
export interface OperationSpan {
  /** A failed attempt that will be sent again after `delayMs`. */
  retry(attempt: number, delayMs: number, failure: unknown): void;
  /** The buffered result (a completion, a model list, ...); ends the span. */
  succeed(result: unknown): void;
  /** Streamed: the pipeline has handed the body over; the span ends with the body. */
  streaming(): void;
  /** Streamed chat: parsed chunks as they arrive. */
  chunks(batch: readonly unknown[]): void;
  /** The operation failed; ends the span. */
  fail(error: unknown): void;
  /** The streamed body finished or was abandoned; ends the span. */
  end(): void;
}

/** Starts a span for a request: what `telemetry-otel.ts` provides. */
export type SpanStarter = (spec: RequestSpec, origin: string, options: TelemetryOptions) => OperationSpan | undefined;
