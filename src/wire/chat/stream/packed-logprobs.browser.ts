// Browser and edge build of `packed-logprobs.ts`: nothing there keeps a training step's batch
// of rollouts, so a list of logprobs stays as it came, in streams and in trajectories alike,
// and a chat-only bundle carries none of the packing code.
import type * as packed from "./packed-logprobs.js";

/** Keeps the entries as received. */
export class LogprobListBuilder implements Pick<packed.LogprobListBuilder, "append" | "list"> {
  #entries: unknown[] = [];

  append(list: readonly unknown[]): void {
    for (let i = 0; i < list.length; i++) this.#entries.push(list[i]);
  }

  list(): unknown[] {
    return this.#entries.slice();
  }
}

export const finishedLogprobs = (content: unknown[]): { content: unknown[] } => ({ content });

export const keptLogprobContent: typeof packed.keptLogprobContent = () => undefined;
