import { APIConnectionError, APIError, APIUserAbortError, InferloopError } from "../../core/errors/errors.js";
import type { Log } from "../../core/errors/log.js";
import type { CursorList } from "../../core/lists/cursor-list.js";
import { linkedAbort, signalAbortError } from "../../core/pipeline/abort.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { sleep } from "../../core/pipeline/retry.js";
import { TrainingJobFailedError } from "../../wire/training-jobs/errors.js";
import type { TrainingJobEvent } from "../../wire/training-jobs/types.js";

/**
 * Options of `client.trainingJobs.follow`.
 */
export interface TrainingJobFollowOptions {
  /** Start after this event id (a cursor saved from an earlier run): re-attaches to a job. */
  after?: string | undefined;
  /**
   * The longest wait between polls of the events, in ms (default 1000): the wait is a quarter of
   * the time spent following so far, at least 25 ms and at most this (see {@link pollWait});
   * once per job, a poll comes sooner when the pace of its gradient steps says it ends before
   * the next one would.
   */
  pollInterval?: number | undefined;
  /** Give up after this many ms (default: never); the job itself keeps running. */
  timeout?: number | undefined;
  /** Stops polling at once; the iteration rejects with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
}

/** What following needs of `trainingJobs.events`: its cursor list. */
export interface JobEventLists {
  list(
    jobId: string,
    params: { after?: string; limit?: number },
    options?: RequestOptions,
  ): CursorList<TrainingJobEvent>;
}

const DEFAULT_POLL_INTERVAL = 1_000;
const FIRST_WAIT = 25;

/**
 * @internal The wait before the next poll of a job's events, `elapsed` ms after following
 * began: a quarter of `elapsed`, at least 25 ms, at most `pollInterval`. A young job (a short
 * one: the fake's last a few dozen ms) is seen ending within a quarter of its age; once
 * `elapsed` reaches 4 x `pollInterval` (4 s by default) every wait is `pollInterval`, so a
 * long job on a real server is polled no more often than at a fixed `pollInterval`, and its
 * first seconds take about 17 more polls than they would (and its end one, {@link paceEnd}).
 */
export function pollWait(elapsed: number, pollInterval: number): number {
  return Math.min(pollInterval, Math.max(FIRST_WAIT, elapsed / 4));
}

/**
 * @internal In how many ms the job should end, by the pace of its gradient steps so far:
 * `steps` of `total` (`training_started`'s `num_sequences`) seen `elapsed` ms after following
 * began, and `training_ended` one step after the last. Undefined before two steps are seen.
 * Following polls then once (once per job), when that comes before its next poll would.
 */
export function paceEnd(elapsed: number, steps: number, total: number | undefined): number | undefined {
  if (total === undefined || steps < 2) return undefined;
  return Math.max(0, (total + 1) * (elapsed / steps) - elapsed);
}

/** Failures worth another poll from the same cursor: the events are still on the server. */
function isTransient(err: unknown): boolean {
  if (err instanceof APIConnectionError) return true;
  return (
    err instanceof APIError && (err.status === 408 || err.status === 409 || err.status === 429 || err.status >= 500)
  );
}

function checkOptions(options: TrainingJobFollowOptions): void {
  for (const key of ["pollInterval", "timeout"] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0))
      throw new InferloopError(`trainingJobs.follow: \`${key}\` must be a number of ms >= 0, got ${String(v)}.`);
  }
}

/**
 * Polls a job's events from a cursor and yields each one once, in order, until
 * `training_ended` (yielded last) or `training_failed` (rejects with TrainingJobFailedError).
 * The cursor moves only past events already handed over, so a poll that fails (5xx, 429, a
 * reset, after the request's own retries) is simply made again from where it stood.
 */
export async function* followEvents(
  events: JobEventLists,
  jobId: string,
  options: TrainingJobFollowOptions,
  log: Log,
): AsyncGenerator<TrainingJobEvent> {
  checkOptions(options);
  const pollInterval = options.pollInterval ?? DEFAULT_POLL_INTERVAL;
  const seen = new Set<string>();
  let cursor = options.after;
  const began = performance.now();
  let total: number | undefined;
  let steps = 0;
  let early = false;
  // One signal for the caller's abort and the deadline, so either one also ends a poll in flight.
  if (options.signal?.aborted) throw signalAbortError(options.signal);
  const { controller: stop, unlink } = linkedAbort(options.signal);
  let timedOut = false;
  const timer =
    options.timeout === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          stop.abort();
        }, options.timeout);
  const timeoutError = () =>
    new InferloopError(
      `Stopped following training job ${jobId} after ${options.timeout} ms; the job may still be running. ` +
        `Re-attach with client.trainingJobs.follow(${JSON.stringify(jobId)}${cursor === undefined ? "" : `, { after: ${JSON.stringify(cursor)} }`}).`,
    );
  try {
    for (let first = true; ; first = false) {
      if (!first) {
        try {
          const elapsed = performance.now() - began;
          let wait = pollWait(elapsed, pollInterval);
          const end = early ? undefined : paceEnd(elapsed, steps, total);
          if (end !== undefined && end < wait) {
            wait = end;
            early = true;
          }
          await sleep(wait, stop.signal);
        } catch (err) {
          throw timedOut ? timeoutError() : err;
        }
      }
      try {
        for await (const page of events
          // The largest page the API allows: a poll of a busy job is one request, not five.
          .list(jobId, { limit: 100, ...(cursor === undefined ? {} : { after: cursor }) }, { signal: stop.signal })
          .pages()) {
          for (const event of page) {
            if (seen.has(event.id)) continue;
            seen.add(event.id);
            if (event.type === "training_failed") throw new TrainingJobFailedError(jobId, event);
            if (event.type === "training_started" && typeof event.data?.num_sequences === "number")
              total = event.data.num_sequences;
            if (event.type === "gradient_step") steps++;
            yield event;
            cursor = event.id;
            if (event.type === "training_ended") return;
          }
        }
      } catch (err) {
        if (timedOut) throw timeoutError();
        if (stop.signal.aborted || err instanceof APIUserAbortError)
          throw err instanceof APIUserAbortError ? err : signalAbortError(stop.signal, err);
        if (!isTransient(err)) throw err;
        log.write("warn", `training job ${jobId}: polling events failed (${(err as Error).message}); polling again`);
      }
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    unlink();
  }
}
