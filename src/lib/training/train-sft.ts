/**
 * `model.trainSFT`: the rows become `train.jsonl` in a `dataset` artifact of the model's
 * project, logged to the model's W&B run, as ART's serverless backend writes it (one
 * `{"messages": [...], "tools"?: [...]}` per line; metadata `{"format": "jsonl",
 * "num_trajectories": N}`; a unique name `{model}-sft-data-{12 hex}`). The job is then created
 * with the version W&B assigned (read back after the commit, not a guessed `:v0`) and followed.
 */

import { isObject } from "../../core/decoding/response-checks.js";
import { RequestValidationError } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { hex } from "../../wire/artifacts/digest.js";
import { fileLines } from "../../wire/artifacts/local-files.js";
import type { SFTTrainingJobCreateParams } from "../../wire/sft-training-jobs/request-schema.js";
import { meanGradientMetrics } from "../../wire/trainable-models/job-metrics.js";
import type { TrainResult } from "../../wire/trainable-models/types.js";
import type { TrainingJobEvent } from "../../wire/training-jobs/types.js";
import { uploadArtifact } from "../artifacts/upload.js";

/**
 * One SFT example as ART writes it: the conversation (the assistant turns are what is
 * trained), and the tools it could call.
 */
export interface SFTRow {
  messages: Array<{ role: string; [key: string]: unknown }>;
  tools?: unknown[] | null;
}

/**
 * Options of `model.trainSFT`.
 */
export interface TrainSFTOptions {
  /** The job's `config` (`batch_size`, `learning_rate`, `assistant_turns`, `metric_logging`). */
  config?: Record<string, unknown>;
  /** The dataset artifact's name. Default: `{model}-sft-data-{12 random hex}` (as ART names it). */
  name?: string;
  /** Called with each event of the job as it arrives. */
  onEvent?: (event: TrainingJobEvent) => void;
  /**
   * Called with the job's id as soon as the create answers, and awaited before the job is
   * followed: keep it where a new process finds it (the training API lists no jobs), to
   * re-attach with `client.sftTrainingJobs.follow(jobId)` after a crash.
   */
  onJobCreated?: (jobId: string) => unknown;
  /** Stops waiting (and any upload in flight); a job already created is not cancelled. */
  signal?: AbortSignal;
  /** Sent as `Idempotency-Key` on the job's create: it is then retried on every retryable failure. */
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
}

const refuse = (path: string, message: string): never => {
  throw new RequestValidationError([{ path, message, code: "custom" }], "trainSFT request");
};

/** A row checked and written as ART writes it; `where` names it in a refusal. */
function rowLine(row: unknown, where: string): string {
  if (!isObject(row)) return refuse(where, "a row must be an object { messages, tools? }");
  const { messages, tools } = row;
  if (!Array.isArray(messages) || messages.length === 0)
    return refuse(`${where}.messages`, "messages must be a non-empty array of chat messages");
  messages.forEach((m, j) => {
    if (!isObject(m) || typeof m.role !== "string")
      refuse(`${where}.messages.${j}`, "a message must be an object with a string `role`");
  });
  if (tools != null && !Array.isArray(tools)) refuse(`${where}.tools`, "tools must be an array of tool definitions");
  return `${JSON.stringify(tools != null ? { messages, tools } : { messages })}\n`;
}

async function* rowsOf(rows: string | Iterable<SFTRow> | AsyncIterable<SFTRow>): AsyncGenerator<{ line: string }> {
  if (typeof rows === "string") {
    let n = 0;
    for await (const text of fileLines(rows)) {
      n++;
      if (text.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        refuse(`rows (line ${n} of ${rows})`, "the line is not JSON");
      }
      yield { line: rowLine(parsed, `rows (line ${n} of ${rows})`) };
    }
    return;
  }
  if (rows === null || typeof rows !== "object" || !(Symbol.asyncIterator in rows || Symbol.iterator in rows))
    refuse("rows", "rows must be an (async) iterable of { messages, tools? } or a JSONL file path");
  let i = 0;
  for await (const row of rows) yield { line: rowLine(row, `rows.${i++}`) };
}

function randomHex12(): string {
  return hex(crypto.getRandomValues(new Uint8Array(6)));
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
  rows: string | Iterable<SFTRow> | AsyncIterable<SFTRow>,
  options: TrainSFTOptions = {},
): Promise<TrainSFTResult> {
  const { config, onEvent, onJobCreated, signal, idempotencyKey, pollInterval, timeout } = options;
  const name = options.name ?? `${model.name}-sft-data-${randomHex12()}`;
  let count = 0;
  const encoder = new TextEncoder();
  async function* lines() {
    for await (const { line } of rowsOf(rows)) {
      count++;
      yield encoder.encode(line);
    }
    if (count === 0) refuse("rows", "there are no rows: nothing to train on");
  }
  const request: RequestOptions = signal ? { signal } : {};
  const dataset = await uploadArtifact(
    http,
    {
      entity: model.entity,
      project: model.project,
      name,
      type: "dataset",
      // ART logs the dataset from the model's run, `wandb.init(id=model.run_id, ...)`; without a
      // run_id that makes a new run, never one named after the model: logged by no run here.
      runId: model.run_id ?? undefined,
      files: [{ name: "train.jsonl", data: lines() }],
    },
    request,
    () => ({ format: "jsonl", num_trajectories: count }),
  );
  const { id: jobId } = await jobs.create(
    { model_id: model.id, training_data_url: dataset.ref, ...(config !== undefined ? { config } : {}) },
    idempotencyKey !== undefined ? { ...request, idempotencyKey } : request,
  );
  await onJobCreated?.(jobId);
  const metrics = await meanGradientMetrics(jobs.follow(jobId, { pollInterval, timeout, signal }), onEvent);
  return { jobId, step: await model.latestStep(request), metrics, trainingDataUrl: dataset.ref };
}
