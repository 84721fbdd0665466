/**
 * `client.evaluations.run`: a model over a dataset, each prediction scored, recorded in Weave
 * as its own `EvaluationLogger` records one (`wandb/weave` `sdks/node/src/evaluationLogger.ts`,
 * `weave/evaluation/eval_imperative.py`), so it shows in the Evals tab and opens in Compare:
 *
 *     Evaluation.evaluate            inputs { self: Evaluation, model: Model }, output: the summary
 *     ├─ Evaluation.predict_and_score   one per row: inputs { self, model, example: the row }
 *     │  ├─ Model.predict               inputs { self: Model, inputs: the row }, output: the prediction
 *     │  └─ <scorer>.score              inputs { self: Scorer, output }, output: the score
 *     └─ Evaluation.summarize        output: the summary
 *
 * every call marked `_weave_eval_meta.imperative` (scorer calls `score` too). Predictions run
 * `concurrency` at a time; a row's calls are written whole once it is scored (with the rows
 * scored meanwhile, as Weave's clients batch calls), so no call is ever left open, and memory
 * holds the rows in flight and the running aggregates, never the results.
 *
 * @module
 */

import { optionNameIssues } from "../../core/checks/option-checks.js";
import {
  APIUserAbortError,
  InferloopError,
  RequestValidationError,
  type ValidationIssue,
} from "../../core/errors/errors.js";
import { SerializedJSON, toJSONValue } from "../../core/json/json-value.js";
import { callEndpoint } from "../../core/pipeline/endpoint.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { ChatCreate } from "../../wire/chat/chat-create.js";
import type { ChatCompletionMessageParam } from "../../wire/chat/message-schemas.js";
import { callUpsertBatch, objRead, tableQuery } from "../../wire/evaluations/endpoints.js";
import type { CallBatchItem, EndedCallInsert, StartedCallInsert } from "../../wire/evaluations/types.js";
import { PROJECT_ID_PATTERN } from "../../wire/project-id.js";
import { objectId, type Publisher, publishDataset, publishObject, publishOp, weaveObject } from "./objects.js";
import { ScoreAggregates } from "./summary.js";
import type { EvaluationRow, EvaluationRun, EvaluationRunParams, ScoreValue } from "./types.js";

const WHAT = "evaluations.run params";
const RUN_PARAM_NAMES = [
  "project_id",
  "name",
  "dataset",
  "model",
  "scorers",
  "concurrency",
  "signal",
  "onProgress",
] as const;
const DEFAULT_CONCURRENCY = 8;
const TABLE_PAGE = 100;
const MARKER = { _weave_eval_meta: { imperative: true } };
const SCORE_MARKER = { _weave_eval_meta: { imperative: true, score: true } };
// Python class names: Weave's Python client builds a class per scorer name.
const SCORER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DATASET_REF = /^weave:\/\/\/([^/]+\/[^/]+)\/object\/([^/:]+):([^/:]+)$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What the runner needs: the request pipeline, and chat for a model given as chat parameters or a name. */
export interface EvaluationDeps {
  http: HttpClient;
  chat: ChatCreate;
}

/** @internal Members the training loop adds to the Model object of a checkpoint. */
export interface RunExtras {
  modelProps?: Record<string, unknown>;
}

type Usage = Record<string, Record<string, number>>;
interface Prediction {
  output: unknown;
  usage?: Usage | undefined;
}
interface PreparedModel {
  /** Its name (a chat model's, or the function's). */
  label: string;
  props: Record<string, unknown>;
  predict(row: EvaluationRow, signal: AbortSignal): Promise<Prediction>;
}

/** A chat's messages from a row: its `messages`, or its `prompt` as one user message. */
export function rowMessages(row: EvaluationRow): ChatCompletionMessageParam[] | undefined {
  if (Array.isArray(row["messages"])) return row["messages"] as ChatCompletionMessageParam[];
  if (typeof row["prompt"] === "string") return [{ role: "user", content: row["prompt"] }];
  return undefined;
}

/**
 * Refuses params that cannot run (`RequestValidationError` naming each field), before anything
 * is sent.
 */
export function checkRunParams(params: EvaluationRunParams): void {
  const issues: ValidationIssue[] = [];
  const p = params as Partial<EvaluationRunParams> | undefined;
  if (!isObject(p)) throw new RequestValidationError([{ path: "", message: "must be an object" }], WHAT);
  if (typeof p.project_id !== "string" || !PROJECT_ID_PATTERN.test(p.project_id))
    issues.push({ path: "project_id", message: 'must be "<entity>/<project>"' });
  if (typeof p.name !== "string" || objectId(p.name) === "")
    issues.push({ path: "name", message: "must be a name with a letter or digit (it names the Evaluation object)" });
  const chatModel = typeof p.model !== "function";
  if (
    typeof p.model === "string"
      ? p.model === ""
      : chatModel && typeof (p.model as { model?: unknown })?.model !== "string"
  )
    issues.push({
      path: "model",
      message: "must be a chat model name, chat parameters with a `model`, or a function of the row",
    });
  else if (chatModel && isObject(p.model) && ("messages" in p.model || "stream" in p.model))
    issues.push({
      path: "model",
      message: "chat parameters carry no messages and no stream: each row gives its messages",
    });
  if (Array.isArray(p.dataset)) {
    if (p.dataset.length === 0) issues.push({ path: "dataset", message: "must hold at least one row" });
    const bad = p.dataset.findIndex((r) => !isObject(r));
    if (bad >= 0) issues.push({ path: `dataset.${bad}`, message: "a row must be an object" });
    else if (chatModel) {
      const noPrompt = p.dataset.findIndex((r) => rowMessages(r as EvaluationRow) === undefined);
      if (noPrompt >= 0)
        issues.push({
          path: `dataset.${noPrompt}`,
          message:
            "a chat model reads each row's `messages` (an array) or `prompt` (a string): add one, or pass `model` as a function of the row",
        });
    }
    if (bad < 0)
      try {
        toJSONValue({ dataset: p.dataset }, WHAT);
      } catch (err) {
        if (!(err instanceof RequestValidationError)) throw err;
        issues.push(...err.issues);
      }
  } else if (!isObject(p.dataset) || typeof p.dataset["ref"] !== "string" || !DATASET_REF.test(p.dataset["ref"]))
    issues.push({
      path: "dataset",
      message: 'must be rows (an array of objects) or { ref: "weave:///<entity>/<project>/object/<name>:<digest>" }',
    });
  if (!isObject(p.scorers) || Object.keys(p.scorers).length === 0)
    issues.push({ path: "scorers", message: "must name at least one scorer: { name: ({ row, output }) => score }" });
  else
    for (const [name, scorer] of Object.entries(p.scorers)) {
      if (!SCORER_NAME.test(name) || name === "model_latency")
        issues.push({
          path: `scorers.${name}`,
          message:
            "a scorer's name is letters, digits and _ (not first a digit), and not model_latency (the summary's latency)",
        });
      if (typeof scorer !== "function")
        issues.push({ path: `scorers.${name}`, message: "must be a function of { row, output }" });
    }
  if (p.concurrency !== undefined && !(Number.isSafeInteger(p.concurrency) && p.concurrency >= 1))
    issues.push({ path: "concurrency", message: `must be an integer >= 1, got ${String(p.concurrency)}` });
  if (p.signal !== undefined && !(p.signal instanceof AbortSignal))
    issues.push({ path: "signal", message: "must be an AbortSignal" });
  if (p.onProgress !== undefined && typeof p.onProgress !== "function")
    issues.push({ path: "onProgress", message: "must be a function" });
  issues.push(...optionNameIssues(p, RUN_PARAM_NAMES, "known"));
  if (issues.length > 0) throw new RequestValidationError(issues, WHAT);
}

// The short name of a checkpoint (`wandb-artifact:///acme/agents/agent:step3` is `agent:step3`).
const shortName = (model: string) => model.replace(/^wandb-artifact:\/\/\/[^/]+\/[^/]+\//, "");

function prepareModel(model: EvaluationRunParams["model"], chat: ChatCreate, extra: RunExtras): PreparedModel {
  if (typeof model === "function")
    return {
      label: model.name || "model",
      props: { ...extra.modelProps },
      predict: async (row, signal) => ({ output: await model(row, { signal }) }),
    };
  // A chat model's name is checked to be a string (it names the Model object).
  const params = (typeof model === "string" ? { model } : model) as Exclude<typeof model, string> & { model: string };
  return {
    label: params.model,
    props: { ...params, ...extra.modelProps },
    predict: async (row, signal) => {
      const messages = rowMessages(row);
      if (messages === undefined)
        throw new InferloopError(
          "this row has neither `messages` (an array) nor `prompt` (a string) for the chat model",
        );
      const reply = await chat.create({ ...params, messages }, { signal });
      const u = reply.usage;
      const usage = u
        ? {
            [reply.model || params.model]: {
              prompt_tokens: u.prompt_tokens,
              completion_tokens: u.completion_tokens,
              total_tokens: u.total_tokens,
              requests: 1,
            },
          }
        : undefined;
      return { output: reply.choices[0]?.message.content ?? null, usage };
    },
  };
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** A time-ordered id, as Weave's clients make call ids (UUIDv7). */
function uuid7(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  let t = Date.now();
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  let id = "";
  for (let i = 0; i < 16; i++) id += (i === 4 || i === 6 || i === 8 || i === 10 ? "-" : "") + HEX[b[i]!];
  return id;
}

const errorText = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : `Error: ${String(error)}`;

function addUsage(into: Usage, usage: Usage | undefined): void {
  for (const [model, u] of Object.entries(usage ?? {})) {
    const sum = (into[model] ??= {});
    for (const [k, v] of Object.entries(u)) sum[k] = (sum[k] ?? 0) + v;
  }
}

/** The dataset's rows, one at a time: the array itself, or a Weave table read page by page. */
async function* tableRows(http: HttpClient, ref: string, signal: AbortSignal): AsyncGenerator<EvaluationRow> {
  const [, projectId, objectName, objectDigest] = DATASET_REF.exec(ref)!;
  const { obj } = await callEndpoint(
    http,
    objRead,
    { params: { project_id: projectId!, object_id: objectName!, digest: objectDigest! } },
    { signal },
  );
  const rows = isObject(obj.val) ? obj.val["rows"] : undefined;
  const digest = typeof rows === "string" ? /\/table\/([^/]+)$/.exec(rows)?.[1] : undefined;
  if (digest === undefined)
    throw new RequestValidationError(
      [{ path: "dataset.ref", message: `${ref} is not a Dataset (its value has no rows table)` }],
      WHAT,
    );
  for (let offset = 0; ; offset += TABLE_PAGE) {
    const page = await callEndpoint(
      http,
      tableQuery,
      { params: { project_id: projectId!, digest, limit: TABLE_PAGE, offset } },
      { signal },
    );
    for (const row of page.rows) yield isObject(row.val) ? row.val : { value: row.val };
    if (page.rows.length < TABLE_PAGE) return;
  }
}

/** One row's calls: written together once the row is predicted and scored. */
interface RowRecord {
  /** Its calls' batch items, already written as JSON text: the objects are not kept meanwhile. */
  items: string;
  scores: Record<string, unknown>;
  failed: boolean;
  latency: number;
  usage: Usage | undefined;
}

/** Batch items as the JSON text of their list's elements (a batch's body joins them with commas). */
const serialized = (items: CallBatchItem[]) => items.map((i) => JSON.stringify(i)).join(",");

/**
 * The bytes of each batch, written into one buffer kept for the whole run (one batch is written
 * at a time, and a batch's request is settled before the next is encoded). A new buffer per
 * batch would be external memory that V8 frees only at its next full collection: over thousands
 * of rows, tens of MB held for nothing.
 */
class BatchBody {
  #buffer = new Uint8Array(64 * 1024);
  readonly #utf8 = new TextEncoder();

  /** The parts, comma-separated, as one piece of bytes. */
  of(parts: readonly string[]): SerializedJSON {
    for (;;) {
      const written = this.#encode(parts);
      if (written !== undefined) return new SerializedJSON(this.#buffer.subarray(0, written));
      const chars = parts.reduce((n, p) => n + p.length + 1, 0);
      this.#buffer = new Uint8Array(Math.max(this.#buffer.length * 2, chars * 3));
    }
  }

  /** How many bytes the parts took, or undefined when they do not fit. */
  #encode(parts: readonly string[]): number | undefined {
    let at = 0;
    for (const [i, part] of parts.entries()) {
      if (i > 0) {
        if (at === this.#buffer.length) return undefined;
        this.#buffer[at++] = 0x2c;
      }
      const { read, written } = this.#utf8.encodeInto(part, this.#buffer.subarray(at));
      if (read < part.length) return undefined;
      at += written;
    }
    return at;
  }
}

/** Rows written together, as Weave's own client batches calls. */
const BATCH_ROWS = 32;
const BATCH_MS = 200;

/**
 * The rows scored, written in batches of up to {@link BATCH_ROWS} rows, or after
 * {@link BATCH_MS} at the latest, one batch at a time: a worker whose row fills a batch waits
 * for it to be written, so the rows held stay bounded whatever the dataset's size.
 */
class RowBatches {
  #pending: RowRecord[] = [];
  #writing: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #write: (batch: string[]) => Promise<unknown>;
  readonly #fail: (error: unknown) => void;
  readonly #written: (rows: RowRecord[]) => void;

  constructor(
    write: (batch: string[]) => Promise<unknown>,
    fail: (error: unknown) => void,
    written: (rows: RowRecord[]) => void,
  ) {
    this.#write = write;
    this.#fail = fail;
    this.#written = written;
  }

  async add(row: RowRecord): Promise<void> {
    this.#pending.push(row);
    if (this.#pending.length >= BATCH_ROWS) return this.flush();
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.flush().catch(this.#fail);
    }, BATCH_MS);
  }

  async flush(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const rows = this.#pending;
    if (rows.length === 0) return;
    this.#pending = [];
    this.#writing = this.#write(rows.map((r) => r.items)).then(
      () => {
        this.#writing = undefined;
        this.#written(rows);
      },
      (error: unknown) => {
        this.#writing = undefined;
        throw error;
      },
    );
    return this.#writing;
  }
}

/**
 * Runs an evaluation (see the module comment). Throws `RequestValidationError` before anything
 * is sent when the params are wrong.
 */
export async function runEvaluation<Row extends EvaluationRow, Output>(
  deps: EvaluationDeps,
  params: EvaluationRunParams<Row, Output>,
  extra: RunExtras = {},
): Promise<EvaluationRun> {
  checkRunParams(params as unknown as EvaluationRunParams);
  const user = params.signal;
  if (user?.aborted)
    throw new APIUserAbortError("The evaluation was aborted before it started.", { cause: user.reason });
  const { http } = deps;
  const projectId = params.project_id;
  const model = prepareModel(params.model as EvaluationRunParams["model"], deps.chat, extra);
  const scorers = Object.entries(params.scorers as EvaluationRunParams["scorers"]);
  const concurrency = params.concurrency ?? DEFAULT_CONCURRENCY;
  const publisher: Publisher = { http, projectId, options: user ? { signal: user } : undefined };

  // 1. The ops and objects (content-addressed: a second run of the same definition reuses them).
  const scoreOps = Promise.all(scorers.map(([name]) => publishOp(publisher, `${name}.score`, "score(self, output)")));
  const [evaluateOp, predictAndScoreOp, summarizeOp, predictOp, datasetRef, modelRef, scorerRefs] = await Promise.all([
    publishOp(publisher, "Evaluation.evaluate", "evaluate(self, model)"),
    publishOp(publisher, "Evaluation.predict_and_score", "predict_and_score(self, model, example)"),
    publishOp(publisher, "Evaluation.summarize", "summarize(self)"),
    publishOp(publisher, "Model.predict", "predict(self, inputs)"),
    Array.isArray(params.dataset)
      ? publishDataset(publisher, `${params.name}-dataset`, params.dataset)
      : Promise.resolve((params.dataset as { ref: string }).ref),
    publishObject(
      publisher,
      objectId(shortName(model.label)),
      weaveObject("Model", [], { name: model.label, description: null, ...model.props }),
    ),
    Promise.all(
      scorers.map(([name]) =>
        publishObject(publisher, objectId(name), weaveObject(name, ["Scorer"], { name, description: null })),
      ),
    ),
  ]);
  const scorerOps = await scoreOps;
  const evaluationRef = await publishObject(
    publisher,
    objectId(params.name),
    weaveObject("Evaluation", [], {
      name: params.name,
      description: null,
      dataset: datasetRef,
      scorers: scorers.map(([name]) => name),
    }),
  );

  // 2. The root call, started before any row (the run shows as running meanwhile). Sent without
  // the user's signal, as every write from here on: a write cut halfway could leave a call open.
  const now = () => new Date().toISOString();
  const body = new BatchBody();
  const write = (parts: string[]) =>
    callEndpoint(http, callUpsertBatch, { params: { batch: [body.of(parts)] } }, undefined);
  const traceId = uuid7();
  const rootId = uuid7();
  const call = (
    id: string,
    parent: string,
    op: string,
    started: string,
    inputs: Record<string, unknown>,
    attributes: Record<string, unknown> = MARKER,
  ) =>
    ({
      mode: "start",
      req: {
        start: {
          project_id: projectId,
          id,
          trace_id: traceId,
          parent_id: parent,
          op_name: op,
          started_at: started,
          attributes,
          inputs,
        },
      },
    }) as const;
  const end = (e: Omit<EndedCallInsert, "project_id">): CallBatchItem => ({
    mode: "end",
    req: { end: { project_id: projectId, ...e } },
  });
  const root: StartedCallInsert = {
    project_id: projectId,
    id: rootId,
    trace_id: traceId,
    parent_id: null,
    op_name: evaluateOp,
    display_name: `${shortName(model.label)} on ${params.name}`,
    started_at: now(),
    attributes: { ...MARKER, weave: { source: "inferloop" } },
    inputs: { self: evaluationRef, model: modelRef },
  };
  await write([serialized([{ mode: "start", req: { start: root } }])]);

  // 3. The rows: `concurrency` predictions at a time, each row written once scored.
  const inner = new AbortController();
  const onAbort = () => inner.abort(user?.reason);
  user?.addEventListener("abort", onAbort, { once: true });
  if (user?.aborted) onAbort();
  let fatal: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    fatal ??= { error };
    inner.abort(error);
  };
  const aggregates = new ScoreAggregates();
  const usage: Usage = {};
  let done = 0;
  let failed = 0;
  let latencySum = 0;
  const total = Array.isArray(params.dataset) ? params.dataset.length : undefined;

  let next: () => Promise<IteratorResult<EvaluationRow>>;
  if (Array.isArray(params.dataset)) {
    const rows = params.dataset as readonly EvaluationRow[];
    let i = 0;
    next = async () => (i < rows.length ? { done: false, value: rows[i++]! } : { done: true, value: undefined });
  } else {
    const it = tableRows(http, (params.dataset as { ref: string }).ref, inner.signal);
    let chain: Promise<unknown> = Promise.resolve();
    // One page request at a time, whichever worker asks.
    next = () => {
      const result = chain.then(() => it.next());
      chain = result.catch(() => {});
      return result;
    };
  }

  const record = async (row: EvaluationRow): Promise<RowRecord | undefined> => {
    const signal = inner.signal;
    const pasId = uuid7();
    const predictId = uuid7();
    const pasStarted = now();
    let prediction: Prediction | undefined;
    let predictError: unknown;
    try {
      prediction = await model.predict(row, signal);
      // A prediction that is not JSON cannot be recorded: the row's error, said here.
      toJSONValue({ output: prediction.output }, "model output");
    } catch (err) {
      predictError = err;
    }
    const predictEnded = now();
    if (signal.aborted) return undefined;
    const output = predictError === undefined ? prediction!.output : null;
    const items: CallBatchItem[] = [
      call(pasId, rootId, predictAndScoreOp, pasStarted, { self: evaluationRef, model: modelRef, example: row }),
      call(predictId, pasId, predictOp, pasStarted, { self: modelRef, inputs: row }),
      end({
        id: predictId,
        ended_at: predictEnded,
        output,
        ...(predictError === undefined ? {} : { exception: errorText(predictError) }),
        summary: prediction?.usage ? { usage: prediction.usage } : {},
      }),
    ];
    const scores: Record<string, unknown> = {};
    let scorerFailed = false;
    if (predictError === undefined) {
      const outcomes = await Promise.all(
        scorers.map(async ([, scorer]) => {
          const started = now();
          try {
            const value: ScoreValue = await scorer({ row, output, signal } as never);
            toJSONValue({ score: value }, "score");
            return { started, ended: now(), value };
          } catch (error) {
            return { started, ended: now(), error };
          }
        }),
      );
      if (signal.aborted) return undefined;
      outcomes.forEach((o, i) => {
        const [name] = scorers[i]!;
        const id = uuid7();
        items.push(
          call(id, pasId, scorerOps[i]!, o.started, { self: scorerRefs[i]!, output }, SCORE_MARKER),
          end({
            id,
            ended_at: o.ended,
            output: "error" in o ? null : (o.value ?? null),
            ...("error" in o ? { exception: errorText(o.error) } : {}),
            summary: {},
          }),
        );
        if ("error" in o) scorerFailed = true;
        else scores[name] = o.value ?? null;
      });
    }
    const latency = (Date.parse(predictEnded) - Date.parse(pasStarted)) / 1000;
    items.push(
      end({
        id: pasId,
        ended_at: now(),
        output: predictError === undefined ? { output, scores, model_latency: latency } : null,
        ...(predictError === undefined ? {} : { exception: errorText(predictError) }),
        summary: prediction?.usage ? { usage: prediction.usage } : {},
      }),
    );
    return {
      items: serialized(items),
      scores,
      failed: predictError !== undefined || scorerFailed,
      latency,
      usage: prediction?.usage,
    };
  };

  const batches = new RowBatches(write, fail, (rows) => {
    for (const row of rows) {
      aggregates.add(row.scores);
      addUsage(usage, row.usage);
      latencySum += row.latency;
      done += 1;
      if (row.failed) failed += 1;
      params.onProgress?.({ done, failed, total });
    }
  });
  const worker = async () => {
    while (!inner.signal.aborted) {
      const item = await next();
      if (item.done || inner.signal.aborted) return;
      const row = await record(item.value);
      if (row === undefined) return;
      await batches.add(row);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, () => worker().catch(fail)));
    // Rows scored before an abort are whole: they are written too.
    await batches.flush().catch(fail);
  } finally {
    user?.removeEventListener("abort", onAbort);
  }

  // 4. The end: the summary, or the failure (an aborted run is ended, never left open).
  const rootSummary = Object.keys(usage).length > 0 ? { usage } : {};
  if (fatal !== undefined || user?.aborted) {
    const error = user?.aborted
      ? new APIUserAbortError(`The evaluation was aborted after ${done} rows.`, { cause: user.reason })
      : fatal!.error;
    const ended = end({ id: rootId, ended_at: now(), output: null, exception: errorText(error), summary: rootSummary });
    // The error that stopped the run is the one to throw, even if the server cannot take the end
    // (the write that failed may have been to it).
    await write([serialized([ended])]).catch(() => {});
    throw error;
  }
  const summary = aggregates.summary();
  const output = { ...summary, model_latency: { mean: done > 0 ? latencySum / done : null } };
  const summarizeId = uuid7();
  const started = now();
  await write([
    serialized([
      call(summarizeId, rootId, summarizeOp, started, { self: evaluationRef }),
      end({ id: summarizeId, ended_at: now(), output, summary: {} }),
      end({ id: rootId, ended_at: now(), output, summary: rootSummary }),
    ]),
  ]);
  return { id: rootId, evaluationRef, modelRef, summary, rows: done, failed };
}
