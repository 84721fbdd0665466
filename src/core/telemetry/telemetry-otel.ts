/**
 * OpenTelemetry spans for the SDK's operations, following the GenAI semantic conventions.
 * Loaded by `telemetry.ts` only once the app has registered `@opentelemetry/api` (an optional
 * peer dependency, imported here lazily). Records request parameters, the response id, finish
 * reasons and token usage, retries as events, and for streams the time to the first token and
 * the chunk count. Never records headers or credentials; message content only when the client
 * was created with `telemetry: { recordContent: true }`.
 */
import type { Attributes, Span, SpanStatusCode as StatusCodes } from "@opentelemetry/api";
import type { RequestSpec } from "../pipeline/request-spec.js";
import type { OperationSpan, SpanStarter, TelemetryOptions } from "./telemetry-types.js";

// Request fields recorded under `gen_ai.request.*` (GenAI semantic conventions).
const REQUEST_ATTRIBUTES: Array<[string, string]> = [
  ["model", "gen_ai.request.model"],
  ["temperature", "gen_ai.request.temperature"],
  ["top_p", "gen_ai.request.top_p"],
  ["top_k", "gen_ai.request.top_k"],
  ["max_tokens", "gen_ai.request.max_tokens"],
  ["max_completion_tokens", "gen_ai.request.max_tokens"],
  ["frequency_penalty", "gen_ai.request.frequency_penalty"],
  ["presence_penalty", "gen_ai.request.presence_penalty"],
  ["seed", "gen_ai.request.seed"],
  ["n", "gen_ai.request.choice.count"],
];

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === "object" && v !== null && !Array.isArray(v);

function requestAttributes(spec: RequestSpec, origin: string, recordContent: boolean): Attributes {
  const url = new URL(origin);
  const attributes: Attributes = {
    "server.address": url.hostname,
    "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
  };
  const body = spec.body;
  if (!isObject(body)) return attributes;
  for (const [field, key] of REQUEST_ATTRIBUTES) {
    const v = body[field];
    if (typeof v === "number" || typeof v === "string") attributes[key] = v;
  }
  const stop = body["stop"];
  if (typeof stop === "string") attributes["gen_ai.request.stop_sequences"] = [stop];
  else if (Array.isArray(stop) && stop.every((s) => typeof s === "string"))
    attributes["gen_ai.request.stop_sequences"] = stop;
  if (recordContent && Array.isArray(body["messages"]))
    attributes["gen_ai.input.messages"] = JSON.stringify(body["messages"]);
  return attributes;
}

/** What a completion (or the chunks of a stream) tells about the response. */
class ResponseFacts {
  id: string | undefined;
  model: string | undefined;
  readonly finishReasons: string[] = [];
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  readonly output: string[] = [];
  // With recordContent, each choice's token logprobs and token ids when the call asked for
  // them: a traced rollout then trains like a captured one (Weave's openai integration keeps
  // the whole ChatCompletion, logprobs included, as the call's output).
  readonly logprobs: unknown[][] = [];
  readonly tokenIds: unknown[][] = [];

  take(result: unknown, recordContent: boolean): void {
    if (!isObject(result)) return;
    if (typeof result["id"] === "string") this.id ??= result["id"];
    if (typeof result["model"] === "string") this.model ??= result["model"];
    const usage = result["usage"];
    if (isObject(usage)) {
      if (typeof usage["prompt_tokens"] === "number") this.inputTokens = usage["prompt_tokens"];
      if (typeof usage["completion_tokens"] === "number") this.outputTokens = usage["completion_tokens"];
    }
    const choices = result["choices"];
    if (!Array.isArray(choices)) return;
    for (const choice of choices) {
      if (!isObject(choice)) continue;
      const index = typeof choice["index"] === "number" ? choice["index"] : 0;
      if (typeof choice["finish_reason"] === "string") this.finishReasons[index] = choice["finish_reason"];
      if (!recordContent) continue;
      const part = isObject(choice["message"])
        ? choice["message"]
        : isObject(choice["delta"])
          ? choice["delta"]
          : undefined;
      if (typeof part?.["content"] === "string") this.output[index] = (this.output[index] ?? "") + part["content"];
      const logprobs = isObject(choice["logprobs"]) ? choice["logprobs"]["content"] : undefined;
      if (isListLike(logprobs)) appendTo(this.logprobs, index, logprobs);
      if (isListLike(choice["token_ids"])) appendTo(this.tokenIds, index, choice["token_ids"]);
    }
  }

  attributes(): Attributes {
    const out: Attributes = {};
    if (this.id !== undefined) out["gen_ai.response.id"] = this.id;
    if (this.model !== undefined) out["gen_ai.response.model"] = this.model;
    const reasons = this.finishReasons.filter((r) => r !== undefined);
    if (reasons.length) out["gen_ai.response.finish_reasons"] = reasons;
    if (this.inputTokens !== undefined) out["gen_ai.usage.input_tokens"] = this.inputTokens;
    if (this.outputTokens !== undefined) out["gen_ai.usage.output_tokens"] = this.outputTokens;
    const replies = Math.max(this.output.length, this.logprobs.length, this.tokenIds.length);
    if (replies > 0)
      out["gen_ai.output.messages"] = JSON.stringify(
        Array.from({ length: replies }, (_, i) => ({
          role: "assistant",
          content: this.output[i] ?? "",
          ...(this.logprobs[i] ? { logprobs: { content: this.logprobs[i] } } : {}),
          ...(this.tokenIds[i] ? { token_ids: this.tokenIds[i] } : {}),
        })),
      );
    return out;
  }
}

/** An array, or the array-like view a long `logprobs.content` is packed into. */
function isListLike(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || (isObject(v) && typeof v["length"] === "number");
}

function appendTo(lists: unknown[][], index: number, items: ArrayLike<unknown>): void {
  const list = (lists[index] ??= []);
  for (let i = 0; i < items.length; i++) list.push(items[i]);
}

/** Whether a chunk carries generated output: text, reasoning or a tool call (the first chunk
 * of a vLLM stream carries only the role). */
function carriesToken(chunk: unknown): boolean {
  const choices = isObject(chunk) ? chunk["choices"] : undefined;
  if (!Array.isArray(choices)) return false;
  return choices.some((choice) => {
    const delta = isObject(choice) ? choice["delta"] : undefined;
    if (!isObject(delta)) return false;
    const text = (key: string) => typeof delta[key] === "string" && delta[key] !== "";
    return text("content") || text("reasoning") || text("reasoning_content") || Array.isArray(delta["tool_calls"]);
  });
}

function errorType(error: unknown): string {
  return error instanceof Error ? error.name : "_OTHER";
}

class OtelOperationSpan implements OperationSpan {
  readonly #span: Span;
  readonly #error: typeof StatusCodes.ERROR;
  readonly #recordContent: boolean;
  readonly #facts = new ResponseFacts();
  readonly #started = performance.now();
  #chunkCount = 0;
  #firstTokenMs: number | undefined;
  #ended = false;

  constructor(span: Span, error: typeof StatusCodes.ERROR, recordContent: boolean) {
    this.#span = span;
    this.#error = error;
    this.#recordContent = recordContent;
  }

  retry(attempt: number, delayMs: number, failure: unknown): void {
    this.#span.addEvent("retry", {
      "inferloop.retry.attempt": attempt,
      "inferloop.retry.delay_ms": Math.round(delayMs),
      "error.type": errorType(failure),
    });
  }

  succeed(result: unknown): void {
    this.#facts.take(result, this.#recordContent);
    this.#finish();
  }

  streaming(): void {
    this.#span.setAttribute("gen_ai.request.stream", true);
  }

  chunks(batch: readonly unknown[]): void {
    const now = performance.now();
    this.#chunkCount += batch.length;
    for (const chunk of batch) {
      if (this.#firstTokenMs === undefined && carriesToken(chunk)) this.#firstTokenMs = now - this.#started;
      this.#facts.take(chunk, this.#recordContent);
    }
  }

  fail(error: unknown): void {
    if (this.#ended) return;
    this.#span.setAttribute("error.type", errorType(error));
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === "number") this.#span.setAttribute("http.response.status_code", status);
    this.#span.setStatus({ code: this.#error, message: error instanceof Error ? error.name : undefined });
    this.#finish();
  }

  end(): void {
    this.#finish();
  }

  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    const attributes = this.#facts.attributes();
    if (this.#chunkCount > 0) attributes["inferloop.stream.chunk_count"] = this.#chunkCount;
    if (this.#firstTokenMs !== undefined)
      attributes["inferloop.stream.time_to_first_token_ms"] = Math.round(this.#firstTokenMs * 1000) / 1000;
    this.#span.setAttributes(attributes);
    this.#span.end();
  }
}

/** Imports `@opentelemetry/api` and returns the span starter, or null when it is not installed. */
export async function loadSpanStarter(): Promise<SpanStarter | null> {
  let api: typeof import("@opentelemetry/api");
  try {
    api = await import("@opentelemetry/api");
  } catch {
    return null;
  }
  return (spec: RequestSpec, origin: string, options: TelemetryOptions) => {
    const tracer = api.trace.getTracer("inferloop");
    // Named by the endpoint's declared operation, never by its path (which holds ids); the
    // GenAI convention's operations are named as that convention says: `chat {model}`.
    const operation = spec.hooks?.genAiOperation ?? spec.operation;
    const recordContent = options.recordContent === true;
    const attributes: Attributes = {
      "gen_ai.operation.name": operation,
      ...requestAttributes(spec, origin, recordContent),
    };
    const model = attributes["gen_ai.request.model"];
    const named = spec.hooks?.genAiOperation !== undefined && typeof model === "string";
    const span = tracer.startSpan(named ? `${operation} ${model}` : operation, {
      kind: api.SpanKind.CLIENT,
      attributes,
    });
    // No tracer provider registered: a non-recording span costs nothing more, so none is made.
    if (!span.isRecording()) {
      span.end();
      return undefined;
    }
    return new OtelOperationSpan(span, api.SpanStatusCode.ERROR, recordContent);
  };
}
