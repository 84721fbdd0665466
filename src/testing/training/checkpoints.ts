/**
 * A trainable model's checkpoints (`/v1/preview/models/{model_id}/checkpoints`): one per
 * finished job, listed in cursor pages (`order` asc by default, or desc) and deleted by step.
 */
import { detailError, jsonResponse, requireJsonBody } from "../responses.js";
import type { FakeRequest, ResponsePlan } from "../types.js";
import { validateBody } from "../validate.js";
import { deleteStepsCheck } from "./checks.js";
import { notFound, page, queryIssues } from "./pages.js";
import type { TrainableStore } from "./store.js";

/** `GET /v1/preview/models/{model_id}/checkpoints`: a cursor page, `order` asc (default) or desc. */
export function listCheckpoints(store: TrainableStore, modelId: string, query: URLSearchParams): ResponsePlan {
  const model = store.find(modelId);
  if (model === undefined) return notFound("Model");
  const issues = queryIssues(query, true);
  if (issues.length > 0) return detailError(issues);
  const ordered = query.get("order") === "desc" ? [...model.checkpoints].reverse() : model.checkpoints;
  const body = page(ordered, query);
  return body === undefined
    ? detailError([{ loc: ["query", "after"], msg: "No checkpoint with this id", type: "value_error" }])
    : jsonResponse(200, body);
}

/** `DELETE /v1/preview/models/{model_id}/checkpoints` with `{ steps }`. */
export function deleteCheckpoints(store: TrainableStore, modelId: string, req: FakeRequest): ResponsePlan {
  const model = store.find(modelId);
  if (model === undefined) return notFound("Model");
  const parsed = requireJsonBody(req.body, req.json);
  if (!parsed.ok) return parsed.error;
  const issues = validateBody(deleteStepsCheck, parsed.value);
  if (issues.length > 0) return detailError(issues);
  const steps = (parsed.value as { steps: number[] }).steps;
  const found = steps.filter((s) => model.checkpoints.some((c) => c.step === s));
  model.checkpoints = model.checkpoints.filter((c) => !steps.includes(c.step));
  return jsonResponse(200, { deleted_count: found.length, not_found_steps: steps.filter((s) => !found.includes(s)) });
}
