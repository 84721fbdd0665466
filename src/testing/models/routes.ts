/**
 * The served models: the source of truth for `GET /v1/models` and for the chat route's
 * "unknown model" check.
 */
import { jsonResponse } from "../responses.js";
import type { Route } from "../route.js";
import { route } from "../route.js";
import type { FakeModelEntry, ResponsePlan } from "../types.js";

/**
 * Models served when the `models` option is not given. A model whose id contains "reason"
 * produces reasoning before content.
 */
export const DEFAULT_MODELS: readonly string[] = [
  "Qwen/Qwen3-8B",
  "meta-llama/Llama-3.1-8B-Instruct",
  "deepseek-ai/DeepSeek-R1-reasoning",
  "OpenPipe/Qwen3-14B-Instruct",
];

/**
 * Normalizes the `models` option into list entries (W&B style: `created: 0`, `owned_by: "system"`).
 *
 * @example
 * ```ts
 * toModelEntries(["m1"]); // [{ id: "m1", object: "model", created: 0, owned_by: "system", root: "m1" }]
 * ```
 */
export function toModelEntries(models: ReadonlyArray<string | FakeModelEntry>): FakeModelEntry[] {
  return models.map((m) =>
    typeof m === "string" ? { id: m, object: "model", created: 0, owned_by: "system", root: m } : { ...m },
  );
}

/**
 * Handles `GET /v1/models` (auth already checked; the `Client-Project` header is recorded with
 * the request, like every header).
 */
export function handleModels(models: FakeModelEntry[]): ResponsePlan {
  return jsonResponse(200, { object: "list", data: models });
}

/** The model list's routes. */
export const MODEL_ROUTES: ReadonlyArray<Route<{ models: FakeModelEntry[] }>> = [
  route({ method: "GET", path: "/v1/models", auth: "bearer", handle: ({ state }) => handleModels(state.models) }),
];
