/**
 * `POST /otel/v1/traces`: OTLP trace export (protobuf or JSON) turned into call records the
 * calls query returns, mapped as the trace server maps spans (Weave's OpenTelemetry ingestion):
 * the first input and output attribute found in its priority order, token usage keyed by the
 * model, the model and request parameters as attributes, the span's status as the outcome.
 */

import { jsonResponse, toBody } from "../responses.js";
import type { FakeCallRecord, FakeRequest, ResponsePlan } from "../types.js";
import { isoMicros } from "../util.js";
import { decodeOtlpJson, decodeOtlpProtobuf, OtlpDecodeError, type OtlpSpan } from "./otlp-decode.js";
import type { CallStore } from "./store.js";

// The trace server's priority lists (first found wins), the ones an OpenAI-compatible client's
// spans can carry: Vercel AI SDK, GenAI semantic conventions (old and current), OpenInference.
const INPUT_KEYS = [
  "ai.prompt",
  "gen_ai.prompt",
  "input.value",
  "mlflow.spanInputs",
  "gen_ai.input.messages",
  "traceloop.entity.input",
  "input",
  "inputs",
];
const OUTPUT_KEYS = [
  "ai.response",
  "gen_ai.completion",
  "output.value",
  "gen_ai.output.messages",
  "mlflow.spanOutputs",
  "gen_ai.content.completion",
  "traceloop.entity.output",
  "output",
  "outputs",
];
const USAGE_KEYS: Record<string, string[]> = {
  input_tokens: ["gen_ai.usage.input_tokens"],
  prompt_tokens: ["gen_ai.usage.prompt_tokens", "llm.token_count.prompt", "ai.usage.promptTokens"],
  completion_tokens: ["gen_ai.usage.completion_tokens", "llm.token_count.completion", "ai.usage.completionTokens"],
  output_tokens: ["gen_ai.usage.output_tokens"],
  total_tokens: ["llm.usage.total_tokens", "llm.token_count.total"],
};
const ATTRIBUTE_KEYS: Record<string, string[]> = {
  system: ["gen_ai.system", "llm.system", "gen_ai.system_instructions"],
  kind: ["weave.span.kind", "traceloop.span.kind", "openinference.span.kind"],
  model: ["gen_ai.response.model", "gen_ai.request.model", "llm.model_name", "ai.model.id"],
  provider: ["llm.provider", "ai.model.provider"],
  model_parameters: ["gen_ai.request", "llm.invocation_parameters"],
  agent: ["gen_ai.agent.name"],
  operation: ["gen_ai.operation.name"],
};

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A dict whose keys are 0..n-1 becomes a list, as the server turns `x.0.role` keys back into an array. */
function listify(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  for (const k of keys) value[k] = listify(value[k]);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => value[k]);
  return value;
}

/** An attribute by its dotted key: the flat key itself, or everything under `key.` as a nested object. */
function attribute(attrs: Record<string, unknown>, key: string): unknown {
  if (key in attrs) return attrs[key];
  const prefix = `${key}.`;
  let nested: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(attrs)) {
    if (!k.startsWith(prefix)) continue;
    nested ??= {};
    let at = nested;
    const parts = k.slice(prefix.length).split(".");
    for (const part of parts.slice(0, -1))
      at = isRecord(at[part]) ? (at[part] as Record<string, unknown>) : (at[part] = {});
    at[parts.at(-1)!] = v;
  }
  return nested === undefined ? undefined : listify(nested);
}

// The server skips empty values (`if value:`): "", 0, false, empty lists and dicts.
const present = (v: unknown): boolean =>
  !(
    v === undefined ||
    v === null ||
    v === "" ||
    v === 0 ||
    v === false ||
    (Array.isArray(v) && v.length === 0) ||
    (isRecord(v) && Object.keys(v).length === 0)
  );

function firstOf(attrs: Record<string, unknown>, keys: readonly string[]): [string, unknown] | undefined {
  for (const key of keys) {
    const value = attribute(attrs, key);
    if (present(value)) return [key, value];
  }
  return undefined;
}

function mapped(attrs: Record<string, unknown>, table: Record<string, string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, keys] of Object.entries(table)) {
    const found = firstOf(attrs, keys);
    if (found !== undefined) out[name] = found[1];
  }
  return out;
}

function slot(attrs: Record<string, unknown>, keys: readonly string[], unwrap: readonly string[]): unknown {
  const found = firstOf(attrs, keys);
  if (found === undefined) return {};
  // A single generic `input`/`output` holding an object is its content, not a wrapper.
  if (unwrap.includes(found[0]) && isRecord(found[1])) return found[1];
  return { [found[0]]: found[1] };
}

function usageOf(attrs: Record<string, unknown>): Record<string, number> {
  const usage: Record<string, number> = {};
  for (const [name, value] of Object.entries(mapped(attrs, USAGE_KEYS))) {
    const n = typeof value === "number" ? value : Number.parseInt(String(value), 10);
    if (Number.isInteger(n)) usage[name] = n;
  }
  if (usage["total_tokens"] === undefined) {
    if (usage["prompt_tokens"] !== undefined && usage["completion_tokens"] !== undefined)
      usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"];
    else if (usage["input_tokens"] !== undefined && usage["output_tokens"] !== undefined)
      usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"];
  }
  return usage;
}

// Microseconds, as the server stores times.
const time = (nanos: bigint): string =>
  `${isoMicros(Number(nanos / 1_000_000n)).slice(0, -4)}${String((nanos / 1000n) % 1000n).padStart(3, "0")}Z`;

/**
 * The call record the trace server writes for one span.
 */
export function spanToCall(span: OtlpSpan, projectId: string, userId: string): FakeCallRecord {
  const attrs = span.attributes;
  const inputs = slot(attrs, INPUT_KEYS, ["input", "inputs"]) as Record<string, unknown>;
  const output = slot(attrs, OUTPUT_KEYS, ["output", "outputs"]);
  const usage = usageOf(attrs);
  let attributes = mapped(attrs, ATTRIBUTE_KEYS);
  const model = typeof attributes["model"] === "string" ? attributes["model"] : undefined;
  const nothingMapped =
    Object.keys(attributes).length === 0 &&
    Object.keys(inputs).length === 0 &&
    !present(output) &&
    Object.keys(usage).length === 0;
  if (nothingMapped) attributes = { ...attrs };
  const displayName = attribute(attrs, "wandb.display_name");
  return {
    id: span.spanId,
    project_id: projectId,
    op_name: span.name,
    display_name: typeof displayName === "string" && displayName !== "" ? displayName : null,
    trace_id: span.traceId,
    parent_id: span.parentSpanId ?? null,
    started_at: time(span.startNanos),
    ended_at: time(span.endNanos),
    attributes,
    inputs,
    output,
    exception: span.status.code === 2 ? span.status.message : null,
    summary: { usage: { [model ?? "usage"]: usage } },
    wb_user_id: userId,
    wb_run_id: null,
    deleted_at: null,
  };
}

const PROJECT = /^[^/\s]+\/[^/\s]+$/;

function projectOf(req: FakeRequest, span: OtlpSpan): string | undefined {
  const entity = span.resource["wandb.entity"];
  const project = span.resource["wandb.project"];
  if (typeof entity === "string" && typeof project === "string" && entity !== "" && project !== "")
    return `${entity}/${project}`;
  const header = req.headers["project_id"];
  return header !== undefined && PROJECT.test(header) ? header : undefined;
}

/** What ingestion reads and writes of the fake's state. */
export interface OtlpState {
  calls: CallStore;
  userId: string;
}

/**
 * Ingests one OTLP export request; the caller has checked auth.
 */
export function handleOtelTraces(req: FakeRequest, state: OtlpState): ResponsePlan {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const encoding = req.headers["content-encoding"];
  if (encoding !== undefined && encoding !== "identity")
    return jsonResponse(415, {
      detail: `content-encoding ${encoding} is not supported by this fake; send the export uncompressed`,
    });
  let spans: OtlpSpan[];
  try {
    if (type === "application/x-protobuf") spans = decodeOtlpProtobuf(req.bytes ?? new TextEncoder().encode(req.body));
    else if (type === "application/json") spans = decodeOtlpJson(req.json);
    else
      return jsonResponse(415, {
        detail: `Content-Type must be application/x-protobuf or application/json, got ${type || "none"}`,
      });
  } catch (err) {
    if (!(err instanceof OtlpDecodeError)) throw err;
    return jsonResponse(400, { detail: `Invalid OTLP export request: ${err.message}` });
  }
  const records: FakeCallRecord[] = [];
  for (const span of spans) {
    const project = projectOf(req, span);
    if (project === undefined)
      return jsonResponse(400, {
        detail:
          "No project: set the wandb.entity and wandb.project resource attributes, or a project_id header of the form <entity>/<project>",
      });
    records.push(spanToCall(span, project, state.userId));
  }
  state.calls.insert(records);
  if (type === "application/json") return jsonResponse(200, { partialSuccess: {} });
  return { kind: "respond", status: 200, headers: { "content-type": "application/x-protobuf" }, body: toBody("") };
}
