/**
 * The run operations of W&B's GraphQL, as the fake serves them beside the artifact ones
 * (`../artifacts/graphql.ts` routes on the top-level field): `upsertBucket` (W&B's SDK's
 * `UpsertBucket`, `wandb/wandb` `core/api/graphql/mutation_run.graphql`) and the project's
 * `bucket` lookup of `RunResumeStatus` (`core/api/graphql/query_run_resume_status.graphql`). The
 * answers carry every field those documents select, whatever the query asks for.
 */
import { jsonResponse } from "../responses.js";
import type { TrainableStore } from "../training/store.js";
import type { ResponsePlan } from "../types.js";
import { base64Utf8, isRecord } from "../util.js";
import type { FakeWandbRun, WandbRunStore } from "./store.js";

type Vars = Record<string, unknown>;

/** What the run operations read of the fake's state: its runs and its entity. */
export interface RunGraphQLState {
  wandbRuns: WandbRunStore;
  /** The entity a request without one means (the key's default entity). */
  defaultEntity: string;
  /** Whether a project has anything in the fake (a run, a model, an artifact). */
  hasProject(entity: string, project: string): boolean;
}

/** The run operations' view of the fake's state: a project exists once it has a run or a trainable model. */
export function runGraphQLState(state: { wandbRuns: WandbRunStore; trainable: TrainableStore }): RunGraphQLState {
  return {
    wandbRuns: state.wandbRuns,
    defaultEntity: state.trainable.entity,
    hasProject: (entity, project) =>
      state.wandbRuns.list().some((r) => r.entity === entity && r.project === project) ||
      state.trainable.models.some((m) => m.entity === entity && m.project === project),
  };
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

function gqlError(status: number, field: string, message: string): ResponsePlan {
  return jsonResponse(status, { data: { [field]: null }, errors: [{ message, path: [field] }] });
}

const projectOf = (entity: string, project: string) => ({
  id: base64Utf8(`Project:v1:${project}:${entity}`),
  name: project,
  entity: { id: base64Utf8(`Entity:${entity}`), name: entity },
});

/** How many history lines `historyTail` holds (W&B's answer holds the last few). */
const TAIL_LINES = 10;

function bucket(run: FakeWandbRun): Record<string, unknown> {
  let wandb: unknown;
  try {
    const config: unknown = JSON.parse(run.config);
    wandb = isRecord(config) && isRecord(config._wandb) ? config._wandb.value : undefined;
  } catch {
    wandb = undefined;
  }
  return {
    id: run.id,
    name: run.name,
    displayName: run.name,
    description: null,
    summaryMetrics: JSON.stringify(run.summary),
    logLineCount: 0,
    historyLineCount: run.historyLines.length,
    eventsLineCount: 0,
    historyTail: JSON.stringify(run.historyLines.slice(-TAIL_LINES)),
    eventsTail: "[]",
    config: run.config,
    sweepName: null,
    tags: [],
    notes: null,
    // `wandbConfig(keys: ["t"])`: the SDK's telemetry, present once W&B's SDK started the run.
    wandbConfig: JSON.stringify(isRecord(wandb) && "t" in wandb ? { t: wandb.t } : {}),
  };
}

/**
 * `upsertBucket(input: {id, name, modelName, entityName, config, ...})`: makes or updates the
 * run; `config`, a JSON string of an object, replaces the run's.
 */
export function upsertBucket(state: RunGraphQLState, vars: Vars): ResponsePlan {
  const F = "upsertBucket";
  // The SDK's document maps `$project` to `modelName` and `$entity` to `entityName`.
  const input = isRecord(vars.input) ? vars.input : vars;
  const project = str(input.modelName) ?? str(input.project) ?? "uncategorized";
  const entity = str(input.entityName) ?? str(input.entity) ?? state.defaultEntity;
  const name = str(input.name) ?? state.wandbRuns.newRunId();
  let config: string | undefined;
  if (input.config != null) {
    const text = typeof input.config === "string" ? input.config : JSON.stringify(input.config);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isRecord(parsed)) return gqlError(400, F, "config must be a JSON object");
    config = text;
  }
  const { run, inserted } = state.wandbRuns.upsert(entity, project, name, config);
  return jsonResponse(200, {
    data: { [F]: { bucket: { ...bucket(run), project: projectOf(entity, project) }, inserted } },
  });
}

/** `model(name: $project, entityName: $entity) { bucket(name: $name, missingOk: true) {...} }`. */
export function runResumeStatus(state: RunGraphQLState, vars: Vars): ResponsePlan {
  const project = str(vars.project);
  const entity = str(vars.entity) ?? state.defaultEntity;
  const name = str(vars.name);
  if (name === undefined)
    return gqlError(400, "model", 'Variable "$name" of required type "String!" was not provided.');
  if (project === undefined) return jsonResponse(200, { data: { model: null } });
  const run = state.wandbRuns.find(entity, project, name);
  if (run === undefined && !state.hasProject(entity, project)) return jsonResponse(200, { data: { model: null } });
  return jsonResponse(200, {
    data: { model: { ...projectOf(entity, project), bucket: run === undefined ? null : bucket(run) } },
  });
}
