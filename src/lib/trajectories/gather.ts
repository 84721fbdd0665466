import { type ListsEveryKey, optionNameIssues } from "../../core/checks/option-checks.js";
import { APIUserAbortError, InferloopError, RequestValidationError } from "../../core/errors/errors.js";
import { linkedAbort } from "../../core/pipeline/abort.js";
import type { Trajectory } from "./trajectory.js";

/**
 * One rollout: a function that runs it (and should stop when `signal` aborts, e.g. by passing
 * it to its chat calls), or a promise of one already running.
 */
export type Rollout = ((signal: AbortSignal) => Trajectory | PromiseLike<Trajectory>) | PromiseLike<Trajectory>;

/**
 * Counts passed to `onProgress` after each rollout ends: `done` rollouts ended (`failed` of
 * them with an error) out of `total`.
 */
export interface GatherProgress {
  done: number;
  failed: number;
  total: number;
}

/**
 * Options of {@link gatherTrajectoryGroups}.
 */
export interface GatherOptions {
  /** Rollouts running at once, across all groups. Default 32. */
  concurrency?: number;
  /** Failed rollouts tolerated; one more rejects the gather. Default 0. */
  maxExceptions?: number;
  /** Called after each rollout ends; if it throws, the gather rejects with that error. */
  onProgress?: (progress: GatherProgress) => void;
  /** Aborts the gather and every rollout in flight. */
  signal?: AbortSignal;
  /**
   * Called with each group as soon as its rollouts have all ended (while other groups still
   * run), e.g. to score it with `rulerScoreGroup`: it returns the group to keep (a new one, or
   * the same), null to drop it, or several groups, which take its place in order. If it throws,
   * the gather rejects with that error.
   */
  afterEach?: (
    group: GatheredTrajectoryGroup,
    index: number,
  ) =>
    | GatheredTrajectoryGroup
    | GatheredTrajectoryGroup[]
    | null
    | PromiseLike<GatheredTrajectoryGroup | GatheredTrajectoryGroup[] | null>;
}

// Every option of gatherTrajectoryGroups (the compiler checks the list is whole).
const GATHER_OPTION_NAMES = [
  "concurrency",
  "maxExceptions",
  "onProgress",
  "signal",
  "afterEach",
] as const satisfies readonly (keyof GatherOptions)[];
const gatherListWhole: ListsEveryKey<GatherOptions, typeof GATHER_OPTION_NAMES> = true;
void gatherListWhole;

/**
 * A failed rollout kept in its group, in the shape of ART's `exceptions` (`traceback` is the
 * JavaScript stack).
 */
export type RolloutException = {
  // A type alias, not an interface: the wire group type (with an index signature) accepts it.
  type: string;
  message: string;
  traceback: string;
};

/**
 * A gathered group: its successful trajectories in input order, and the failures. Pass it as
 * is in `trajectory_groups`.
 */
export type GatheredTrajectoryGroup = {
  trajectories: Trajectory[];
  exceptions: RolloutException[];
};

/**
 * The gather rejected because more rollouts failed than `maxExceptions` allows. `failures`
 * holds every error caught until then; `cause` is the one that broke the budget.
 */
export class RolloutsFailedError extends InferloopError {
  override name = "RolloutsFailedError";
  readonly failures: unknown[];

  constructor(failures: unknown[], maxExceptions: number) {
    const last = failures[failures.length - 1];
    const why = last instanceof Error ? `${last.name}: ${last.message}` : String(last);
    super(`${failures.length} rollout(s) failed, more than maxExceptions (${maxExceptions}) allows; the last: ${why}`, {
      cause: last,
    });
    this.failures = failures;
  }
}

function toException(err: unknown): RolloutException {
  if (err instanceof Error) return { type: err.name, message: err.message, traceback: err.stack ?? "" };
  return { type: typeof err, message: String(err), traceback: "" };
}

function checkCount(name: string, value: number, min: number): void {
  if (!(Number.isInteger(value) || value === Infinity) || value < min)
    throw new RangeError(`${name} must be an integer >= ${min} (or Infinity), got ${value}`);
}

/**
 * Runs rollouts grouped by prompt and resolves to the groups in input order, each with the
 * trajectories that succeeded (in input order) and the failures. At most `concurrency`
 * rollouts run at once across groups. A failure is kept in its group's `exceptions` until more
 * than `maxExceptions` have failed; then the gather rejects with {@link RolloutsFailedError}
 * and aborts every rollout in flight through the `AbortSignal` each one was handed. Aborting
 * `signal` does the same and rejects with `APIUserAbortError`.
 *
 * @example
 * ```ts
 * const rollout = (prompt: string) => (signal: AbortSignal) =>
 *   captureTrajectory(async () => {
 *     const reply = await client.chat.completions.create({ model, messages: [{ role: "user", content: prompt }] }, { signal });
 *     return reply.choices[0]?.message.content ? 1 : 0;
 *   });
 * const prompts = ["2+2?", "3*3?"];
 * const gathered = await gatherTrajectoryGroups(
 *   prompts.map((prompt) => Array.from({ length: 4 }, () => rollout(prompt))),
 *   { concurrency: 8, maxExceptions: 2, onProgress: ({ done, total }) => console.log(`${done}/${total}`) },
 * );
 * await client.trainingJobs.create({ model_id: modelId, trajectory_groups: gathered });
 * ```
 */
export function gatherTrajectoryGroups(
  groups: readonly (readonly Rollout[])[],
  options: GatherOptions = {},
): Promise<GatheredTrajectoryGroup[]> {
  const concurrency = options.concurrency ?? 32;
  const maxExceptions = options.maxExceptions ?? 0;
  try {
    const misnamed = optionNameIssues(options, GATHER_OPTION_NAMES, "known");
    if (misnamed.length > 0) throw new RequestValidationError(misnamed, "gather options");
    checkCount("concurrency", concurrency, 1);
    checkCount("maxExceptions", maxExceptions, 0);
  } catch (err) {
    return Promise.reject(err);
  }
  const jobs = groups.flatMap((group, g) => group.map((rollout, i) => ({ rollout, g, i })));
  // A promise further down the queue may reject before its turn comes: mark it handled now so
  // Node does not report (or crash on) an unhandled rejection; its outcome is read in turn.
  for (const { rollout } of jobs) if (typeof rollout !== "function") rollout.then(undefined, () => {});
  const results = groups.map((group) => new Array<Trajectory | undefined>(group.length));
  const remaining = groups.map((group) => group.length);
  const afterEach = options.afterEach;
  const after: Array<Promise<GatheredTrajectoryGroup[]>> = [];
  const exceptions = groups.map((): RolloutException[] => []);
  const failures: unknown[] = [];
  const total = jobs.length;
  // The caller's abort ends the gather with its own error, which the rollouts' signal carries.
  const { controller: inner, unlink } = linkedAbort(
    options.signal,
    (reason) => new APIUserAbortError("The gather was aborted.", { cause: reason }),
  );
  let done = 0;
  let next = 0;
  let running = 0;

  return new Promise<GatheredTrajectoryGroup[]>((resolve, reject) => {
    let settled = false;
    const finish = (err: unknown): void => {
      if (settled) return;
      settled = true;
      unlink();
      if (err === undefined) {
        if (afterEach === undefined) resolve(results.map((_, g) => gathered(g)));
        else
          Promise.all(after).then(
            (lists) => resolve(lists.flat()),
            (error: unknown) => {
              inner.abort(error);
              reject(error);
            },
          );
      } else {
        inner.abort(err);
        reject(err);
      }
    };
    const gathered = (g: number): GatheredTrajectoryGroup => ({
      trajectories: results[g]!.filter((t): t is Trajectory => t !== undefined),
      exceptions: exceptions[g]!,
    });
    // A group's afterEach starts when its last rollout ends; its failure ends the gather at once.
    const groupEnded = (g: number): void => {
      if (afterEach === undefined) return;
      const next = Promise.resolve()
        .then(() => afterEach(gathered(g), g))
        .then((out) => (out == null ? [] : Array.isArray(out) ? out : [out]));
      next.catch((error: unknown) => finish(error));
      after[g] = next;
    };
    // Aborted by the caller (or by finish itself, which then finds the gather settled).
    if (inner.signal.aborted) return finish(inner.signal.reason);
    inner.signal.addEventListener("abort", () => finish(inner.signal.reason), { once: true });

    const ended = (g: number, i: number, outcome: { ok: true; value: Trajectory } | { ok: false; error: unknown }) => {
      running--;
      if (settled) return;
      done++;
      if (outcome.ok) results[g]![i] = outcome.value;
      else {
        failures.push(outcome.error);
        exceptions[g]!.push(toException(outcome.error));
      }
      try {
        options.onProgress?.({ done, failed: failures.length, total });
      } catch (err) {
        return finish(err);
      }
      if (failures.length > maxExceptions) return finish(new RolloutsFailedError(failures, maxExceptions));
      if (--remaining[g]! === 0) groupEnded(g);
      pump();
    };
    const pump = (): void => {
      while (!settled && running < concurrency && next < total) {
        const { rollout, g, i } = jobs[next++]!;
        running++;
        let pending: PromiseLike<Trajectory> | Trajectory;
        try {
          pending = typeof rollout === "function" ? rollout(inner.signal) : rollout;
        } catch (error) {
          pending = Promise.reject(error);
        }
        Promise.resolve(pending).then(
          (value) => ended(g, i, { ok: true, value }),
          (error: unknown) => ended(g, i, { ok: false, error }),
        );
      }
      if (!settled && running === 0 && next >= total) finish(undefined);
    };
    remaining.forEach((count, g) => {
      if (count === 0) groupEnded(g);
    });
    pump();
  });
}
