import type { TrajectoryChoice, TrajectoryMessage } from "./request-schema.js";

/**
 * One entry of `messages_and_choices`: a message the model saw (context), or a choice it
 * sampled (a trainable turn).
 */
export type TrajectoryItem = TrajectoryMessage | TrajectoryChoice;

/**
 * Whether an entry of `messages_and_choices` is a sampled choice: a choice carries `message`
 * and `finish_reason`, a message carries `role` at the top.
 *
 * @example
 * ```ts
 * const sampled = trajectory.messages_and_choices.filter(isTrajectoryChoice);
 * ```
 */
export function isTrajectoryChoice(item: unknown): item is TrajectoryChoice {
  return typeof item === "object" && item !== null && "message" in item && !("role" in item);
}
