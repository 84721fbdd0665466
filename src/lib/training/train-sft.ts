/**
 * `model.trainSFT`: the rows become `train.jsonl` in a `dataset` artifact of the model's
 * project, logged to the model's W&B run, as ART's serverless backend writes it (one
 * `{"messages": [...], "tools"?: [...]}` per line; metadata `{"format": "jsonl",
 * "num_trajectories": N}`). The job is then created with the version W&B assigned (read back
 * after the commit, not a guessed `:v0`) and followed.
 *
 * Everything is checked before the first request: the options, then every row, read once into
 * a spool while it is hashed. The dataset is named by its content, `{model}-sft-data-{12 hex of
 * the artifact's digest}` (ART names it `{model}-sft-data-{12 random hex}`): the same rows make
 * the same name and digest, and W&B answers a `createArtifact` whose digest is the collection's
 * latest version's with that version, committed (its Go and Python savers then upload nothing:
 * wandb/wandb `core/pkg/artifacts/saver.go` `Save`, `wandb/sdk/artifacts/artifact_saver.py`).
 *
 * The job is kept in the `state` store (loop-state.ts; `train-sft.json` by default) as trainLoop
 * keeps its own: the dataset, config and `Idempotency-Key` before the create is sent, the id as
 * soon as it answers, nothing once the job has ended. A call with the same rows takes it up.
 */

import * as z from "zod/mini";
import { safeParse } from "zod/v4/core";
import { closestName } from "../../core/checks/closest-name.js";
import type { UnknownKeyHint } from "../../core/checks/field-hint.js";
import { inputIssues } from "../../core/checks/input-checks.js";
import { type ListsEveryKey, optionIssues, optionNameIssues } from "../../core/checks/option-checks.js";
import { isObject } from "../../core/decoding/response-checks.js";
import { APIError, APIUserAbortError, RequestValidationError, type ValidationIssue } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { manifestDigest } from "../../wire/artifacts/digest.js";
import { fileLines, type HeldBytes, spool } from "../../wire/artifacts/local-files.js";
import {
  SFT_CONFIG_KEYS,
  type SFTTrainingConfig,
  type SFTTrainingJobCreateParams,
  sftTrainingConfigSchema,
} from "../../wire/sft-training-jobs/request-schema.js";
import type { SFTRow } from "../../wire/sft-training-jobs/types.js";
import { meanGradientMetrics } from "../../wire/trainable-models/job-metrics.js";
import type { TrainResult } from "../../wire/trainable-models/types.js";
import { TrainingJobFailedError } from "../../wire/training-jobs/errors.js";
import type { TrainingJobEvent } from "../../wire/training-jobs/types.js";
import { uploadHeldFiles } from "../artifacts/upload.js";
import { LoopStateKeeper, type LoopStateStore, type SFTJobState, stateOptionIssue } from "./loop-state.js";
import { sftJobToResume, sftLeftBehind } from "./sft-state.js";
import { refusedOutright } from "./train-loop.js";

export type { SFTMessage, SFTRow } from "../../wire/sft-training-jobs/types.js";

/**
 * Options of `model.trainSFT`.
 */
export interface TrainSFTOptions {
  /**
   * The job's settings (W&B's `SFTTrainingConfig`): `batch_size` (rows per step, or `"auto"`),
   * `learning_rate` (one, or one per batch), `assistant_turns` (`"all"` or `"last"`) and
   * `metric_logging`. Absent or null: the server's defaults.
   */
  config?: SFTTrainingConfig | null;
  /**
   * The dataset artifact's name. Default: `{model}-sft-data-{12 hex}`, the hex taken from the
   * rows' digest, so the same rows reuse the same artifact version.
   */
  name?: string;
  /** Called with each event of the job as it arrives. */
  onEvent?: (event: TrainingJobEvent) => void;
  /**
   * Called with the job's id as soon as the create answers (once it is saved in `state`), and
   * awaited before the job is followed. Not called for a saved job taken up again.
   */
  onJobCreated?: (jobId: string) => unknown;
  /**
   * Where the job in flight is kept, so that a call again after any stop, with the same rows and
   * config, follows it to its end (or sends its create again with the same `Idempotency-Key`)
   * instead of creating a second job; other rows are refused while it is kept. A file path, a
   * store of your own, or `false` to keep nothing. Default in Node:
   * `.inferloop/<entity>/<project>/<name>/train-sft.json` in the working directory; in browsers,
   * memory for the page's life.
   */
  state?: string | false | LoopStateStore;
  /** Stops waiting (and any upload in flight); a job already created is not cancelled. */
  signal?: AbortSignal;
  /**
   * Sent as `Idempotency-Key` on the job's create (default: a random UUID, kept in `state`): the
   * create is then retried on every retryable failure. A saved create sent again keeps its key.
   */
  idempotencyKey?: string;
  /** The longest wait between polls of the job's events, in ms (default 1000; a young job is polled sooner). */
  pollInterval?: number;
  /** Give up waiting for the job after this many ms. */
  timeout?: number;
}

/**
 * What `trainSFT` resolves to: the job, the model's new latest step, the mean metrics, and the
 * dataset artifact it trained on.
 */
export interface TrainSFTResult extends TrainResult {
  /** `wandb-artifact:///{entity}/{project}/{name}:v{N}`: the dataset the job was given. */
  trainingDataUrl: string;
  /** True when W&B already held these rows under that name: no new version, nothing uploaded. */
  datasetExisted: boolean;
}

const TRAIN_SFT_OPTION_NAMES = [
  "config",
  "name",
  "onEvent",
  "onJobCreated",
  "state",
  "signal",
  "idempotencyKey",
  "pollInterval",
  "timeout",
] as const;
const trainSFTListWhole: ListsEveryKey<TrainSFTOptions, typeof TRAIN_SFT_OPTION_NAMES> = true;
void trainSFTListWhole;

// The job's config, as sft_training_jobs.create checks it (a strict object: a misspelt setting
// gets a "did you mean").
const sftConfig = z.looseObject({ config: z.nullish(sftTrainingConfigSchema) });

// A misspelt setting is the likeliest slip: name the one meant.
const configKeyHint: UnknownKeyHint = (key, path) => {
  const near = path.length === 1 && path[0] === "config" ? closestName(key, SFT_CONFIG_KEYS) : undefined;
  return near === undefined ? "" : ` (did you mean "${near}"?)`;
};

const defaultName = (model: string, digest: string) => `${model}-sft-data-${digest.slice(0, 12)}`;

/** The problems of trainSFT's options; none of them needs a request to be found. */
function optionProblems(options: TrainSFTOptions, modelName: string): ValidationIssue[] {
  if (typeof options !== "object" || options === null) return [{ path: "", message: "options must be an object" }];
  const o = options as Record<string, unknown>;
  const issues = optionNameIssues(options, TRAIN_SFT_OPTION_NAMES, "known");
  // signal, idempotencyKey and timeout mean here what they mean on any request.
  issues.push(...optionIssues({ signal: o.signal, idempotencyKey: o.idempotencyKey, timeout: o.timeout }));
  if (o.config != null) {
    const checked = safeParse(sftConfig, { config: o.config });
    if (!checked.success)
      for (const i of inputIssues(checked.error.issues, configKeyHint))
        issues.push({ path: i.path.join("."), message: i.message, code: i.code });
  }
  // W&B's names: at most 128 characters, no `/`; no `:` either, which the job's URL puts after
  // the name. The default name counts too (a long model name makes it too long).
  const name = o.name ?? defaultName(modelName, "0".repeat(12));
  if (typeof name !== "string" || !/^[^/:]{1,128}$/.test(name))
    issues.push({ path: "name", message: "the dataset's name must be 1 to 128 characters, without / or :" });
  for (const key of ["onEvent", "onJobCreated"] as const)
    if (o[key] !== undefined && typeof o[key] !== "function") issues.push({ path: key, message: "must be a function" });
  const stateIssue = stateOptionIssue(o.state);
  if (stateIssue !== undefined) issues.push({ path: "state", message: stateIssue });
  const poll = o.pollInterval;
  if (poll !== undefined && !(typeof poll === "number" && poll >= 0 && poll < Infinity))
    issues.push({ path: "pollInterval", message: "must be a number of ms >= 0" });
  return issues;
}

/** At most this many bad rows are named; the reading stops there. */
const MAX_ROW_ISSUES = 10;

/** What is wrong with a row, if anything: the first problem, its path under the row's. */
function rowProblem(row: unknown): { path: string; message: string } | undefined {
  if (!isObject(row)) return { path: "", message: "a row must be an object { messages, tools? }" };
  const { messages, tools } = row;
  if (!Array.isArray(messages) || messages.length === 0)
    return { path: ".messages", message: "messages must be a non-empty array of chat messages" };
  const bad = messages.findIndex((m) => !isObject(m) || typeof m.role !== "string");
  if (bad >= 0) return { path: `.messages.${bad}`, message: "a message must be an object with a string `role`" };
  if (tools != null && !Array.isArray(tools))
    return { path: ".tools", message: "tools must be an array of tool definitions" };
  // SFT trains the assistant turns (all, or the last with assistant_turns: "last"): a row
  // without one teaches nothing, and is most likely a conversation cut before its reply.
  if (!messages.some((m) => (m as { role: string }).role === "assistant"))
    return {
      path: ".messages",
      message: "the row has no assistant message: SFT learns the assistant turns, so add the reply to learn",
    };
  return undefined;
}

/** A row as ART writes it in train.jsonl. */
function rowLine(row: Record<string, unknown>): string {
  const { messages, tools } = row;
  return `${JSON.stringify(tools != null ? { messages, tools } : { messages })}\n`;
}

type Rows = string | Iterable<SFTRow> | AsyncIterable<SFTRow>;

const NOT_JSON = Symbol("not JSON");

/** A row read, with where it is: `path` names it in a refusal, `n` counts from 1. */
interface LocatedRow {
  /** The row, or NOT_JSON for a line of a file that is not JSON. */
  row: unknown;
  path: string;
  n: number;
}

async function* located(rows: Rows): AsyncGenerator<LocatedRow> {
  if (typeof rows === "string") {
    let n = 0;
    for await (const text of fileLines(rows)) {
      n++;
      if (text.trim() === "") continue;
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch {
        row = NOT_JSON;
      }
      yield { row, path: `rows (line ${n} of ${rows})`, n };
    }
    return;
  }
  let i = 0;
  for await (const row of rows) yield { row, path: `rows.${i}`, n: ++i };
}

/**
 * Reads every row once: checks it, and spools the lines that will be uploaded while hashing
 * them. Bad rows are collected (up to {@link MAX_ROW_ISSUES}) and refused together at the end,
 * with nothing sent; the spool is then removed.
 */
async function spoolRows(rows: Rows): Promise<{ held: HeldBytes; count: number }> {
  const issues: ValidationIssue[] = [];
  let count = 0;
  const encoder = new TextEncoder();
  async function* lines(): AsyncGenerator<Uint8Array> {
    for await (const { row, path, n } of located(rows)) {
      const problem = row === NOT_JSON ? { path: "", message: "the line is not JSON" } : rowProblem(row);
      if (problem !== undefined) {
        // A file's path names its line already; an iterable's names its 0-based index.
        const message = typeof rows === "string" ? problem.message : `row ${n}: ${problem.message}`;
        issues.push({ path: path + problem.path, message, code: "custom" });
        if (issues.length >= MAX_ROW_ISSUES) return;
        continue;
      }
      count++;
      // Once a row is bad nothing will be uploaded: the rest are only checked.
      if (issues.length === 0) yield encoder.encode(rowLine(row as Record<string, unknown>));
    }
  }
  const held = await spool(lines());
  if (issues.length === 0 && count === 0)
    issues.push({ path: "rows", message: "there are no rows: nothing to train on", code: "custom" });
  if (issues.length > 0) {
    await held.dispose();
    throw new RequestValidationError(issues, "trainSFT request");
  }
  return { held, count };
}

/** The model fields trainSFT reads. */
export interface SFTModel {
  id: string;
  entity: string;
  project: string;
  name: string;
  run_id?: string | null;
  latestStep(options?: RequestOptions): Promise<number>;
}

/** What trainSFT needs of the SFT jobs: create one, follow its events. */
export interface SFTJobs {
  create(params: SFTTrainingJobCreateParams, options?: RequestOptions): PromiseLike<{ id: string }>;
  follow(
    jobId: string,
    options: { pollInterval?: number | undefined; timeout?: number | undefined; signal?: AbortSignal | undefined },
  ): AsyncIterable<TrainingJobEvent>;
}

/** Runs trainSFT for `model`; see the module comment. */
export async function trainSFT(
  http: HttpClient,
  jobs: SFTJobs,
  model: SFTModel,
  rows: Rows,
  options: TrainSFTOptions = {},
): Promise<TrainSFTResult> {
  const issues = optionProblems(options, model.name);
  if (
    typeof rows !== "string" &&
    (rows === null || typeof rows !== "object" || !(Symbol.asyncIterator in rows || Symbol.iterator in rows))
  )
    issues.unshift({
      path: "rows",
      message: "rows must be an (async) iterable of { messages, tools? } or a JSONL file path",
      code: "custom",
    });
  if (issues.length > 0) throw new RequestValidationError(issues, "trainSFT request");
  const { config, onEvent, onJobCreated, signal, idempotencyKey, pollInterval, timeout } = options;
  const keeper = new LoopStateKeeper(options.state, model, { file: "train-sft.json", label: "trainSFT" });

  const { held, count } = await spoolRows(rows);
  const request: RequestOptions = signal ? { signal } : {};
  let job: SFTJobState;
  let datasetExisted = true;
  try {
    const digest = manifestDigest([{ name: "train.jsonl", digest: held.digest }]);
    const name = options.name ?? defaultName(model.name, digest);
    // Before any request: a saved job of these rows is taken up (nothing uploaded), another refused.
    const saved = (await keeper.load(http.config.log)).sft;
    const resumed = sftJobToResume(saved, { name, digest }, config, keeper.where);
    if (resumed !== undefined) job = resumed;
    else {
      const dataset = await uploadHeldFiles(
        http,
        {
          entity: model.entity,
          project: model.project,
          name,
          type: "dataset",
          // ART logs the dataset from the model's run, `wandb.init(id=model.run_id, ...)`; without
          // a run_id that makes a new run, never one named after the model: logged by no run here.
          runId: model.run_id ?? undefined,
          metadata: { format: "jsonl", num_trajectories: count },
          files: [{ name: "train.jsonl" }],
        },
        [held],
        request,
      );
      datasetExisted = dataset.existing;
      job = {
        dataset: { name, digest },
        trainingDataUrl: dataset.ref,
        ...(config != null ? { config } : {}),
        idempotencyKey: idempotencyKey ?? crypto.randomUUID(),
      };
    }
  } finally {
    await held.dispose().catch(() => undefined);
  }
  const save = (sft: SFTJobState | undefined) => keeper.set({ ...keeper.state, sft });
  try {
    let jobId = job.jobId;
    if (jobId === undefined) {
      await save(job);
      try {
        ({ id: jobId } = await jobs.create(
          {
            model_id: model.id,
            training_data_url: job.trainingDataUrl,
            ...(job.config != null ? { config: job.config } : {}),
          },
          { ...request, idempotencyKey: job.idempotencyKey },
        ));
      } catch (error) {
        // Refused: no job was made, and a new call must not send it again.
        if (refusedOutright(error)) await save(undefined);
        throw error;
      }
      job = { ...job, jobId };
      await save(job);
      await onJobCreated?.(jobId);
    }
    let metrics: Record<string, number>;
    try {
      metrics = await meanGradientMetrics(jobs.follow(jobId, { pollInterval, timeout, signal }), onEvent);
    } catch (error) {
      // A failed job is over, and one the server does not know cannot be followed.
      if (error instanceof TrainingJobFailedError || (error instanceof APIError && error.status === 404))
        await save(undefined);
      throw error;
    }
    await save(undefined);
    return {
      jobId,
      step: await model.latestStep(request),
      metrics,
      trainingDataUrl: job.trainingDataUrl,
      datasetExisted,
    };
  } catch (error) {
    // Said when it happens: the job goes on, and how a new call takes it up.
    if (error instanceof APIUserAbortError && signal?.aborted && keeper.state.sft !== undefined)
      throw new APIUserAbortError(`trainSFT was aborted. ${sftLeftBehind(keeper, job)}`, { cause: error });
    throw error;
  }
}
