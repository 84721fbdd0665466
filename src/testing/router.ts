/**
 * The transport-independent heart of the fake service: records the request, answers CORS
 * preflights, applies latency and faults, finds the route in the areas' tables (404 and 405 from
 * the same rows), checks the auth the route declares, runs it, and stamps `x-request-id` and
 * CORS headers on every response. Both adapters (node:http and msw) call
 * {@link handle}.
 */
import { ANNOTATION_QUEUE_ROUTES } from "./annotation-queues/routes.js";
import { ARTIFACT_ROUTES } from "./artifacts/routes.js";
import { authorize } from "./auth.js";
import { CALL_ROUTES } from "./calls/routes.js";
import { CHAT_ROUTES } from "./chat/routes.js";
import { corsHeaders } from "./cors.js";
import { applyFault } from "./faults/apply.js";
import type { Fault } from "./faults/kinds.js";
import { FEEDBACK_ROUTES } from "./feedback/routes.js";
import { MODEL_ROUTES } from "./models/routes.js";
import { jsonResponse, toBody } from "./responses.js";
import type { Route } from "./route.js";
import { pathMatcher, route } from "./route.js";
import type { FakeState } from "./state.js";
import { TRAINING_ROUTES } from "./training/routes.js";
import type { ContentEncoding, FakeRequest, ResponsePlan } from "./types.js";
import { randomHex, sleep } from "./util.js";
import { WANDB_RUN_ROUTES } from "./wandb-runs/routes.js";

const HEALTH_ROUTES: ReadonlyArray<Route<unknown>> = [
  route({ method: "GET", path: "/health", auth: "none", handle: () => jsonResponse(200, { status: "ok" }) }),
];

/** Every route the fake serves, area by area. A method a path does not list gets 405. */
export const ROUTES: ReadonlyArray<Route<FakeState>> = [
  ...CHAT_ROUTES,
  ...MODEL_ROUTES,
  ...TRAINING_ROUTES,
  ...CALL_ROUTES,
  ...ANNOTATION_QUEUE_ROUTES,
  ...FEEDBACK_ROUTES,
  ...ARTIFACT_ROUTES,
  ...WANDB_RUN_ROUTES,
  ...HEALTH_ROUTES,
];

const MATCHERS = ROUTES.map((r) => ({ route: r, match: pathMatcher(r.path) }));

function dispatch(req: FakeRequest, state: FakeState, fault?: Fault): ResponsePlan {
  const candidates = MATCHERS.flatMap(({ route, match }) => {
    const raw = match(req.path);
    return raw === undefined ? [] : [{ route, raw }];
  });
  if (candidates.length === 0) return jsonResponse(404, { detail: "Not Found" });
  const chosen = candidates.find((c) => c.route.method === req.method);
  if (chosen === undefined) {
    const allow = candidates.map((c) => c.route.method).join(", ");
    return jsonResponse(405, { detail: "Method Not Allowed" }, { allow });
  }
  const denied = authorize(chosen.route, req.headers, state.credentials);
  if (denied !== undefined) return denied;
  const params = Object.fromEntries(Object.entries(chosen.raw).map(([name, raw]) => [name, decodeURIComponent(raw)]));
  return chosen.route.handle({ req, state, params, fault });
}

/**
 * Handles one request against a state and returns what the transport must do.
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
    fault === undefined ? dispatch(req, state) : await applyFault(fault, req, async () => dispatch(req, state, fault));
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
 * ```ts
 * parseJsonBody('{"a":1}'); // { a: 1 }
 * ```
 */
export function parseJsonBody(body: string): unknown {
  if (body.trim() === "") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
