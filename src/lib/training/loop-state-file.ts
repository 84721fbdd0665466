// Where `model.trainLoop` keeps its state in Node: a JSON file, written whole to a temp file and
// renamed over the old one, so a process killed mid-write leaves the old state or the new one,
// never half of one. The browser build takes loop-state-file.browser.ts (memory only).
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { InferloopError } from "../../core/errors/errors.js";
import type { LoopState, LoopStateStore, StateOwner } from "./loop-state-types.js";

/** Whether `state` may name a file here. */
export const stateFiles = true;

/** The state kept in the JSON file at `path` (made with its folders on the first save). */
export function stateFileStore(path: string): LoopStateStore {
  const file = resolve(path);
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (err) {
        if ((err as { code?: unknown }).code === "ENOENT") return undefined;
        throw err;
      }
      try {
        return JSON.parse(text) as LoopState;
      } catch {
        throw new InferloopError(
          `The state file ${path} is not JSON. Move it away to start afresh, or pass \`state: false\` to keep no state.`,
        );
      }
    },
    async save(state) {
      await mkdir(dirname(file), { recursive: true });
      const temp = `${file}.tmp`;
      await writeFile(temp, JSON.stringify(state));
      await rename(temp, file);
    },
  };
}

// A name as one path segment: W&B's names are letters, digits, `-`, `_` and `.`, kept as they
// are; anything else is escaped, and a leading dot too (no `..`).
const segment = (name: string) => encodeURIComponent(name).replace(/^\./, "%2E");

/**
 * The default: `.inferloop/<entity>/<project>/<name>/train-loop.json` in the working directory
 * (`train-sft.json` beside it for `trainSFT`).
 */
export function defaultStateStore(
  owner: StateOwner,
  file = "train-loop.json",
): { store: LoopStateStore; where: string } {
  const where = join(".inferloop", segment(owner.entity), segment(owner.project), segment(owner.name), file);
  return { store: stateFileStore(where), where };
}
