/**
 * Appends rows of metrics to the history of one W&B run, as W&B's Go core does for `run.log`
 * (`wandb/wandb` `core/internal/filestream/`, `core/internal/runbranch/`,
 * `core/internal/runupserter/`): on the first row it reads the run's resume status and upserts
 * the run (with the metric definitions in its config), then posts history lines to the run's
 * file_stream, each at its line offset, with a growing `_step`, and the whole summary on its one
 * line. Rows are batched (one request at a time, at most one per `transmitIntervalMs` unless the
 * run finishes), a quiet run gets a heartbeat, and `finish` sends what is left with `complete`
 * and the exit code.
 *
 * A row keeps its offset from the moment it is written: a request that failed is sent again as
 * it was, so a line the server did take is rewritten in place, never added twice. A failure the
 * server may get over (a connection, 408, 429, 5xx) keeps the rows and tries again later; any
 * other (a refused key, a missing project) ends the writing. Either way `onFailure` is told, and
 * nothing is ever thrown to the caller.
 */

import { APIError, InferloopError, RequestValidationError } from "../../core/errors/errors.js";
import { callEndpoint } from "../../core/pipeline/endpoint.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { runGraphQL } from "../../wire/graphql.js";
import {
  fileStream,
  runResumeStatus,
  type UpsertBucketVariables,
  upsertBucket,
} from "../../wire/wandb-runs/endpoints.js";
import {
  finiteValues,
  HISTORY_FILE,
  lineBytes,
  MAX_LINE_BYTES,
  MAX_REQUEST_BYTES,
  type ResumePoint,
  resumePoint,
  SUMMARY_FILE,
  withStepMetric,
} from "../../wire/wandb-runs/history.js";
import type { FileStreamBody } from "../../wire/wandb-runs/types.js";

/** Which run: its entity, project and id (the last segment of its URL). */
export interface RunAddress {
  entity: string;
  project: string;
  runId: string;
}

/** How a writer paces itself and where its failures go. */
export interface RunWriterOptions {
  /** The least time between two requests, as Go's `defaultTransmitInterval` (15 s). */
  transmitIntervalMs?: number;
  /** A request (`{}`) after this long without one, as Go's `defaultHeartbeatInterval` (30 s). */
  heartbeatMs?: number;
  /** How long `finish` keeps trying to send what is left (default 30 s). */
  finishTimeoutMs?: number;
  /** The step metric every logged key is plotted against (default none: W&B's `_step`). */
  stepMetric?: string;
  /**
   * Told when writing fails: `final` when the writer gave up (its rows will not be sent);
   * otherwise its rows are kept and sent again later. Called at most once per kind.
   */
  onFailure?: (failure: { error: unknown; final: boolean; unsent: number }) => void;
}

interface Line {
  offset: number;
  text: string;
}

// Go's retry of file_stream and GraphQL requests waits from 2 s, doubling up to 60 s.
const MIN_BACKOFF_MS = 2_000;
const MAX_BACKOFF_MS = 60_000;
// Go's per-attempt timeouts: 180 s for file_stream, 30 s for GraphQL.
const FILE_STREAM_TIMEOUT_MS = 180_000;
const GRAPHQL_TIMEOUT_MS = 30_000;

/** Whether the server may get over this failure: no answer, or 408, 429 or a 5xx (not 501). */
export function mayPass(error: unknown): boolean {
  if (error instanceof APIError) {
    const s = error.status;
    return s === 408 || s === 429 || (s >= 500 && s !== 501);
  }
  // No status: the connection failed or timed out (APIConnectionError), or the answer was unreadable.
  return error instanceof InferloopError && !(error instanceof RequestValidationError);
}

const unref = (timer: ReturnType<typeof setTimeout>) => {
  // A pending heartbeat never keeps a Node process alive on its own.
  (timer as { unref?: () => void }).unref?.();
  return timer;
};

/**
 * A writer of one run's history. `log` queues a row and returns at once; `finish` sends what is
 * left and marks the run finished.
 *
 * @example
 * ```ts
 * declare const http: ConstructorParameters<typeof RunWriter>[0]; // the client's pipeline
 * const writer = new RunWriter(http, { entity: "acme", project: "rl", runId: "abc123" });
 * writer.log({ training_step: 1, "train/reward": 0.5 });
 * await writer.finish(0);
 * ```
 */
export class RunWriter {
  readonly #http: HttpClient;
  readonly #run: RunAddress;
  readonly #o: Required<Omit<RunWriterOptions, "onFailure" | "stepMetric">> & RunWriterOptions;
  /** Aborts every request once `finish` has run out of time. */
  readonly #stop = new AbortController();
  /** Rows logged before the run was opened, with when they were logged. */
  #queued: { row: Record<string, number>; at: number }[] = [];
  /** Lines written, not yet taken by the server: consecutive offsets. */
  #lines: Line[] = [];
  #point: ResumePoint | undefined;
  #storageId: string | undefined;
  #config: Record<string, unknown> | undefined;
  #configDirty = false;
  /** Keys seen in the rows so far (each defined once against the step metric). */
  readonly #seen = new Set<string>();
  #startedAt: number | undefined;
  #opened: Promise<void> | undefined;
  #sending: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #heartbeat: ReturnType<typeof setTimeout> | undefined;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #failures = 0;
  #dead = false;
  #finishing = false;
  #told = { passing: false, final: false };

  constructor(http: HttpClient, run: RunAddress, options: RunWriterOptions = {}) {
    this.#http = http;
    this.#run = { ...run };
    this.#o = { transmitIntervalMs: 15_000, heartbeatMs: 30_000, finishTimeoutMs: 30_000, ...options };
  }

  /** The rows logged and not yet taken by W&B. */
  get unsent(): number {
    return this.#queued.length + this.#lines.length;
  }

  /** Queues a row (numbers only; NaN and infinities are left out). Never throws. */
  log(row: Readonly<Record<string, number>>): void {
    if (this.#dead || this.#finishing) return;
    this.#startedAt ??= Date.now();
    this.#queued.push({ row: finiteValues(row), at: Date.now() });
    this.#schedule();
  }

  /**
   * Sends what is left with `complete` and `exitCode` (0: finished, else failed), trying for up
   * to `finishTimeoutMs`. A writer that never logged a row sends nothing.
   */
  async finish(exitCode: number): Promise<void> {
    if (this.#finishing) return;
    this.#finishing = true;
    this.#clearTimers();
    if (this.#startedAt === undefined || this.#dead) return;
    const deadline = setTimeout(
      () => this.#stop.abort(new InferloopError("finishing the W&B run took too long")),
      this.#o.finishTimeoutMs,
    );
    try {
      await this.#sending?.catch(() => {});
      for (let attempt = 0; !this.#dead && !this.#stop.signal.aborted; attempt++) {
        try {
          await this.#round({ exitCode });
          return;
        } catch (error) {
          if (!this.#failed(error)) return;
          await this.#wait(this.#backoff(attempt));
        }
      }
    } finally {
      clearTimeout(deadline);
      if (this.unsent > 0 && !this.#told.final)
        this.#tell(this.#stop.signal.reason ?? new InferloopError("the run could not be finished"), true);
    }
  }

  #requestOptions(timeout: number): RequestOptions {
    return { signal: this.#stop.signal, timeout };
  }

  /** Opens the run once; a failed opening is tried again by the next round. */
  #ensureOpen(): Promise<void> {
    this.#opened ??= this.#open().catch((error: unknown) => {
      this.#opened = undefined;
      throw error;
    });
    return this.#opened;
  }

  /** Reads where the run stands and upserts it; the lines wait until then. */
  async #open(): Promise<void> {
    const { entity, project, runId } = this.#run;
    const gql = this.#requestOptions(GRAPHQL_TIMEOUT_MS);
    const state = await runGraphQL(this.#http, runResumeStatus, { project, entity, name: runId }, gql);
    this.#storageId = state?.id;
    this.#config = state === null ? {} : state.config;
    const upserted = await this.#upsert();
    // The run's own answer names where file_stream finds it.
    this.#run.entity = upserted.entity;
    this.#run.project = upserted.project;
    this.#run.runId = upserted.name;
    this.#point = resumePoint(state, upserted.historyLineCount);
  }

  /** Upserts the run; with `config`, the whole config (W&B replaces it). */
  #upsert(config?: Record<string, unknown>) {
    const { entity, project, runId } = this.#run;
    const vars: UpsertBucketVariables = { name: runId, project, entity };
    if (this.#storageId !== undefined) vars.id = this.#storageId;
    if (config !== undefined) vars.config = JSON.stringify(config);
    return runGraphQL(this.#http, upsertBucket, vars, this.#requestOptions(GRAPHQL_TIMEOUT_MS));
  }

  /** Turns queued rows into lines at the next offsets, with `_step`, `_runtime`, `_timestamp`. */
  #write(point: ResumePoint): void {
    const newKeys: string[] = [];
    for (const { row, at } of this.#queued) {
      const line = {
        ...row,
        _step: point.step,
        _runtime: point.runtime + (at - (this.#startedAt ?? at)) / 1000,
        _timestamp: at / 1000,
      };
      const text = JSON.stringify(line);
      // Dropped, as Go drops a line the backend would refuse.
      if (lineBytes(text) > MAX_LINE_BYTES) continue;
      for (const key of Object.keys(row))
        if (!this.#seen.has(key)) {
          this.#seen.add(key);
          newKeys.push(key);
        }
      Object.assign(point.summary, line);
      this.#lines.push({ offset: point.offset++, text });
      point.step++;
    }
    this.#queued = [];
    if (this.#o.stepMetric !== undefined && this.#config !== undefined && newKeys.length > 0) {
      const defined = withStepMetric(this.#config, newKeys, this.#o.stepMetric);
      if (defined !== undefined) {
        this.#config = defined;
        this.#configDirty = true;
      }
    }
  }

  /**
   * One request: the lines that fit (and the summary), or `{}` for a heartbeat; with `complete`
   * when finishing and everything fits. Sent lines leave the queue only once taken.
   */
  async #round(end?: { exitCode: number }): Promise<void> {
    await this.#ensureOpen();
    const point = this.#point!;
    this.#write(point);
    if (this.#configDirty && this.#config !== undefined) {
      await this.#upsert(this.#config);
      this.#configDirty = false;
    }
    for (;;) {
      const batch: Line[] = [];
      let bytes = lineBytes(JSON.stringify(point.summary));
      for (const line of this.#lines) {
        bytes += lineBytes(line.text);
        if (batch.length > 0 && bytes > MAX_REQUEST_BYTES) break;
        batch.push(line);
      }
      const body: FileStreamBody = {};
      if (batch.length > 0)
        body.files = {
          [HISTORY_FILE]: { offset: batch[0]!.offset, content: batch.map((l) => l.text) },
          [SUMMARY_FILE]: { offset: 0, content: [JSON.stringify(point.summary)] },
        };
      const last = batch.length === this.#lines.length;
      if (end !== undefined && last) {
        body.complete = true;
        body.exitcode = end.exitCode;
      }
      const { entity, project, runId } = this.#run;
      await callEndpoint(
        this.#http,
        fileStream,
        { pathArguments: { entity, project, runId }, params: body },
        this.#requestOptions(FILE_STREAM_TIMEOUT_MS),
      );
      this.#lastSentAt = Date.now();
      this.#failures = 0;
      this.#lines = this.#lines.slice(batch.length);
      if (last) return;
    }
  }

  /** Sends now, or when the transmit interval allows; one request at a time. */
  #schedule(delayMs?: number): void {
    if (this.#dead || this.#finishing || this.#sending !== undefined || this.#timer !== undefined) return;
    const wait = delayMs ?? Math.max(0, this.#lastSentAt + this.#o.transmitIntervalMs - Date.now());
    if (wait > 0) {
      this.#timer = unref(
        setTimeout(() => {
          this.#timer = undefined;
          this.#schedule(0);
        }, wait),
      );
      return;
    }
    this.#send();
  }

  #send(): void {
    if (this.#heartbeat !== undefined) clearTimeout(this.#heartbeat);
    this.#heartbeat = undefined;
    const sending = this.#round().then(
      () => undefined,
      (error: unknown) => error,
    );
    this.#sending = sending.then((error) => {
      this.#sending = undefined;
      if (error !== undefined) {
        if (this.#failed(error) && !this.#finishing) this.#schedule(this.#backoff(this.#failures - 1));
        return;
      }
      if (this.#finishing) return;
      if (this.unsent > 0) this.#schedule();
      else this.#beat();
    });
  }

  /** A heartbeat after `heartbeatMs` without a request: W&B marks a silent run crashed. */
  #beat(): void {
    this.#heartbeat = unref(
      setTimeout(() => {
        this.#heartbeat = undefined;
        if (this.#sending === undefined && this.#timer === undefined) this.#send();
      }, this.#o.heartbeatMs),
    );
  }

  /** Records a failure; true when it may pass (the rows are kept for another try). */
  #failed(error: unknown): boolean {
    if (this.#stop.signal.aborted) return false;
    if (!mayPass(error)) {
      this.#dead = true;
      this.#clearTimers();
      this.#tell(error, true);
      return false;
    }
    this.#failures++;
    this.#tell(error, false);
    return true;
  }

  #tell(error: unknown, final: boolean): void {
    const kind = final ? "final" : "passing";
    if (this.#told[kind]) return;
    this.#told[kind] = true;
    try {
      this.#o.onFailure?.({ error, final, unsent: this.unsent });
    } catch {
      // The caller's reporting must not break the writer.
    }
  }

  #backoff(attempt: number): number {
    return Math.min(MIN_BACKOFF_MS * 2 ** Math.max(0, attempt), MAX_BACKOFF_MS) * (1 + Math.random() * 0.25);
  }

  #wait(ms: number): Promise<void> {
    const signal = this.#stop.signal;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  #clearTimers(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#heartbeat !== undefined) clearTimeout(this.#heartbeat);
    this.#timer = undefined;
    this.#heartbeat = undefined;
  }
}
