/**
 * The transport-independent heart of the fake service: records the request, answers CORS
 * preflights, applies latency and faults, checks auth, dispatches to the route, and stamps
 * `x-request-id` and CORS headers on every response. Both adapters (node:http and msw) call
 * {@link handle}.
 */
import { handleProgress } from "./annotation.js";
import { checkBasic, checkBearer } from "./auth.js";
import { handleCallsQuery } from "./calls.js";
import { handleChat } from "./chat.js";
import { corsHeaders } from "./cors.js";
import { applyFault } from "./faults.js";
import type { Fault } from "./faults.js";
import { handleModels } from "./models.js";
import { handleOtelTraces } from "./otlp.js";
import { jsonResponse, toBody } from "./responses.js";
import type { FakeState } from "./state.js";
import type { ContentEncoding, FakeRequest, ResponsePlan } from "./types.js";
import { TRAINABLE_ROUTES } from "./trainable.js";
import { randomHex, sleep } from "./util.js";

const PROGRESS_PATH = /^\/annotation_queues\/([^/]+)\/items\/([^/]+)\/progress$/;

/** Paths the fake serves, with their allowed methods (others get 405). */
const ROUTES: Array<{ path: string | RegExp; methods: string[] }> = [
  { path: "/v1/chat/completions", methods: ["POST"] },
  { path: "/v1/models", methods: ["GET"] },
  { path: "/v1/preview/training-jobs", methods: ["POST"] },
  ...TRAINABLE_ROUTES,
  { path: "/calls/stream_query", methods: ["POST"] },
  { path: PROGRESS_PATH, methods: ["POST"] },
  { path: "/health", methods: ["GET"] },
  { path: "/otel/v1/traces", methods: ["POST"] },
];

function findRoute(path: string): { methods: string[] } | undefined {
  return ROUTES.find((r) => (typeof r.path === "string" ? r.path === path : r.path.test(path)));
}

function route(req: FakeRequest, state: FakeState, fault?: Fault): ResponsePlan {
  const known = findRoute(req.path);
  if (known === undefined) return jsonResponse(404, { detail: "Not Found" });
  if (!known.methods.includes(req.method))
    return jsonResponse(405, { detail: "Method Not Allowed" }, { allow: known.methods.join(", ") });
  if (req.path === "/health") return jsonResponse(200, { status: "ok" });

  if (req.path.startsWith("/v1/")) {
    const denied = checkBearer(req.headers, state.credentials);
    if (denied !== undefined) return denied;
    if (req.path === "/v1/chat/completions") {
      const served = state.trainable.resolveChat(req);
      const server = { autoToolChoice: state.autoToolChoice };
      if (served === undefined) return handleChat(req, state.models, undefined, server);
      if ("error" in served) return served.error;
      return handleChat(req, [...state.models, served.entry], served.policy, server);
    }
    if (req.path === "/v1/models") return handleModels(state.models);
    if (req.path === "/v1/preview/training-jobs") {
      const failure =
        fault?.kind === "trainingFailed" ? { message: fault.message, afterSteps: fault.afterSteps ?? 1 } : undefined;
      return state.training.handleCreate(req, (job) => state.trainable.startJob(job, failure));
    }
    return state.trainable.handle(req);
  }

  // The OTLP route also takes the key alone, in `wandb-api-key`, as OpenTelemetry exporters send it.
  const apiKeyHeader = req.path === "/otel/v1/traces" ? req.headers["wandb-api-key"] : undefined;
  const auth =
    apiKeyHeader !== undefined && apiKeyHeader === state.credentials.password
      ? { username: state.credentials.username }
      : checkBasic(req.headers, state.credentials);
  if ("denied" in auth) return auth.denied;
  if (req.path === "/otel/v1/traces") return handleOtelTraces(req, state);
  if (req.path === "/calls/stream_query") return handleCallsQuery(req, state.calls);
  const [, queueId, itemId] = PROGRESS_PATH.exec(req.path)!;
  return handleProgress(req, state.annotation, decodeURIComponent(queueId!), decodeURIComponent(itemId!), state.userId);
}

/**
 * Handles one request against a state and returns what the transport must do.
 *
 * @example
 * const plan = await handle(fakeRequest, state);
 */
export async function handle(req: FakeRequest, state: FakeState): Promise<ResponsePlan> {
  state.requests.push({
    method: req.method,
    path: req.path,
    query: req.query,
    headers: { ...req.headers },
    body: req.body,
    json: req.json,
    time: Date.now(),
  });
  const incomingId = req.headers["x-request-id"];
  const common = {
    ...corsHeaders(req.headers),
    "x-request-id": incomingId !== undefined && incomingId !== "" ? incomingId : `req-${randomHex(24)}`,
  };
  if (req.method === "OPTIONS") return { kind: "respond", status: 204, headers: common, body: toBody("") };

  if (state.latencyMs > 0) await sleep(state.latencyMs, req.signal);
  const fault = state.faults.take(req);
  const plan =
    fault === undefined ? route(req, state) : await applyFault(fault, req, async () => route(req, state, fault));
  if (plan.kind === "reset") return plan;
  const encoding = plan.encoding ?? (state.compression ? negotiateEncoding(req.headers, plan) : undefined);
  return { ...plan, headers: { ...common, ...plan.headers }, ...(encoding ? { encoding } : {}) };
}

/** What a compressing server picks for a 200 JSON or JSONL answer: zstd, then gzip, then br,
 * among those the client accepts. SSE is never compressed. */
function negotiateEncoding(
  headers: Record<string, string>,
  plan: Extract<ResponsePlan, { kind: "respond" }>,
): ContentEncoding | undefined {
  const type = plan.headers["content-type"] ?? "";
  if (plan.status !== 200 || !/json|ndjson/.test(type)) return undefined;
  const accepted = (headers["accept-encoding"] ?? "").split(",").map((e) => e.trim().split(";")[0]!.toLowerCase());
  return (["zstd", "gzip", "br"] as const).find((e) => accepted.includes(e));
}

/**
 * Parses a raw body as JSON, `undefined` when it is empty or not JSON.
 *
 * @example
 * parseJsonBody('{"a":1}'); // { a: 1 }
 */
export function parseJsonBody(body: string): unknown {
  if (body.trim() === "") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
