import type { TrajectoryChoice, TrajectoryMessage } from "./request-schema.js";

/**
 * One entry of `messages_and_choices`: a message the model saw (context), or a choice it
 * sampled (a trainable turn).
 *
 * @example
 * ```ts
 * const items: TrajectoryItem[] = [{ role: "user", content: "What is 2+2?" }, completion.choices[0]!];
 * ```
 */
export type TrajectoryItem = TrajectoryMessage | TrajectoryChoice;

/**
 * Whether an entry of `messages_and_choices` is a sampled choice: a choice carries `message`
 * and `finish_reason`, a message carries `role` at the top.
 *
 * @example
 * ```ts
 * const trainable = t.messages_and_choices.filter(isTrajectoryChoice);
 * ```
 */
export function isTrajectoryChoice(item: unknown): item is TrajectoryChoice {
  return typeof item === "object" && item !== null && "message" in item && !("role" in item);
}
