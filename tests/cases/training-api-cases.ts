/**
 * One table of the W&B Training API's wire shapes and request rules (from its published OpenAPI
 * spec, "Serverless Training" v1.0.0, `wandb/docs` `serverless-training/api-reference/openapi.json`,
 * and OpenPipe ART's `ServerlessBackend`, which consumes the events). It drives both sides:
 *
 * - the SDK (`tests/resources/training-api-cases.test.ts`): refused requests reject with
 *   `RequestValidationError` and send nothing; accepted ones are sent as written; the example
 *   responses below, served by a loopback server, are read as the SDK promises;
 * - the fake service (`tests/testing/training-api-cases.test.ts`): it accepts and refuses the same
 *   requests (422 in FastAPI's `detail` envelope) and answers in the same shapes.
 */

/** The operation a case exercises. */
export type TrainingOperation = "createModel" | "listCheckpoints" | "deleteCheckpoints" | "listEvents" | "log";

export interface TrainingApiCase {
  name: string;
  operation: TrainingOperation;
  /** The body (createModel, deleteCheckpoints, log) or the query parameters (lists). */
  request: Record<string, unknown>;
  real: "accepted" | "refused";
  why: string;
}

const c = (
  operation: TrainingOperation,
  real: TrainingApiCase["real"],
  name: string,
  request: Record<string, unknown>,
  why: string,
): TrainingApiCase => ({ operation, real, name, request, why });

const model = { project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" };

export const TRAINING_API_CASES: TrainingApiCase[] = [
  c("createModel", "accepted", "the required fields", model, "ModelCreate requires project, name, base_model"),
  c("createModel", "accepted", "entity null", { ...model, entity: null }, "entity: string | null"),
  c("createModel", "accepted", "return_existing true", { ...model, return_existing: true }, "return_existing: bool"),
  c("createModel", "refused", "no project", { name: "a", base_model: model.base_model }, "project is required"),
  c("createModel", "refused", "no name", { project: "rl", base_model: model.base_model }, "name is required"),
  c("createModel", "refused", "no base_model", { project: "rl", name: "a" }, "base_model is required"),
  c("createModel", "refused", "project a number", { ...model, project: 7 }, "project: string"),
  c("createModel", "refused", "return_existing a string", { ...model, return_existing: "yes" }, "bool"),
  c("listCheckpoints", "accepted", "no parameters", {}, "limit 20, order asc by default"),
  c("listCheckpoints", "accepted", "limit 1, desc", { limit: 1, order: "desc" }, "ART's get_step query"),
  c("listCheckpoints", "accepted", "limit 100", { limit: 100 }, "limit maximum 100"),
  c("listCheckpoints", "refused", "limit 0", { limit: 0 }, "limit minimum 1"),
  c("listCheckpoints", "refused", "limit 101", { limit: 101 }, "limit maximum 100"),
  c("listCheckpoints", "refused", "limit 2.5", { limit: 2.5 }, "limit: integer"),
  c("listCheckpoints", "refused", "order newest", { order: "newest" }, "order: asc | desc"),
  c("listEvents", "accepted", "no parameters", {}, "limit 20 by default"),
  c("listEvents", "accepted", "limit 100", { limit: 100 }, "limit maximum 100"),
  c("listEvents", "refused", "limit 0", { limit: 0 }, "limit minimum 1"),
  c("listEvents", "refused", "limit 101", { limit: 101 }, "limit maximum 100"),
  c("deleteCheckpoints", "accepted", "two steps", { steps: [1, 2] }, "steps: int[]"),
  c("deleteCheckpoints", "accepted", "no steps", { steps: [] }, "an empty list is a list"),
  c("deleteCheckpoints", "refused", "a fractional step", { steps: [1.5] }, "steps: int[]"),
  c("deleteCheckpoints", "refused", "steps not a list", { steps: 1 }, "steps: int[]"),
  c("deleteCheckpoints", "refused", "no steps", {}, "steps is required"),
  c("log", "accepted", "split and groups", { split: "val", trajectory_groups: [] }, "LogRequest"),
  c("log", "refused", "no split", { trajectory_groups: [] }, "split is required"),
  c("log", "refused", "no trajectory_groups", { split: "val" }, "trajectory_groups is required"),
];

/** Example responses in the spec's shapes (ids are UUIDs or opaque strings). */
export const TRAINING_API_SHAPES = {
  model: {
    id: "0f8fad5b-d9cb-469f-a165-70867728950e",
    entity: "acme",
    project: "rl",
    name: "agent",
    base_model: "OpenPipe/Qwen3-14B-Instruct",
    run_id: "run-1",
  },
  checkpoint: { id: "7c9e6679-7425-40de-944b-e07fc1f90ae7", step: 1, metrics: { loss: 0.5 } },
  page: { object: "list", data: [] as unknown[], first_id: "", last_id: "", has_more: false },
  deleteCheckpoints: { deleted_count: 1, not_found_steps: [9] },
  deleteModel: { model_id: "0f8fad5b-d9cb-469f-a165-70867728950e", deleted_checkpoints: 2, deleted_run: true },
  job: { id: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b" },
  events: [
    { id: "e1", type: "training_started", data: { num_sequences: 2 } },
    { id: "e2", type: "gradient_step", data: { loss: 0.6, reward: 0.5 } },
    { id: "e3", type: "gradient_step", data: { loss: 0.4, reward: 0.7 } },
    { id: "e4", type: "training_ended", data: {} },
  ],
  failedEvent: { id: "e9", type: "training_failed", data: { error_message: "out of memory" } },
  validationError: {
    detail: [{ loc: ["query", "limit"], msg: "Input should be less than or equal to 100", type: "less_than_equal" }],
  },
  baseModels: ["OpenPipe/Qwen3-14B-Instruct", "Qwen/Qwen3-30B-A3B-Instruct-2507"],
};

/** The JSON type of every member, recursively for objects (arrays by their first item): what "the same shape" means. */
export function shapeOf(value: unknown): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "array" : ["array", shapeOf(value[0])];
  if (typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, shapeOf(v)]),
    );
  return typeof value;
}
