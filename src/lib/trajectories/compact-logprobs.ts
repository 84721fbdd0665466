/**
 * What a trajectory keeps of a finished choice: its token logprobs packed
 * (`wire/chat/stream/packed-logprobs.ts`), everything else as received.
 *
 * @module
 */
import { keptLogprobContent } from "../../wire/chat/stream/packed-logprobs.js";
import type { ChatCompletionChoice } from "../../wire/chat/types.js";
import type { TrajectoryChoice } from "../../wire/training-jobs/request-schema.js";

/**
 * `logprobs` of a choice about to be kept: the same object when its `content` cannot be
 * packed (or is short), else a copy whose `content` is the packed view.
 */
function compactLogprobs<L>(logprobs: L): L {
  if (typeof logprobs !== "object" || logprobs === null || Object.getPrototypeOf(logprobs) !== Object.prototype)
    return logprobs;
  const source = logprobs as Record<string, unknown>;
  const content = keptLogprobContent(source);
  if (content === undefined) return logprobs;
  // Key by key rather than a spread, which would read (and so unpack) a streamed `content`.
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) copy[key] = key === "content" ? content : source[key];
  return copy as L;
}

/**
 * @internal The copy of a finished choice a trajectory keeps: its token logprobs packed,
 * everything else as received (the caller's completion keeps its own objects).
 */
export function keptChoice(choice: ChatCompletionChoice, finish_reason: string): TrajectoryChoice {
  const kept = { ...choice, finish_reason } as TrajectoryChoice;
  if (kept.logprobs != null) kept.logprobs = compactLogprobs(kept.logprobs);
  return kept;
}
