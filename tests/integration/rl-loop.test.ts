/**
 * The RL loop over real HTTP against the fake service: rollouts recorded from plain and
 * streamed replies, gathered with failures and aborts, checked, and sent as a training job.
 */
import { describe, expect, it } from "vitest";
import {
  APIUserAbortError,
  type ChatCompletionChoice,
  gatherTrajectoryGroups,
  type Logger,
  RolloutsFailedError,
  Trajectory,
  type TrajectoryChoice,
} from "../../src/index.js";
import { captureWarnings } from "../warnings.js";
import { clientFor, MODEL, MODEL_ID, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

const JOBS = "/v1/preview/training-jobs";

const prompt = (text: string) =>
  new Trajectory({ messages_and_choices: [{ role: "user", content: text }], start_time: "2025-03-18T17:04:12Z" });
const answer: TrajectoryChoice = {
  index: 0,
  finish_reason: "stop",
  logprobs: { content: [{ token: "a", logprob: -0.1, bytes: null, top_logprobs: [] }] },
  message: { role: "assistant", content: "a" },
};
const lastChoice = (t: Trajectory) => t.messages_and_choices.at(-1) as ChatCompletionChoice;
const sentBodies = (path: string) =>
  fake.svc.requests.filter((r) => r.path === path).map((r) => r.json as Record<string, unknown>);

function collectingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => {};
  return { logger: { error: ignore, warn: (m) => warnings.push(m), info: ignore, debug: ignore }, warnings };
}

describe("recording replies", () => {
  it("sample() asks for logprobs and token ids, records the reply with both, and sends it back next turn", async () => {
    const t = prompt("What is a token?");
    const first = await t.sample(fake.client, { model: MODEL, seed: 1, reasoning_effort: "low" });
    const recorded = lastChoice(t);
    expect(recorded).toEqual(first.choices[0]);
    expect(recorded.token_ids!.length).toBeGreaterThan(0);
    expect(recorded.logprobs!.content).toHaveLength(recorded.token_ids!.length);
    expect(recorded.message.reasoning).toBeTruthy();

    t.messages_and_choices.push({ role: "user", content: "Shorter, please." });
    await t.sample(fake.client, { model: MODEL, logprobs: false, return_token_ids: false });
    const [firstSent, secondSent] = sentBodies("/v1/chat/completions");
    expect(firstSent).toMatchObject({ logprobs: true, return_token_ids: true, seed: 1 });
    expect(secondSent).toMatchObject({ logprobs: false, return_token_ids: false });
    expect(secondSent!["messages"]).toEqual([
      { role: "user", content: "What is a token?" },
      { role: "assistant", content: recorded.message.content, reasoning: recorded.message.reasoning },
      { role: "user", content: "Shorter, please." },
    ]);
  });

  it("a streamed reply's finalCompletion() records the same choice as the plain reply", async () => {
    const request = { model: MODEL, seed: 7, logprobs: true, top_logprobs: 2, return_token_ids: true } as const;
    const plain = prompt("echo one two three").record(
      await fake.client.chat.completions.create({
        ...request,
        messages: [{ role: "user", content: "echo one two three" }],
      }),
    );
    const stream = await fake.client.chat.completions.create({
      ...request,
      stream: true,
      messages: [{ role: "user", content: "echo one two three" }],
    });
    const streamed = prompt("echo one two three").record(await stream.finalCompletion());
    const a = lastChoice(plain);
    const b = lastChoice(streamed);
    expect(b.message.content).toBe("one two three");
    expect(b.token_ids).toEqual(a.token_ids);
    expect(b.logprobs!.content).toEqual(a.logprobs!.content);
    expect(b.finish_reason).toBe(a.finish_reason);
  });

  it("n-sampled choices go to separate trajectories, each with its own tokens", async () => {
    const completion = await fake.client.chat.completions.create({
      model: MODEL,
      n: 3,
      logprobs: true,
      return_token_ids: true,
      messages: [{ role: "user", content: "Say hi" }],
    });
    const group = [0, 1, 2].map((i) => prompt("Say hi").record(completion, i));
    expect(group.map((t) => lastChoice(t).index)).toEqual([0, 1, 2]);
    for (const t of group) expect(lastChoice(t).logprobs!.content).toHaveLength(lastChoice(t).token_ids!.length);
  });
});

describe("gathering and training", () => {
  const rollout = (text: string, seed: number, reward: number) => async (signal: AbortSignal) => {
    const t = prompt(text);
    await t.sample(fake.client, { model: MODEL, seed }, { signal });
    t.reward = reward;
    return t;
  };

  it("gathered groups go into a job as they are; the fake keeps the rewards and the body is each toJSON()", async () => {
    const groups = await gatherTrajectoryGroups(
      [
        [rollout("a", 1, 1), rollout("a", 2, 0)],
        [rollout("b", 1, 0.5), rollout("b", 2, 0.25), () => Promise.reject(new Error("judge timed out"))],
      ],
      { concurrency: 2, maxExceptions: 1 },
    );
    const { logger, warnings } = collectingLogger();
    const { id } = await fake.client
      .withOptions({ logLevel: "warn", logger })
      .trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: groups });
    expect(warnings).toEqual([]);
    const job = fake.svc.trainingJobs.find((j) => j.id === id)!;
    expect(job.rewards).toEqual([
      [1, 0],
      [0.5, 0.25],
    ]);
    const sent = sentBodies(JOBS)[0]!["trajectory_groups"] as Array<{ trajectories: unknown[]; exceptions: unknown[] }>;
    expect(sent[0]!.trajectories).toEqual(JSON.parse(JSON.stringify(groups[0]!.trajectories.map((t) => t.toJSON()))));
    expect(sent[1]!.exceptions).toEqual([{ type: "Error", message: "judge timed out", traceback: expect.any(String) }]);
  });

  it("logs wasted training at warn and still creates the job", async () => {
    const flat = await gatherTrajectoryGroups([[rollout("a", 1, 1), rollout("a", 2, 1)]]);
    const unscored = prompt("b");
    await unscored.sample(fake.client, { model: MODEL, logprobs: false });
    const { logger, warnings } = collectingLogger();
    await fake.client.withOptions({ logLevel: "warn", logger }).trainingJobs.create({
      model_id: MODEL_ID,
      trajectory_groups: [...flat, { trajectories: [unscored, flat[0]!.trajectories[0]!] }],
    });
    expect(fake.svc.trainingJobs).toHaveLength(1);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(
      /^\[inferloop\] training_jobs.create: all 2 trajectories .* reward 1: no learning signal .*\[uniform_rewards at trajectory_groups\.0\]$/,
    );
    expect(warnings[1]).toMatch(
      /trajectory has no reward.*\[missing_reward at trajectory_groups\.1\.trajectories\.0\]$/,
    );
    expect(warnings[2]).toMatch(
      /choice has no logprobs .*\[missing_logprobs at trajectory_groups\.1\.trajectories\.0\.messages_and_choices\.1\]$/,
    );
  });

  it("quotes each flat group's own reward, and warns of empty groups, still creating the job", async () => {
    const scored = (reward: number) =>
      new Trajectory({ messages_and_choices: [{ role: "user", content: "q" }, answer], reward });
    const { logger, warnings } = collectingLogger();
    const warned = fake.client.withOptions({ logLevel: "warn", logger });
    await warned.trainingJobs.create({
      model_id: MODEL_ID,
      trajectory_groups: [
        { trajectories: [scored(1), scored(1)] },
        { trajectories: [] },
        { trajectories: [scored(0), scored(0)] },
        { trajectories: [scored(1), scored(1)] },
      ],
    });
    expect(warnings).toEqual([
      "[inferloop] training_jobs.create: the group has no trajectories: it teaches nothing (a group needs two or more with different rewards) [no_trajectories at trajectory_groups.1]",
      "[inferloop] training_jobs.create: all 2 trajectories of the group have reward 1: no learning signal (every advantage is 0); sample more varied rollouts or refine the reward [uniform_rewards at trajectory_groups.0, trajectory_groups.3]",
      "[inferloop] training_jobs.create: all 2 trajectories of the group have reward 0: no learning signal (every advantage is 0); sample more varied rollouts or refine the reward [uniform_rewards at trajectory_groups.2]",
    ]);
    warnings.length = 0;
    await warned.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: [] });
    expect(warnings).toEqual([
      "[inferloop] training_jobs.create: the job has no trajectory groups: there is nothing to train on; gather rollouts first [no_trajectories at trajectory_groups]",
    ]);
    // The server takes such jobs (its schema sets no minimum), so they are sent, as the other findings are.
    expect(fake.svc.trainingJobs).toHaveLength(2);
  });

  it("writes nothing to the logger when the log level is off (the default): a process warning says it", async () => {
    const { logger, warnings } = collectingLogger();
    const quiet = clientFor(fake.svc, { logger });
    const t = prompt("a");
    t.messages_and_choices.push(answer);
    const emitted = captureWarnings();
    await quiet.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: [{ trajectories: [t] }] });
    expect(warnings).toEqual([]);
    expect(emitted.codes()).toEqual(["INFERLOOP_MISSING_REWARD", "INFERLOOP_UNIFORM_REWARDS"]);
    expect(fake.svc.trainingJobs).toHaveLength(1);
    expect(fake.svc.trainingJobs[0]!.rewards).toEqual([[null]]);
  });

  it("past the failure budget, the chat requests in flight are aborted and nothing is trained", async () => {
    fake.svc.state.latencyMs = 10_000;
    const outcomes: unknown[] = [];
    const slow = (seed: number) => async (signal: AbortSignal) => {
      try {
        return await rollout("slow", seed, 1)(signal);
      } catch (err) {
        outcomes.push(err);
        throw err;
      }
    };
    let failNow!: () => void;
    const failing = () => new Promise<Trajectory>((_, reject) => (failNow = () => reject(new Error("scorer crashed"))));
    const gathering = gatherTrajectoryGroups([[slow(1), slow(2)], [failing]]);
    while (fake.svc.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
    failNow();
    await expect(gathering).rejects.toBeInstanceOf(RolloutsFailedError);
    while (outcomes.length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(outcomes.every((e) => e instanceof APIUserAbortError)).toBe(true);
    expect(fake.svc.trainingJobs).toHaveLength(0);
  });

  it("aborting the gather's signal aborts the chat requests in flight", async () => {
    fake.svc.state.latencyMs = 10_000;
    const user = new AbortController();
    const outcomes: unknown[] = [];
    const gathering = gatherTrajectoryGroups(
      [
        [1, 2, 3].map(
          (seed) => (signal: AbortSignal) =>
            rollout(
              "x",
              seed,
              0,
            )(signal).catch((e: unknown) => {
              outcomes.push(e);
              throw e;
            }),
        ),
      ],
      { signal: user.signal, concurrency: 2 },
    );
    while (fake.svc.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
    user.abort();
    await expect(gathering).rejects.toBeInstanceOf(APIUserAbortError);
    while (outcomes.length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(outcomes.every((e) => e instanceof APIUserAbortError)).toBe(true);
    // The third rollout never started.
    expect(fake.svc.requests).toHaveLength(2);
  });
});
