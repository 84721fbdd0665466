/**
 * RULER over real HTTP: the fake service judges (a fixed rule: an answered trajectory scores
 * 0.5 plus up to 0.5 for being the most direct, one answered after a failed tool call 0.3, an
 * unanswered one 0.1). What the judge is sent
 * (rubric, shared context, tools, one block per distinct trajectory, no logprobs), how its
 * verdict becomes rewards, the retry on an unusable reply, and gather's afterEach.
 */
import { describe, expect, it } from "vitest";
import {
  type ChatCompletion,
  gatherTrajectoryGroups,
  Inferloop,
  JudgeError,
  ruler,
  rulerScoreGroup,
  Trajectory,
  type TrajectoryChoice,
} from "../../src/index.js";
import { MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

const task = [
  { role: "system" as const, content: "You add numbers." },
  { role: "user" as const, content: "What is 2+2?" },
];
const answer = (content: string): TrajectoryChoice => ({
  index: 0,
  finish_reason: "stop",
  message: { role: "assistant", content },
  logprobs: { content: [{ token: "4", logprob: -0.01, bytes: [52], top_logprobs: [] }] },
  token_ids: [19],
});
const tried = (...replies: string[]) =>
  new Trajectory({ messages_and_choices: [...task, ...replies.map(answer)], reward: 0.3 });
const judgeBodies = () =>
  fake.svc.requests
    .filter((r) => r.path === "/v1/chat/completions")
    .map((r) => r.json as { messages: Array<{ role: string; content: string }>; response_format: { type: string } });

describe("ruler()", () => {
  it("sends the rubric, the shared context once and one block per trajectory, never logprobs or token ids", async () => {
    const scores = await ruler([tried("4"), tried("It is four, since two and two make four.")], {
      client: fake.client,
      model: MODEL,
    });
    expect(scores.map((s) => s.trajectory_id)).toEqual(["1", "2"]);
    expect(scores[0]!.score).toBe(1);
    expect(scores[1]!.score).toBeGreaterThan(0.5);
    expect(scores[1]!.score).toBeLessThan(1);
    expect(scores[0]!.explanation).toMatch(/most direct/);
    const [body] = judgeBodies();
    expect(body!.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "ruler_scores", strict: true },
    });
    expect(body!.messages[0]!.role).toBe("system");
    expect(body!.messages[0]!.content).toMatch(/Grading standards:\n- An attempt that reaches the goal/);
    const user = body!.messages[1]!.content;
    expect(user).toContain(`<context>\n${JSON.stringify(task)}\n</context>`);
    expect(user).toContain('<trajectory id="1">\n[{"role":"assistant","content":"4"}]\n</trajectory>');
    expect(user).not.toMatch(/logprob|token_ids/);
    expect(user).not.toContain("<available_tools>");
  });

  it("the fake's judge ranks an answer reached through a failed tool call below one whose calls all ran", async () => {
    const call = (id: string, city: string): TrajectoryChoice => ({
      index: 0,
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id, type: "function", function: { name: "lookup", arguments: JSON.stringify({ city }) } }],
      },
    });
    const attempt = (city: string, result: string) =>
      new Trajectory({
        messages_and_choices: [
          ...task,
          call("c1", city),
          { role: "tool", tool_call_id: "c1", content: result },
          answer(`The tool answered: ${result}`),
        ],
      });
    const scores = await ruler(
      [
        attempt("Paris", '{"notes":["a capital"]}'),
        attempt("does", "Error: no notes about does"),
        new Trajectory({ messages_and_choices: [...task, call("c1", "Paris")] }),
      ],
      { client: fake.client, model: MODEL },
    );
    expect(scores.map((s) => s.score)).toEqual([1, 0.3, 0.1]);
    expect(scores[1]!.explanation).toBe("Answered, but a tool call failed on the way.");
  });

  it("judges identical trajectories once, whole, and gives each its score", async () => {
    const scores = await ruler([tried("4"), tried("4"), tried("4")], {
      client: fake.client,
      model: MODEL,
      rubric: "- Be right.",
    });
    expect(scores).toEqual(
      [1, 2, 3].map((id) => ({ trajectory_id: String(id), explanation: expect.any(String), score: 1 })),
    );
    const user = judgeBodies()[0]!.messages[1]!.content;
    expect(user.match(/<trajectory id=/g)).toHaveLength(1);
    expect(user).not.toContain("<context>");
    expect(user).toContain("You add numbers.");
    expect(judgeBodies()[0]!.messages[0]!.content).toMatch(/Grading standards:\n- Be right\.$/);
  });

  it("shows the tools offered", async () => {
    const tools = [{ type: "function" as const, function: { name: "add", parameters: { type: "object" } } }];
    const t = new Trajectory({ messages_and_choices: [...task, answer("4")], tools });
    await ruler([t, tried("five")], { client: fake.client, model: MODEL });
    expect(judgeBodies()[0]!.messages[1]!.content).toContain(
      `<available_tools>\n${JSON.stringify(tools)}\n</available_tools>`,
    );
  });
});

/** A judge that answers each call with the next scripted content. */
function scriptedJudge(contents: string[]) {
  const sent: Array<{ messages: Array<{ role: string; content: string }> }> = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push(JSON.parse(String(init?.body)));
    const completion = {
      id: "x",
      object: "chat.completion",
      created: 1,
      model: "judge",
      choices: [
        { index: 0, finish_reason: "stop", message: { role: "assistant", content: contents[sent.length - 1] ?? null } },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 30, total_tokens: 130 },
    } satisfies ChatCompletion;
    return new Response(JSON.stringify(completion), { headers: { "content-type": "application/json" } });
  };
  return { judge: new Inferloop({ baseURL: "http://judge.test", apiKey: "k", fetch, maxRetries: 0 }), sent };
}

const verdict = (...scores: Array<[string, number]>) =>
  JSON.stringify({ scores: scores.map(([trajectory_id, score]) => ({ trajectory_id, explanation: "ok", score })) });

describe("an unusable verdict", () => {
  it("is asked once more, with what was wrong, and the second verdict used", async () => {
    const { judge, sent } = scriptedJudge([verdict(["1", 0.5]), verdict(["1", 0.2], ["2", 0.9])]);
    const scores = await ruler([tried("4"), tried("5")], { client: judge, model: "judge" });
    expect(scores.map((s) => s.score)).toEqual([0.2, 0.9]);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.messages.at(-1)!.content).toMatch(/expected 2 score\(s\), one per trajectory, got 1/);
  });

  for (const [what, bad] of [
    ["the wrong count", verdict(["1", 0.5])],
    ["an unknown id", verdict(["1", 0.5], ["7", 0.5])],
    ["a score outside [0, 1]", verdict(["1", 0.5], ["2", 1.5])],
    ["no JSON", "I think the first one"],
  ] as const) {
    it(`rejects with JudgeError after the second reply with ${what}`, async () => {
      const { judge, sent } = scriptedJudge([bad, bad]);
      const err = await ruler([tried("4"), tried("5")], { client: judge, model: "judge" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(JudgeError);
      expect((err as JudgeError).reply).toBe(bad);
      expect(sent).toHaveLength(2);
    });
  }

  it("rulerScoreGroup with swallowErrors gives null instead", async () => {
    const bad = verdict(["1", 2]);
    const { judge } = scriptedJudge([bad, bad]);
    const group = { trajectories: [tried("4"), tried("5")], exceptions: [] };
    expect(await rulerScoreGroup(group, { client: judge, model: "judge", swallowErrors: true })).toBeNull();
    await expect(rulerScoreGroup(group, { client: judge, model: "judge" })).rejects.toBeInstanceOf(JudgeError);
  });
});

describe("rulerScoreGroup", () => {
  it("returns a new group: reward = score, the old reward kept, the explanation logged, the judge's usage shared", async () => {
    const { judge } = scriptedJudge([verdict(["1", 0.25], ["2", 0.75])]);
    const group = { trajectories: [tried("4"), tried("5")], exceptions: [] };
    const scored = (await rulerScoreGroup(group, { client: judge, model: "judge" }))!;
    expect(scored.trajectories.map((t) => t.reward)).toEqual([0.25, 0.75]);
    expect(scored.trajectories[0]!.metrics).toEqual({
      independent_reward: 0.3,
      ruler_score: 0.25,
      judge_prompt_tokens: 50,
      judge_completion_tokens: 15,
    });
    expect(scored.trajectories[1]!.logs).toEqual(["RULER explanation: ok"]);
    expect(scored.trajectories[0]!.messages_and_choices).toEqual(group.trajectories[0]!.messages_and_choices);
    // The input is untouched.
    expect(group.trajectories.map((t) => [t.reward, t.metrics, t.logs])).toEqual([
      [0.3, {}, []],
      [0.3, {}, []],
    ]);
  });
});

describe("gatherTrajectoryGroups({ afterEach })", () => {
  it("judges each group as it ends; a group returned is kept, null dropped, an array flattened in place", async () => {
    const rollout = (reply: string) => async () => tried(reply);
    const seen: number[] = [];
    const groups = await gatherTrajectoryGroups(
      [
        [rollout("4"), rollout("It is 4.")],
        [rollout("x"), rollout("y")],
        [rollout("4"), rollout("5")],
      ],
      {
        afterEach: async (group, index) => {
          seen.push(index);
          if (index === 1) return null;
          const scored = await rulerScoreGroup(group, { client: fake.client, model: MODEL });
          return index === 2 ? [scored!, scored!] : scored;
        },
      },
    );
    expect(seen.sort()).toEqual([0, 1, 2]);
    expect(groups).toHaveLength(3);
    expect(groups[0]!.trajectories.map((t) => t.metrics.ruler_score)).toEqual([1, expect.any(Number)]);
    expect(groups[1]).toBe(groups[2]);
  });

  it("rejects with afterEach's error", async () => {
    const err = await gatherTrajectoryGroups([[async () => tried("4")]], {
      afterEach: () => {
        throw new RangeError("judge down");
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RangeError);
  });
});
