/**
 * The fake's training service past job creation, as W&B Training has it on the wire: the model
 * registry (`/v1/preview/models`), base models, checkpoints in cursor pages, job records and
 * their events (`/v1/preview/training-jobs/{id}[/events]`), and chat on the trained names
 * (`wandb-artifact:///{entity}/{project}/{name}[:step{N}]`).
 *
 * Jobs train over time: `training_started` (`num_sequences` = the number of trajectories, or
 * of an SFT job's batches), one `gradient_step` per sequence or batch, then `training_ended`, one event every
 * `trainingStepMs` (option, default 5 ms), or spread over `trainingJobMs` (option) when given.
 * When a job ends, its model gets one new checkpoint, whose metrics (the means of the job's
 * `gradient_step` members) differ from step to step: the loss falls as the model is trained.
 * A `faults.trainingFailed(...)` fault makes the next job end with `training_failed` instead.
 *
 * The "learning" is a simulation, not a model: after a job, the model remembers for each
 * prompt (the last user message) the best-rewarded reply among the trajectories it trained on
 * that called no tool, and for each prompt and tool call (the tool's name and its ordinal since
 * the prompt) the arguments of the best-rewarded trajectory among those that beat their
 * group's mean reward. A chat on a trained name then answers that prompt with the remembered
 * reply, or calls the tool with the remembered arguments, for a share of its samples that
 * grows with the step (1/2 after one step, 3/4 after two, ...; a sample that leans once leans
 * at every later step), and as the base model does otherwise. Rewards that favoured a reply or
 * a way of calling a tool thus rise step by step, which is all a test or a demo of the loop
 * needs to see. An SFT job also teaches its rows' replies exactly (sft-policy.ts): a checkpoint
 * it made answers each trained conversation with its trained reply.
 */
import type { GeneratedChoice } from "./chat-generate.js";
import { generateChoice, tokenId, tokenize } from "./chat-generate.js";
import type { ChatParams } from "./chat-validate.js";
import { detailError, jsonResponse, openAiError, requireJsonBody } from "./responses.js";
import type { Route } from "./route.js";
import { route } from "./route.js";
import { type SftDatasetRow, sftBatchMetrics } from "./sft-dataset.js";
import { conversationKey, sftLessons } from "./sft-policy.js";
import { trajectoryCheck } from "./training-checks.js";
import type { FakeRequest, ModelEntry, ResponsePlan, TrainingJob } from "./types.js";
import { hash32, isoMicros, isRecord, randomUuid, seededRandom } from "./util.js";
import { bool, int, list, nullable, obj, str, validateBody } from "./validate.js";

/**
 * Base models of the fake when the `baseModels` option is not given.
 */
export const DEFAULT_BASE_MODELS: readonly string[] = [
  "OpenPipe/Qwen3-14B-Instruct",
  "Qwen/Qwen3-30B-A3B-Instruct-2507",
];

/**
 * A trainable model kept by the fake (`svc.state.trainable.models`).
 */
export interface FakeTrainableModel {
  id: string;
  entity: string;
  project: string;
  name: string;
  base_model: string;
  run_id: string;
  checkpoints: Array<{ id: string; step: number; metrics: Record<string, number> }>;
  /** Per prompt, the best reply seen in training so far and its reward. */
  policy: Map<string, { reply: string; reward: number }>;
  /** Per prompt, tool name and ordinal of the call, the best-rewarded arguments that beat their group. */
  toolPolicy: Map<string, { arguments: Record<string, unknown>; reward: number }>;
  /** Per conversation an SFT job trained on (sft-policy.ts), its reply and the step that learned it. */
  sftReplies: Map<string, { reply: string; step: number }>;
}

/**
 * One event of a fake job.
 */
export interface FakeTrainingEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

interface JobTimeline {
  job: TrainingJob;
  /** An SFT job's rows: trained like trajectories of reward 1 (a reply to imitate). */
  sftRows: readonly SftDatasetRow[] | undefined;
  start: number;
  /** Time between two of its events, fixed when the job starts. */
  stepMs: number;
  planned: FakeTrainingEvent[];
  emitted: number;
  failure: string | undefined;
  ended: boolean;
}

const createModelCheck = obj(
  {
    entity: { check: nullable(str()) },
    project: { check: str(), required: true },
    name: { check: str(), required: true },
    base_model: { check: str(), required: true },
    return_existing: { check: bool() },
  },
  "forbid",
);
const logCheck = obj(
  {
    split: { check: str(), required: true },
    trajectory_groups: {
      check: list(obj({ trajectories: { check: list(trajectoryCheck), required: true } }, "allow")),
      required: true,
    },
  },
  "forbid",
);
const deleteStepsCheck = obj({ steps: { check: list(int()), required: true } }, "forbid");

const ARTIFACT = /^wandb-artifact:\/\/\/([^/]+)\/([^/]+)\/([^/:]+)(?::step(\d+))?$/;

const notFound = (what: string) => jsonResponse(404, { detail: `${what} not found` });

function queryIssues(query: URLSearchParams, allowOrder: boolean) {
  const issues = [];
  const limit = query.get("limit");
  if (limit !== null) {
    const n = Number(limit);
    if (!/^-?\d+$/.test(limit))
      issues.push({ loc: ["query", "limit"], msg: "Input should be a valid integer", type: "int_parsing" });
    else if (n < 1)
      issues.push({
        loc: ["query", "limit"],
        msg: "Input should be greater than or equal to 1",
        type: "greater_than_equal",
      });
    else if (n > 100)
      issues.push({
        loc: ["query", "limit"],
        msg: "Input should be less than or equal to 100",
        type: "less_than_equal",
      });
  }
  const order = query.get("order");
  if (allowOrder && order !== null && order !== "asc" && order !== "desc")
    issues.push({ loc: ["query", "order"], msg: "Input should be 'asc' or 'desc'", type: "enum" });
  return issues;
}

/** A `PaginatedResponse` page of `items` after the `after` id, or undefined for an unknown cursor. */
function page<T extends { id: string }>(items: T[], query: URLSearchParams): Record<string, unknown> | undefined {
  const limit = Number(query.get("limit") ?? 20);
  const after = query.get("after");
  let start = 0;
  if (after !== null) {
    const at = items.findIndex((i) => i.id === after);
    if (at < 0) return undefined;
    start = at + 1;
  }
  const data = items.slice(start, start + limit);
  return {
    object: "list",
    data,
    first_id: data[0]?.id ?? "",
    last_id: data.at(-1)?.id ?? "",
    has_more: start + limit < items.length,
  };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (isRecord(p) && typeof p["text"] === "string" ? p["text"] : "")).join("");
  return "";
}

/**
 * The prompt (last user message before the first reply), the reply (the last one) and the tool
 * calls (name and parsed arguments, in order) of a trajectory.
 */
function promptAndReply(
  trajectory: Record<string, unknown>,
): { prompt: string; reply: string; calls: Array<{ name: string; arguments: unknown }> } | undefined {
  const items = Array.isArray(trajectory["messages_and_choices"]) ? trajectory["messages_and_choices"] : [];
  let prompt: string | undefined;
  let reply: string | undefined;
  const calls: Array<{ name: string; arguments: unknown }> = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const message = isRecord(item["message"]) ? item["message"] : item;
    if (message["role"] === "user" && reply === undefined) prompt = textOf(message["content"]);
    if (message["role"] !== "assistant") continue;
    reply = textOf(message["content"]);
    for (const call of Array.isArray(message["tool_calls"]) ? message["tool_calls"] : []) {
      const fn = isRecord(call) && isRecord(call["function"]) ? call["function"] : {};
      if (typeof fn["name"] !== "string") continue;
      let args: unknown;
      try {
        args = JSON.parse(typeof fn["arguments"] === "string" ? fn["arguments"] : "");
      } catch {
        args = undefined;
      }
      calls.push({ name: fn["name"], arguments: args });
    }
  }
  return prompt === undefined || reply === undefined ? undefined : { prompt, reply, calls };
}

const toolKey = (prompt: string, tool: string, ordinal: number) => `${prompt}\u0000${tool}\u0000${ordinal}`;

/** The last user message of a chat request, as the policy keys prompts. */
function lastUserText(params: ChatParams): string {
  for (let i = params.messages.length - 1; i >= 0; i--) {
    const m = params.messages[i]!;
    if (m.role === "user") return textOf((m as { content?: unknown }).content);
  }
  return "";
}

/**
 * The fake's trainable models, base models and the life of its jobs.
 *
 * @example
 * ```ts
 * const store = new TrainableStore({ stepMs: 5, jobMs: undefined, entity: "acme", baseModels: DEFAULT_BASE_MODELS });
 * svc.state.trainable.models.map((m) => m.name); // the models registered through the service
 * ```
 */
export class TrainableStore {
  readonly models: FakeTrainableModel[] = [];
  readonly baseModels: string[];
  readonly entity: string;
  /** Time between two events of a job, in ms. */
  stepMs: number;
  /** When set, the time from a job's creation to its last event, in ms, whatever its size. */
  jobMs: number | undefined;
  private readonly timelines = new Map<string, JobTimeline>();
  private eventCounter = 0;

  constructor(options: { stepMs: number; jobMs?: number | undefined; entity: string; baseModels: readonly string[] }) {
    this.stepMs = options.stepMs;
    this.jobMs = options.jobMs;
    this.entity = options.entity;
    this.baseModels = [...options.baseModels];
  }

  /**
   * Forgets every model and job timeline.
   *
   * @example
   * ```ts
   * svc.state.trainable.clear();
   * ```
   */
  clear(): void {
    this.models.length = 0;
    this.timelines.clear();
  }

  /**
   * Starts the timeline of a job just created; `failure` makes it end with `training_failed`
   * after `afterSteps` gradient steps. An SFT job passes its dataset's rows: it then trains one
   * step per batch of them (sft-dataset.ts) instead of one per trajectory, and learns their
   * replies. Called by the service when a job is created.
   *
   * @internal
   */
  startJob(
    job: TrainingJob,
    failure: { message: string; afterSteps: number } | undefined,
    sftRows?: readonly SftDatasetRow[],
  ): void {
    const trajectories = job.rewards.reduce((n, g) => n + g.length, 0);
    const rewards = job.rewards.flat().filter((r): r is number => r !== null);
    const meanReward = rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : 0;
    const next = () => `evt-${(++this.eventCounter).toString().padStart(8, "0")}`;
    // The step this job will make (jobs of one model run one at a time in a loop): its loss
    // falls with it, so that every checkpoint's metrics differ from the one before.
    const modelStep = (this.models.find((m) => m.id === job.model_id)?.checkpoints.at(-1)?.step ?? 0) + 1;
    const config = isRecord(job.request["config"]) ? job.request["config"] : {};
    const batches = sftRows === undefined ? undefined : sftBatchMetrics(sftRows, config, modelStep);
    const steps = batches?.length ?? Math.max(1, trajectories);
    const planned: FakeTrainingEvent[] = [{ id: next(), type: "training_started", data: { num_sequences: steps } }];
    const gradientSteps = failure === undefined ? steps : Math.min(steps, failure.afterSteps);
    for (let k = 1; k <= gradientSteps; k++) {
      const sftData = batches?.[k - 1];
      if (sftData !== undefined) {
        planned.push({ id: next(), type: "gradient_step", data: sftData });
        continue;
      }
      const noise = (hash32(`${job.id}${k}`) % 100) / 20000;
      const loss = Math.round((0.9 / (1 + 0.15 * k) / (1 + 0.2 * (modelStep - 1)) + noise) * 10000) / 10000;
      planned.push({
        id: next(),
        type: "gradient_step",
        data: {
          step: k,
          loss,
          reward: Math.round(meanReward * 10000) / 10000,
          grad_norm: Math.round((1.2 / k) * 10000) / 10000,
          learning_rate: 5e-6,
          num_trajectories: trajectories,
        },
      });
    }
    planned.push(
      failure === undefined
        ? { id: next(), type: "training_ended", data: {} }
        : { id: next(), type: "training_failed", data: { error_message: failure.message } },
    );
    this.timelines.set(job.id, {
      job,
      sftRows,
      start: Date.now(),
      stepMs: this.jobMs === undefined ? this.stepMs : this.jobMs / Math.max(1, planned.length - 1),
      planned,
      emitted: 0,
      failure: failure?.message,
      ended: false,
    });
  }

  /** Releases the events whose time has come; a job that ends adds its checkpoint and its lesson. */
  private advance(now = Date.now()): void {
    for (const t of this.timelines.values()) {
      if (t.ended) continue;
      const due = Math.min(t.planned.length, Math.floor((now - t.start) / Math.max(t.stepMs, 0.001)) + 1);
      if (t.stepMs <= 0) t.emitted = t.planned.length;
      else t.emitted = Math.max(t.emitted, due);
      if (t.emitted === t.planned.length) {
        t.ended = true;
        if (t.failure === undefined) this.learn(t);
      }
    }
  }

  private learn(t: JobTimeline): void {
    const model = this.models.find((m) => m.id === t.job.model_id);
    if (model === undefined) return;
    const groups: unknown[] =
      t.sftRows !== undefined
        ? [{ trajectories: t.sftRows.map((r) => ({ messages_and_choices: r.messages, reward: 1 })) }]
        : Array.isArray(t.job.request["trajectory_groups"])
          ? t.job.request["trajectory_groups"]
          : [];
    for (const group of groups) {
      const trajectories = (
        isRecord(group) && Array.isArray(group["trajectories"]) ? group["trajectories"] : []
      ).filter(
        (t): t is Record<string, unknown> & { reward: number } => isRecord(t) && typeof t["reward"] === "number",
      );
      const mean = trajectories.reduce((sum, t) => sum + t.reward, 0) / Math.max(1, trajectories.length);
      for (const trajectory of trajectories) {
        const reward = trajectory.reward;
        const seen = promptAndReply(trajectory);
        if (seen === undefined) continue;
        if (seen.calls.length === 0) {
          const known = model.policy.get(seen.prompt);
          if (known === undefined || reward > known.reward)
            model.policy.set(seen.prompt, { reply: seen.reply, reward });
          continue;
        }
        // A way of calling is learned from the trajectories that did better than their group.
        if (reward <= mean) continue;
        const ordinals = new Map<string, number>();
        for (const call of seen.calls) {
          const ordinal = ordinals.get(call.name) ?? 0;
          ordinals.set(call.name, ordinal + 1);
          if (!isRecord(call.arguments)) continue;
          const key = toolKey(seen.prompt, call.name, ordinal);
          const known = model.toolPolicy.get(key);
          if (known === undefined || reward > known.reward)
            model.toolPolicy.set(key, { arguments: call.arguments, reward });
        }
      }
    }
    const sums = new Map<string, { sum: number; n: number }>();
    for (const e of t.planned)
      if (e.type === "gradient_step")
        for (const [k, v] of Object.entries(e.data))
          if (typeof v === "number" && k !== "step") {
            const s = sums.get(k) ?? { sum: 0, n: 0 };
            sums.set(k, { sum: s.sum + v, n: s.n + 1 });
          }
    const metrics: Record<string, number> = {};
    for (const [k, { sum, n }] of sums) metrics[k] = sum / n;
    const step = (model.checkpoints.at(-1)?.step ?? 0) + 1;
    model.checkpoints.push({ id: randomUuid(), step, metrics });
    if (t.sftRows !== undefined) {
      const config = isRecord(t.job.request["config"]) ? t.job.request["config"] : {};
      for (const { key, reply } of sftLessons(t.sftRows, config["assistant_turns"]))
        model.sftReplies.set(key, { reply, step });
    }
  }

  private jobView(t: JobTimeline): Record<string, unknown> {
    const emitted = t.planned.slice(0, t.emitted);
    const last = emitted.at(-1);
    const status =
      last?.type === "training_failed"
        ? "FAILED"
        : last?.type === "training_ended"
          ? "COMPLETED"
          : emitted.length > 0
            ? "RUNNING"
            : "QUEUED";
    return {
      id: t.job.id,
      model_id: t.job.model_id,
      status,
      created_at: t.job.created_at,
      training_start: emitted.length > 0 ? isoMicros(t.start + t.stepMs) : null,
      training_end: t.ended ? isoMicros(t.start + t.stepMs * t.planned.length) : null,
      error_message: t.failure !== undefined && t.ended ? t.failure : null,
    };
  }

  // Every route first releases the events whose time has come, so what it reads is current.

  /**
   * The model of a name, once due events are released: W&B serves its checkpoints as `lora`
   * artifacts of that name.
   *
   * @example
   * ```ts
   * svc.state.trainable.findByName("acme", "rl", "agent")?.checkpoints.at(-1)?.step;
   * ```
   */
  findByName(entity: string, project: string, name: string): FakeTrainableModel | undefined {
    this.advance();
    return this.models.find((m) => m.entity === entity && m.project === project && m.name === name);
  }

  /** The model a route names, once due events are released (an ended job adds its checkpoint). */
  private current(modelId: string): FakeTrainableModel | undefined {
    this.advance();
    return this.models.find((x) => x.id === modelId);
  }

  /**
   * `GET /v1/preview/training-jobs/{job_id}`: the job's record and status. A route handler of the service (tests reach it over HTTP).
   *
   * @internal
   */
  retrieveJob(jobId: string): ResponsePlan {
    this.advance();
    const t = this.timelines.get(jobId);
    return t === undefined ? notFound("Training job") : jsonResponse(200, this.jobView(t));
  }

  /**
   * `GET /v1/preview/training-jobs/{job_id}/events`: a cursor page of the events emitted so far. A route handler of the service (tests reach it over HTTP).
   *
   * @internal
   */
  listEvents(jobId: string, query: URLSearchParams): ResponsePlan {
    this.advance();
    const t = this.timelines.get(jobId);
    if (t === undefined) return notFound("Training job");
    const issues = queryIssues(query, false);
    if (issues.length > 0) return detailError(issues);
    const body = page(t.planned.slice(0, t.emitted), query);
    return body === undefined
      ? detailError([{ loc: ["query", "after"], msg: "No event with this id in the job", type: "value_error" }])
      : jsonResponse(200, body);
  }

  /**
   * `GET /v1/preview/base-models`. A route handler of the service (tests reach it over HTTP).
   *
   * @internal
   */
  listBaseModels(): ResponsePlan {
    this.advance();
    return jsonResponse(200, this.baseModels);
  }

  /**
   * `DELETE /v1/preview/models/{model_id}`: the model, its checkpoints and its run. A route handler of the service (tests reach it over HTTP).
   *
   * @internal
   */
  deleteModel(modelId: string): ResponsePlan {
    const model = this.current(modelId);
    if (model === undefined) return notFound("Model");
    this.models.splice(this.models.indexOf(model), 1);
    return jsonResponse(200, {
      model_id: model.id,
      deleted_checkpoints: model.checkpoints.length,
      deleted_run: true,
    });
  }

  /**
   * `POST /v1/preview/models/{model_id}/log`: checks the trajectories and keeps nothing. A route handler of the service (tests reach it over HTTP).
   *
   * @internal
   */
  logTrajectories(modelId: string, req: FakeRequest): ResponsePlan {
    const model = this.current(modelId);
    if (model === undefined) return notFound("Model");
    const parsed = requireJsonBody(req.body, req.json);
    if (!parsed.ok) return parsed.error;
    const issues = validateBody(logCheck, parsed.value);
    return issues.length > 0 ? detailError(issues) : jsonResponse(200, {});
  }

  /**
   * `GET /v1/preview/models/{model_id}/checkpoints`: a cursor page, `order` asc (default) or desc. A route handler of the service (tests reach it over HTTP).
   *
   * @internal
   */
  listCheckpoints(modelId: string, query: URLSearchParams): ResponsePlan {
    const model = this.current(modelId);
    if (model === undefined) return notFound("Model");
    const issues = queryIssues(query, true);
    if (issues.length > 0) return detailError(issues);
    const ordered = query.get("order") === "desc" ? [...model.checkpoints].reverse() : model.checkpoints;
    const body = page(ordered, query);
    return body === undefined
      ? detailError([{ loc: ["query", "after"], msg: "No checkpoint with this id", type: "value_error" }])
      : jsonResponse(200, body);
  }

  /**
   * `DELETE /v1/preview/models/{model_id}/checkpoints` with `{ steps }`. A route handler of the service (tests reach it over HTTP).
   *
   * @internal
   */
  deleteCheckpoints(modelId: string, req: FakeRequest): ResponsePlan {
    const model = this.current(modelId);
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

  /**
   * `POST /v1/preview/models`: a new model, or with `return_existing` the one of that name. A route handler of the service (tests reach it over HTTP).
   *
   * @internal
   */
  createModel(req: FakeRequest): ResponsePlan {
    this.advance();
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
    if (!this.baseModels.includes(body.base_model))
      return detailError([
        {
          loc: ["body", "base_model"],
          msg: `Unsupported base model; supported: ${this.baseModels.join(", ")}`,
          type: "value_error",
        },
      ]);
    const entity = body.entity ?? this.entity;
    const existing = this.models.find((m) => m.entity === entity && m.project === body.project && m.name === body.name);
    if (existing !== undefined) {
      if (body.return_existing === true) return jsonResponse(200, this.view(existing));
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
    this.models.push(model);
    return jsonResponse(200, this.view(model));
  }

  private view(m: FakeTrainableModel): Record<string, unknown> {
    return { id: m.id, entity: m.entity, project: m.project, name: m.name, base_model: m.base_model, run_id: m.run_id };
  }

  /**
   * Chat on a `wandb-artifact:///` name: undefined for other names, a 404 in vLLM's envelope for
   * an unknown model or step, else the served entry and the policy of the step. Called by the
   * service's chat route.
   *
   * @internal
   */
  resolveChat(
    req: FakeRequest,
  ):
    | undefined
    | { error: ResponsePlan }
    | { entry: ModelEntry; policy: (params: ChatParams, index: number) => GeneratedChoice | undefined } {
    const name = isRecord(req.json) ? req.json["model"] : undefined;
    if (typeof name !== "string" || !name.startsWith("wandb-artifact:")) return undefined;
    this.advance();
    const m = ARTIFACT.exec(name);
    const model = m && this.models.find((x) => x.entity === m[1] && x.project === m[2] && x.name === m[3]);
    const step = m?.[4] === undefined ? (model?.checkpoints.at(-1)?.step ?? 0) : Number(m[4]);
    if (!model || (m?.[4] !== undefined && !model.checkpoints.some((c) => c.step === step)))
      return { error: openAiError(404, "NotFoundError", `The model \`${name}\` does not exist.`, "model") };
    const entry: ModelEntry = { id: name, object: "model", created: 0, owned_by: "wandb", root: model.base_model };
    const share = 1 - 0.5 ** step;
    return {
      entry,
      policy: (params, index) => {
        if (step === 0) return undefined;
        const taught = model.sftReplies.get(conversationKey(params.messages));
        if (taught !== undefined && taught.step <= step) return learnedChoice(taught.reply, params, index);
        const prompt = lastUserText(params);
        // The same draw at every step for a given sample: a sample that leaned at step N leans at
        // every later step, so the mean reward of a fixed set of rollouts never falls. Keyed by
        // the model's name, not its random id, so a run repeats exactly.
        const leans = (what: string) =>
          seededRandom(
            hash32(
              `${model.entity}/${model.project}/${model.name}\u0000${prompt}\u0000${index}\u0000${params.seed ?? ""}${what}`,
            ),
          )() < share;
        const learned = model.policy.get(prompt);
        if (learned !== undefined && leans("")) return learnedChoice(learned.reply, params, index);
        if (model.toolPolicy.size === 0) return undefined;
        return generateChoice(params, index, (tool, ordinal) => {
          const known = model.toolPolicy.get(toolKey(prompt, tool, ordinal));
          return known !== undefined && leans(`\u0000${tool}\u0000${ordinal}`)
            ? structuredClone(known.arguments)
            : undefined;
        });
      },
    };
  }
}

/** A choice that replies with `text`, within the request's token budget. */
function learnedChoice(text: string, params: ChatParams, index: number): GeneratedChoice {
  let tokens = tokenize(text).map((piece) => ({
    text: piece,
    id: tokenId(piece),
    channel: "content" as const,
    logprob: -0.05,
  }));
  const budget = params.max_completion_tokens ?? params.max_tokens ?? Infinity;
  const cut = tokens.length > budget;
  if (cut) tokens = tokens.slice(0, budget);
  return { index, tokens, toolCall: undefined, finishReason: cut ? "length" : "stop", stopReason: null };
}

/** The trainable models' routes (the training jobs' routes are in `training.ts`). */
export const TRAINABLE_ROUTES: ReadonlyArray<Route<{ trainable: TrainableStore }>> = [
  route({
    method: "POST",
    path: "/v1/preview/models",
    auth: "bearer",
    handle: ({ req, state }) => state.trainable.createModel(req),
  }),
  route({
    method: "GET",
    path: "/v1/preview/base-models",
    auth: "bearer",
    handle: ({ state }) => state.trainable.listBaseModels(),
  }),
  route({
    method: "DELETE",
    path: "/v1/preview/models/{model_id}",
    auth: "bearer",
    handle: ({ state, params }) => state.trainable.deleteModel(params.model_id),
  }),
  route({
    method: "GET",
    path: "/v1/preview/models/{model_id}/checkpoints",
    auth: "bearer",
    handle: ({ req, state, params }) =>
      state.trainable.listCheckpoints(params.model_id, new URLSearchParams(req.query)),
  }),
  route({
    method: "DELETE",
    path: "/v1/preview/models/{model_id}/checkpoints",
    auth: "bearer",
    handle: ({ req, state, params }) => state.trainable.deleteCheckpoints(params.model_id, req),
  }),
  route({
    method: "POST",
    path: "/v1/preview/models/{model_id}/log",
    auth: "bearer",
    handle: ({ req, state, params }) => state.trainable.logTrajectories(params.model_id, req),
  }),
];
