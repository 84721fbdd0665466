// What `model.trainSFT` does with the SFT job kept in its state (loop-state.ts): a call with the
// same rows and config takes the saved job up (follows it, or resends its create with the same
// key); any other call is refused before anything is sent, since W&B Training lists no jobs and
// cancels none, and a second job would train the model at the same time.

import { InferloopError } from "../../core/errors/errors.js";
import type { SFTTrainingConfig } from "../../wire/sft-training-jobs/request-schema.js";
import type { LoopStateKeeper, SFTJobState } from "./loop-state.js";

/** JSON text with every object's keys sorted: the same settings in any order compare equal. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * @internal The saved job this call takes up: the saved one when it trains the same dataset
 * (name and digest) with the same config, none when nothing is saved. Throws when another job
 * is in flight, naming it and how to go on.
 */
export function sftJobToResume(
  saved: SFTJobState | undefined,
  dataset: SFTJobState["dataset"],
  config: SFTTrainingConfig | null | undefined,
  where: string,
): SFTJobState | undefined {
  if (saved === undefined) return undefined;
  const sameRows = saved.dataset.name === dataset.name && saved.dataset.digest === dataset.digest;
  if (sameRows && sortedJson(saved.config ?? null) === sortedJson(config ?? null)) return saved;
  const on = sameRows
    ? `the same rows with another config (${sortedJson(saved.config ?? null)})`
    : `other rows (dataset ${saved.dataset.name}, digest ${saved.dataset.digest})`;
  const job =
    saved.jobId === undefined
      ? `the create of an SFT job on ${on}, being sent with Idempotency-Key ${saved.idempotencyKey}`
      : `SFT job ${saved.jobId}, training on ${on}`;
  const follow = saved.jobId === undefined ? "" : ` (or client.sftTrainingJobs.follow("${saved.jobId}"))`;
  throw new InferloopError(
    `trainSFT: ${where} holds ${job}; the training API cancels no job. Call trainSFT again with those rows ` +
      `and config to take it up to its end${follow}, then train on these; or pass state: false to start a ` +
      "second job now, beside it. Nothing was sent.",
  );
}

/** @internal What an abort leaves behind, for its message: the job, and how to take it up. */
export function sftLeftBehind(keeper: LoopStateKeeper, job: SFTJobState): string {
  const id = job.jobId;
  const what =
    id === undefined
      ? "The SFT job's create was being sent"
      : `SFT job ${id} goes on on the server (the training API cancels no job)`;
  if (!keeper.kept)
    return (
      `${what}. No state is kept (state: false): ` +
      (id === undefined ? "check model.latestStep()" : `follow it with client.sftTrainingJobs.follow("${id}")`) +
      " before training again."
    );
  return (
    `${what}; ${keeper.where} holds it: call trainSFT again with the same rows to ` +
    (id === undefined
      ? "send the same create with the same Idempotency-Key (a server that honours it makes no second job)."
      : "follow it to its end.")
  );
}
