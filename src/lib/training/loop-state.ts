// What `model.trainLoop` keeps so that a process killed at any point, started again, follows the
// job it left instead of creating a second one for the same step: W&B Training lists no jobs
// and cancels none, so a job's id exists only where the client kept it.

import { InferloopError } from "../../core/errors/errors.js";
import { type Finding, warnFindings } from "../../core/errors/findings.js";
import type { Log } from "../../core/errors/log.js";
import { defaultStateStore, stateFileStore, stateFiles } from "./loop-state-file.js";
import type { LoopJobState, LoopState, LoopStateStore, SFTJobState, StateOwner } from "./loop-state-types.js";

export type { LoopJobState, LoopState, LoopStateStore, SFTJobState, StateOwner } from "./loop-state-types.js";

const isStore = (s: unknown): s is LoopStateStore =>
  typeof s === "object" &&
  s !== null &&
  typeof (s as LoopStateStore).load === "function" &&
  typeof (s as LoopStateStore).save === "function";

/** @internal Whether `state` is a value the option takes (the message says what it takes). */
export function stateOptionIssue(state: unknown): string | undefined {
  if (state === undefined || state === false || isStore(state)) return undefined;
  if (typeof state === "string" && state !== "")
    return stateFiles
      ? undefined
      : "names a file, and this runtime has none: pass a store { load, save }, or leave it out";
  return "must be a file path, false (keep no state) or a store { load, save }";
}

/** @internal The store the `state` option names, and where it is (for messages). */
export function resolveStateStore(
  state: string | false | LoopStateStore | undefined,
  owner: StateOwner,
  file?: string,
): { store: LoopStateStore | undefined; where: string } {
  if (state === false) return { store: undefined, where: "" };
  if (typeof state === "string") return { store: stateFileStore(state), where: state };
  if (state !== undefined) return { store: state, where: "your state store" };
  return defaultStateStore(owner, file);
}

const isCount = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

function checkLoaded(state: unknown, where: string, label: string): LoopState | undefined {
  if (state == null) return undefined;
  const s = state as Partial<LoopState>;
  const job = s.job ?? undefined;
  const sft = s.sft ?? undefined;
  if (
    s.version !== 1 ||
    typeof s.modelId !== "string" ||
    !isCount(s.trained) ||
    (job !== undefined && !(isCount(job.step) && typeof job.idempotencyKey === "string")) ||
    (sft !== undefined &&
      !(
        typeof sft.idempotencyKey === "string" &&
        typeof sft.trainingDataUrl === "string" &&
        typeof sft.dataset?.digest === "string" &&
        typeof sft.dataset.name === "string"
      ))
  )
    throw new InferloopError(`${label}: ${where} holds no loop state (version 1): move it away, or pass state: false`);
  return { ...s, job, sft } as LoopState;
}

/** What a state of another model had in flight, for the warning; undefined when nothing. */
function inFlight(state: LoopState): string | undefined {
  if (state.job !== undefined) return `its job of step ${state.job.step}`;
  if (state.sft !== undefined) return `its SFT job${state.sft.jobId === undefined ? "" : ` ${state.sft.jobId}`}`;
  return undefined;
}

/**
 * @internal The loop's state for one run: loaded once, then saved in order. A save waits for
 * the one before; saves asked for meanwhile are made as one, with the newest state.
 */
export class LoopStateKeeper {
  readonly #store: LoopStateStore | undefined;
  readonly #owner: StateOwner;
  /** Where the state is kept, for messages: a path, "your state store", or "" (none kept). */
  readonly where: string;
  #state: LoopState;
  #chain: Promise<void> = Promise.resolve();
  #queued: Promise<void> | undefined;

  readonly #label: string;

  /** `file` and `label` name the default file and the caller for messages (trainLoop's by default). */
  constructor(
    state: string | false | LoopStateStore | undefined,
    owner: StateOwner,
    { file, label = "trainLoop" }: { file?: string; label?: string } = {},
  ) {
    const { store, where } = resolveStateStore(state, owner, file);
    this.#store = store;
    this.#owner = owner;
    this.#label = label;
    this.where = where;
    this.#state = { version: 1, modelId: owner.id, trained: 0 };
  }

  /** The state as last set. */
  get state(): LoopState {
    return this.#state;
  }

  /** Whether anything is kept beyond this run. */
  get kept(): boolean {
    return this.#store !== undefined;
  }

  /**
   * Loads the saved state. State of another model id is not followed: said once through the
   * findings rule when it had a job in flight (what would otherwise have been followed).
   */
  async load(log: Log): Promise<LoopState> {
    const loaded = checkLoaded(await this.#store?.load(), this.where, this.#label);
    if (loaded !== undefined && loaded.modelId !== this.#owner.id) {
      const job = inFlight(loaded);
      if (job !== undefined) {
        const finding: Finding = {
          code: "loop_state_of_other_model",
          message:
            `the state in ${this.where} belongs to model ${loaded.modelId}, not ${this.#owner.id} ` +
            `(${this.#owner.entity}/${this.#owner.project}/${this.#owner.name} deleted and made again?): ${job} ` +
            "is not followed, and this model's state replaces it",
        };
        warnFindings(log, this.#label, [finding]);
      }
    } else if (loaded !== undefined) this.#state = loaded;
    return this.#state;
  }

  /** Sets the state; resolves once it (or a newer one) is saved. */
  set(state: LoopState): Promise<void> {
    this.#state = state;
    const store = this.#store;
    if (store === undefined) return Promise.resolve();
    if (this.#queued !== undefined) return this.#queued;
    const run = this.#chain.then(() => {
      this.#queued = undefined;
      return store.save(this.#state);
    });
    this.#queued = run;
    // The next save waits for this one, failed or not; its caller sees the failure.
    this.#chain = run.catch(() => {});
    return run;
  }
}

/**
 * @internal What an abort leaves behind, for its message: the job that goes on on the server,
 * and how a new loop takes it up.
 */
export function leftBehind(keeper: LoopStateKeeper): string {
  const job = keeper.state.job;
  if (job === undefined) return "No job was in flight.";
  const id = job.jobId;
  const what =
    id === undefined
      ? `The create of step ${job.step}'s job was being sent`
      : `Job ${id} (step ${job.step}) goes on on the server (the training API cancels no job)`;
  if (!keeper.kept)
    return (
      `${what}. No state is kept (state: false): ` +
      (id === undefined ? "check model.latestStep()" : `wait for it to end (client.trainingJobs.follow("${id}"))`) +
      " before a new loop, which would train that step again."
    );
  return (
    `${what}; ${keeper.where} holds it: run the loop again to ` +
    (id === undefined
      ? "send the same create with the same Idempotency-Key (a server that honours it makes no second job)."
      : "follow it to its end and continue from there.")
  );
}
