/**
 * Rollouts for the training loop's tests: each samples the step's `modelName` on the fake (so
 * the checkpoint must exist) with the prompt `step N`, so that the step a job trained can be
 * read back from the fake's record of it ({@link stepOfJob}).
 */
import { sleep } from "../../src/core/pipeline/retry.js";
import { gatherTrajectoryGroups, type Inferloop, type TrainLoopRolloutContext, Trajectory } from "../../src/index.js";

/** How {@link stepRollouts} samples. */
export interface StepRollouts {
  /** The rollouts of a group, by seed; each seed's reward. Default two, rewards 1 and 0. */
  rewards?: readonly number[];
  /** How long the rollouts of a step wait first, in ms (their own length). Default 0. */
  delayMs?: (step: number) => number;
  /** Ask for logprobs. Default false. */
  logprobs?: boolean;
}

/** A `rollouts` of `trainLoop`: one group per step, one trajectory per reward. */
export function stepRollouts(client: Inferloop, { rewards = [1, 0], delayMs, logprobs = false }: StepRollouts = {}) {
  return async ({ step, modelName, signal, onProgress }: TrainLoopRolloutContext) => {
    if (delayMs !== undefined) await sleep(delayMs(step), signal);
    return gatherTrajectoryGroups(
      [
        rewards.map((reward, seed) => async (inner: AbortSignal) => {
          const t = new Trajectory({ messages_and_choices: [{ role: "user", content: `step ${step}` }] });
          const params = { model: modelName, seed, max_completion_tokens: 8, ...(logprobs ? { logprobs } : {}) };
          await t.sample(client, params, { signal: inner });
          t.reward = reward;
          return t;
        }),
      ],
      { signal, onProgress },
    );
  };
}

/** The step a job of {@link stepRollouts} trained, read from its first prompt. */
export function stepOfJob(job: { request: Record<string, unknown> }): number {
  const groups = job.request["trajectory_groups"] as Array<{
    trajectories: Array<{ messages_and_choices: Array<{ content?: string }> }>;
  }>;
  return Number(/^step (\d+)$/.exec(groups[0]!.trajectories[0]!.messages_and_choices[0]!.content ?? "")![1]);
}
