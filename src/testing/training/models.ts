/**
 * The model registry's routes (`/v1/preview/models`, `/v1/preview/base-models`): register a
 * trainable model (or get the one of that name with `return_existing`), delete it with its
 * checkpoints and run, log trajectories (checked, not kept), list the base models.
 */
import { detailError, jsonResponse, requireJsonBody } from "../responses.js";
import type { FakeRequest, ResponsePlan } from "../types.js";
import { randomUuid } from "../util.js";
import { validateBody } from "../validate.js";
import { createModelCheck, logCheck } from "./checks.js";
import { notFound } from "./pages.js";
import type { FakeTrainableModel } from "./records.js";
import type { TrainableStore } from "./store.js";

function view(m: FakeTrainableModel): Record<string, unknown> {
  return { id: m.id, entity: m.entity, project: m.project, name: m.name, base_model: m.base_model, run_id: m.run_id };
}

/** `POST /v1/preview/models`: a new model, or with `return_existing` the one of that name. */
export function createModel(store: TrainableStore, req: FakeRequest): ResponsePlan {
  store.advance();
  const parsed = requireJsonBody(req.body, req.json);
  if (!parsed.ok) return parsed.error;
  const issues = validateBody(createModelCheck, parsed.value);
  if (issues.length > 0) return detailError(issues);
  const body = parsed.value as {
    entity?: string | null;
    project: string;
    name: string;
    base_model: string;
    return_existing?: boolean;
  };
  if (!store.baseModels.includes(body.base_model))
    return detailError([
      {
        loc: ["body", "base_model"],
        msg: `Unsupported base model; supported: ${store.baseModels.join(", ")}`,
        type: "value_error",
      },
    ]);
  const entity = body.entity ?? store.entity;
  const existing = store.models.find((m) => m.entity === entity && m.project === body.project && m.name === body.name);
  if (existing !== undefined) {
    if (body.return_existing === true) return jsonResponse(200, view(existing));
    return jsonResponse(409, { detail: `A model named ${body.name} already exists in ${entity}/${body.project}` });
  }
  const model: FakeTrainableModel = {
    id: randomUuid(),
    entity,
    project: body.project,
    name: body.name,
    base_model: body.base_model,
    run_id: `run-${randomUuid().slice(0, 8)}`,
    checkpoints: [],
    policy: new Map(),
    toolPolicy: new Map(),
    sftReplies: new Map(),
  };
  store.models.push(model);
  return jsonResponse(200, view(model));
}

/** `GET /v1/preview/base-models`. */
export function listBaseModels(store: TrainableStore): ResponsePlan {
  store.advance();
  return jsonResponse(200, store.baseModels);
}

/** `DELETE /v1/preview/models/{model_id}`: the model, its checkpoints and its run. */
export function deleteModel(store: TrainableStore, modelId: string): ResponsePlan {
  const model = store.find(modelId);
  if (model === undefined) return notFound("Model");
  store.models.splice(store.models.indexOf(model), 1);
  return jsonResponse(200, {
    model_id: model.id,
    deleted_checkpoints: model.checkpoints.length,
    deleted_run: true,
  });
}

/** `POST /v1/preview/models/{model_id}/log`: checks the trajectories and keeps nothing. */
export function logTrajectories(store: TrainableStore, modelId: string, req: FakeRequest): ResponsePlan {
  const model = store.find(modelId);
  if (model === undefined) return notFound("Model");
  const parsed = requireJsonBody(req.body, req.json);
  if (!parsed.ok) return parsed.error;
  const issues = validateBody(logCheck, parsed.value);
  return issues.length > 0 ? detailError(issues) : jsonResponse(200, {});
}
