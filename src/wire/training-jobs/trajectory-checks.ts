import type { TrajectoryParams } from "./request-schema.js";
import { isTrajectoryChoice, type TrajectoryItem } from "./trajectory-item.js";

/**
 * What a {@link TrainingWarning} is about:
 * - `uniform_rewards`: every trajectory of the group has the same reward, so every advantage is
 *   0 and the group teaches nothing;
 * - `missing_reward`: the trajectory has no reward (the server would train on its default, 0);
 * - `token_count_mismatch`: a choice's `token_ids` and `logprobs.content` differ in length, so
 *   the trainer cannot pair each token with its logprob;
 * - `missing_logprobs`: a choice was recorded without logprobs while others have them;
 * - `no_trajectories`: the job has no trajectory groups, or a group has no trajectories, so
 *   there is nothing to train on (the server takes such a job all the same);
 * - `ignored_setting`: an `experimental_config` member the server ignores (the spec's
 *   `variant_k2_tau`, which W&B Training and ART read as `kimi_k2_tau`).
 */
export type TrainingWarningCode =
  | "uniform_rewards"
  | "missing_reward"
  | "token_count_mismatch"
  | "missing_logprobs"
  | "no_trajectories"
  | "ignored_setting";

/**
 * One problem that would waste training without making the request invalid. `path` is dotted,
 * from the request body (`trajectory_groups.0.trajectories.3`).
 */
export interface TrainingWarning {
  code: TrainingWarningCode;
  path: string;
  message: string;
}

/** What the checks need of one choice: its lengths, not its tokens (which need not stay alive). */
interface ChoiceAt {
  path: string;
  /** Length of `logprobs.content`, or undefined when it is not a list. */
  logprobs: number | undefined;
  /** Length of `token_ids`, or undefined when it is not a list. */
  tokenIds: number | undefined;
  /** Whether `logprobs` is there at all (not null): ART's trainer keeps only such choices. */
  hasLogprobs: boolean;
}

function choicesOf(items: readonly TrajectoryItem[], path: string, out: ChoiceAt[]): void {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!isTrajectoryChoice(item)) continue;
    const content = item.logprobs?.content;
    const ids: unknown = item["token_ids"];
    out.push({
      path: `${path}.messages_and_choices.${i}`,
      logprobs: Array.isArray(content) ? content.length : undefined,
      tokenIds: Array.isArray(ids) ? ids.length : undefined,
      hasLogprobs: item.logprobs != null,
    });
  }
}

/**
 * What would waste a training job without making it invalid, found one trajectory at a time
 * (group by group, in order), so a caller can check each trajectory and let it go before
 * reading the next: `trainingJobs.create` (which logs the findings) and `checkTrajectoryGroups`.
 */
export class TrajectoryChecks {
  /** Findings about the job's shape (empty groups), reported before the rest. */
  readonly #shape: TrainingWarning[] = [];
  readonly #warnings: TrainingWarning[] = [];
  readonly #choices: ChoiceAt[] = [];
  #group: number | undefined;
  #rewards: number[] = [];

  /** Trajectory `index` of group `group` (a `Trajectory` object reads as its wire shape). */
  add(group: number, index: number, t: TrajectoryParams): void {
    if (group !== this.#group) this.#endGroup(group);
    const path = `trajectory_groups.${group}.trajectories.${index}`;
    if (t.reward === undefined || t.reward === null) {
      this.#warnings.push({
        code: "missing_reward",
        path,
        message: "trajectory has no reward: the server would train on its default of 0; set `reward` after scoring",
      });
    }
    this.#rewards.push(t.reward ?? 0);
    choicesOf(t.messages_and_choices, path, this.#choices);
    (t.additional_histories ?? []).forEach((h, k) =>
      choicesOf(h.messages_and_choices, `${path}.additional_histories.${k}`, this.#choices),
    );
  }

  /** The number of trajectories in each group (trajectories are not needed for this). */
  groupSizes(sizes: readonly number[]): void {
    if (sizes.length === 0)
      this.#shape.push({
        code: "no_trajectories",
        path: "trajectory_groups",
        message: "the job has no trajectory groups: there is nothing to train on; gather rollouts first",
      });
    sizes.forEach((size, g) => {
      if (size === 0)
        this.#shape.push({
          code: "no_trajectories",
          path: `trajectory_groups.${g}`,
          message:
            "the group has no trajectories: it teaches nothing (a group needs two or more with different rewards)",
        });
    });
  }

  #endGroup(next: number | undefined): void {
    const rewards = this.#rewards;
    if (rewards.length > 0 && rewards.every((r) => r === rewards[0])) {
      const what =
        rewards.length === 1
          ? "the group has a single trajectory"
          : `all ${rewards.length} trajectories of the group have reward ${rewards[0]}`;
      this.#warnings.push({
        code: "uniform_rewards",
        path: `trajectory_groups.${this.#group}`,
        message: `${what}: no learning signal (every advantage is 0); sample more varied rollouts or refine the reward`,
      });
    }
    this.#group = next;
    this.#rewards = [];
  }

  /**
   * The number of choices seen, when there are some and not one of them carries logprobs (a
   * job that, by default, trains nothing); else 0.
   */
  choicesWithoutAnyLogprobs(): number {
    return this.#choices.some((c) => c.hasLogprobs) ? 0 : this.#choices.length;
  }

  /** The findings so far: the job's shape first, then each group's, then each choice's. */
  warnings(): TrainingWarning[] {
    this.#endGroup(undefined);
    const warnings = [...this.#shape, ...this.#warnings];
    const withLogprobs = this.#choices.filter((c) => c.logprobs !== undefined).length;
    for (const { path, logprobs, tokenIds } of this.#choices) {
      if (logprobs !== undefined && tokenIds !== undefined && tokenIds !== logprobs) {
        warnings.push({
          code: "token_count_mismatch",
          path,
          message: `choice has ${tokenIds} token_ids but ${logprobs} logprobs: the trainer cannot pair tokens with their logprobs`,
        });
      }
      if (withLogprobs > 0 && logprobs === undefined) {
        warnings.push({
          code: "missing_logprobs",
          path,
          message: `choice has no logprobs while ${withLogprobs} other choice(s) have them; sample every rollout with \`logprobs: true\``,
        });
      }
    }
    return warnings;
  }
}
