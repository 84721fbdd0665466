// The browser build's loop-state-file.ts: no file system. The default state lives in memory for
// the page's life, per model, so a loop stopped and started again on the same page follows the
// job it left; a store of the user's own keeps it longer.
import { InferloopError } from "../../core/errors/errors.js";
import type { LoopState, LoopStateStore, StateOwner } from "./loop-state-types.js";

/** Whether `state` may name a file here. */
export const stateFiles = false;

/** Refused: no file system (the option check says so before this is reached). */
export function stateFileStore(path: string): LoopStateStore {
  throw new InferloopError(`state ${path} names a file, and this runtime has no file system.`);
}

const kept = new Map<string, LoopState>();

/** The default here: memory, per model and file name, for the page's life. */
export function defaultStateStore(
  owner: StateOwner,
  file = "train-loop.json",
): { store: LoopStateStore; where: string } {
  const key = `${owner.entity}/${owner.project}/${owner.name}/${file}`;
  return {
    store: {
      load: async () => kept.get(key),
      save: async (state) => {
        kept.set(key, state);
      },
    },
    where: "this page's memory",
  };
}
