import type { TrajectoryChoice, TrajectoryGroup, TrajectoryParams } from "./request-schema.js";
import type { Trajectory } from "./trajectory.js";
import { isTrajectoryChoice, type TrajectoryItem } from "./trajectory-item.js";

/**
 * What a {@link TrainingWarning} is about:
 * - `uniform_rewards`: every trajectory of the group has the same reward, so every advantage is
 *   0 and the group teaches nothing;
 * - `missing_reward`: the trajectory has no reward (the server would train on its default, 0);
 * - `token_count_mismatch`: a choice's `token_ids` and `logprobs.content` differ in length, so
 *   the trainer cannot pair each token with its logprob;
 * - `missing_logprobs`: a choice was recorded without logprobs while others have them.
 *
 * @example
 * ```ts
 * const code: TrainingWarningCode = "uniform_rewards";
 * ```
 */
export type TrainingWarningCode = "uniform_rewards" | "missing_reward" | "token_count_mismatch" | "missing_logprobs";

/**
 * One problem that would waste training without making the request invalid. `path` is dotted,
 * from the request body (`trajectory_groups.0.trajectories.3`).
 *
 * @example
 * ```ts
 * const w: TrainingWarning = { code: "missing_reward", path: "trajectory_groups.0.trajectories.2", message: "trajectory has no reward" };
 * ```
 */
export interface TrainingWarning {
  code: TrainingWarningCode;
  path: string;
  message: string;
}

/**
 * A trajectory group as the checks read it: wire trajectories or {@link Trajectory} objects.
 *
 * @example
 * ```ts
 * const group: CheckedTrajectoryGroup = { trajectories: [new Trajectory({ reward: 1 })] };
 * ```
 */
export interface CheckedTrajectoryGroup {
  trajectories: ReadonlyArray<TrajectoryParams | Trajectory>;
}

interface ChoiceAt {
  choice: TrajectoryChoice;
  path: string;
}

function choicesOf(items: readonly TrajectoryItem[], path: string, out: ChoiceAt[]): void {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (isTrajectoryChoice(item)) out.push({ choice: item, path: `${path}.messages_and_choices.${i}` });
  }
}

function hasLogprobs(choice: TrajectoryChoice): boolean {
  return Array.isArray(choice.logprobs?.content);
}

/**
 * Finds what would waste a training job before it is sent: groups whose rewards are all
 * equal, trajectories without a reward, choices whose `token_ids` and `logprobs.content`
 * lengths disagree, and choices without logprobs next to others with them. Reports, never
 * throws; `client.trainingJobs.create` runs it and logs each finding at `warn`. Cost: one pass
 * over the groups and their messages, not over the tokens.
 *
 * @example
 * ```ts
 * for (const w of checkTrajectoryGroups(groups)) console.warn(`${w.path}: ${w.message}`);
 * ```
 */
export function checkTrajectoryGroups(
  groups: readonly (CheckedTrajectoryGroup | TrajectoryGroup)[],
): TrainingWarning[] {
  const warnings: TrainingWarning[] = [];
  const choices: ChoiceAt[] = [];
  groups.forEach((group, g) => {
    const groupPath = `trajectory_groups.${g}`;
    const rewards: number[] = [];
    group.trajectories.forEach((t, i) => {
      const path = `${groupPath}.trajectories.${i}`;
      if (t.reward === undefined || t.reward === null) {
        warnings.push({
          code: "missing_reward",
          path,
          message: "trajectory has no reward: the server would train on its default of 0; set `reward` after scoring",
        });
      }
      rewards.push(t.reward ?? 0);
      choicesOf(t.messages_and_choices, path, choices);
      (t.additional_histories ?? []).forEach((h, k) =>
        choicesOf(h.messages_and_choices, `${path}.additional_histories.${k}`, choices),
      );
    });
    if (rewards.length > 0 && rewards.every((r) => r === rewards[0])) {
      const what =
        rewards.length === 1
          ? "the group has a single trajectory"
          : `all ${rewards.length} trajectories of the group have reward ${rewards[0]}`;
      warnings.push({
        code: "uniform_rewards",
        path: groupPath,
        message: `${what}: no learning signal (every advantage is 0); sample more varied rollouts or refine the reward`,
      });
    }
  });

  const withLogprobs = choices.filter((c) => hasLogprobs(c.choice)).length;
  for (const { choice, path } of choices) {
    const content = choice.logprobs?.content;
    const ids: unknown = choice["token_ids"];
    if (Array.isArray(content) && Array.isArray(ids) && ids.length !== content.length) {
      warnings.push({
        code: "token_count_mismatch",
        path,
        message: `choice has ${ids.length} token_ids but ${content.length} logprobs: the trainer cannot pair tokens with their logprobs`,
      });
    }
    if (withLogprobs > 0 && !Array.isArray(content)) {
      warnings.push({
        code: "missing_logprobs",
        path,
        message: `choice has no logprobs while ${withLogprobs} other choice(s) have them; sample every rollout with \`logprobs: true\``,
      });
    }
  }
  return warnings;
}
