/** checkTrajectoryGroups: what would waste a training job is reported, not thrown. */
import { describe, expect, it } from "vitest";
import { checkTrajectoryGroups, Trajectory, type TrajectoryChoice, type TrajectoryParams } from "../../../src/index.js";

function sampled(tokens: number, ids = tokens, withLogprobs = true): TrajectoryChoice {
  return {
    index: 0,
    finish_reason: "stop",
    message: { role: "assistant", content: "x" },
    logprobs: withLogprobs
      ? { content: Array.from({ length: tokens }, () => ({ token: "x", logprob: -1, top_logprobs: [] })) }
      : null,
    token_ids: Array.from({ length: ids }, (_, i) => 100 + i),
  };
}

function rollout(reward: number | undefined, c: TrajectoryChoice = sampled(3)): TrajectoryParams {
  return { messages_and_choices: [{ role: "user", content: "q" }, c], ...(reward === undefined ? {} : { reward }) };
}

const codes = (groups: Parameters<typeof checkTrajectoryGroups>[0]) =>
  checkTrajectoryGroups(groups).map((w) => `${w.code} ${w.path}`);

describe("checkTrajectoryGroups", () => {
  it("finds nothing in groups with varied rewards and consistent choices", () => {
    expect(
      codes([{ trajectories: [rollout(1), rollout(0)] }, { trajectories: [rollout(0.5), rollout(0.25)] }]),
    ).toEqual([]);
  });

  it("flags a group whose rewards are all equal: no learning signal", () => {
    const warnings = checkTrajectoryGroups([
      { trajectories: [rollout(1), rollout(0)] },
      { trajectories: [rollout(1), rollout(1)] },
    ]);
    expect(warnings).toEqual([
      {
        code: "uniform_rewards",
        path: "trajectory_groups.1",
        message: expect.stringMatching(/all 2 .* reward 1: no learning signal/),
      },
    ]);
  });

  it("flags a group of one trajectory: nothing to compare it with", () => {
    expect(checkTrajectoryGroups([{ trajectories: [rollout(1)] }])).toEqual([
      {
        code: "uniform_rewards",
        path: "trajectory_groups.0",
        message: expect.stringMatching(/^the group has a single trajectory: no learning signal/),
      },
    ]);
  });

  it("flags a job without groups, and each group without trajectories (no uniform_rewards for it)", () => {
    expect(checkTrajectoryGroups([])).toEqual([
      {
        code: "no_trajectories",
        path: "trajectory_groups",
        message: "the job has no trajectory groups: there is nothing to train on; gather rollouts first",
      },
    ]);
    expect(codes([{ trajectories: [rollout(1), rollout(0)] }, { trajectories: [] }, { trajectories: [] }])).toEqual([
      "no_trajectories trajectory_groups.1",
      "no_trajectories trajectory_groups.2",
    ]);
  });

  it("quotes each flat group's own reward", () => {
    const warnings = checkTrajectoryGroups([
      { trajectories: [rollout(1), rollout(1)] },
      { trajectories: [rollout(0), rollout(0), rollout(0)] },
    ]);
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^all 2 trajectories of the group have reward 1: /),
      expect.stringMatching(/^all 3 trajectories of the group have reward 0: /),
    ]);
  });

  it("flags a trajectory without a reward (and its group, flat at the server's default 0)", () => {
    expect(codes([{ trajectories: [rollout(undefined), rollout(0)] }])).toEqual([
      "missing_reward trajectory_groups.0.trajectories.0",
      "uniform_rewards trajectory_groups.0",
    ]);
  });

  it("flags a choice whose token_ids and logprobs lengths disagree", () => {
    const warnings = checkTrajectoryGroups([{ trajectories: [rollout(1, sampled(4, 3)), rollout(0)] }]);
    expect(warnings.map((w) => [w.code, w.path, w.message])).toEqual([
      [
        "token_count_mismatch",
        "trajectory_groups.0.trajectories.0.messages_and_choices.1",
        "choice has 3 token_ids but 4 logprobs: the trainer cannot pair tokens with their logprobs",
      ],
    ]);
  });

  it("flags a choice recorded without logprobs next to others with them, in histories too", () => {
    const bare = sampled(3, 3, false);
    const t = new Trajectory({ messages_and_choices: [sampled(2)], reward: 1 });
    t.additional_histories.push({ messages_and_choices: [{ role: "user", content: "q" }, bare] });
    expect(codes([{ trajectories: [t, rollout(0, bare)] }])).toEqual([
      "missing_logprobs trajectory_groups.0.trajectories.0.additional_histories.0.messages_and_choices.1",
      "missing_logprobs trajectory_groups.0.trajectories.1.messages_and_choices.1",
    ]);
  });

  it("does not flag choices without logprobs when none has them", () => {
    const bare = sampled(3, 3, false);
    expect(codes([{ trajectories: [rollout(1, bare), rollout(0, bare)] }])).toEqual([]);
  });
});
