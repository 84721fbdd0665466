/**
 * A kept choice's token logprobs are packed into typed arrays behind the same public shape:
 * read, iterated, compared and serialized exactly as the lists the server sent, and a training
 * job built from them is byte for byte the same. Lists of any other shape are kept as they came.
 */
import { types } from "node:util";
import { describe, expect, it } from "vitest";
import {
  type ChatCompletion,
  type ChatCompletionChoice,
  captureTrajectory,
  Trajectory,
  type TrajectoryChoice,
} from "../../src/index.js";
import { captureWarnings } from "../warnings.js";
import { MODEL, MODEL_ID, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

const params = {
  model: MODEL,
  messages: [{ role: "user" as const, content: "Tell me about tokens." }],
  logprobs: true,
  top_logprobs: 5,
  return_token_ids: true,
  seed: 3,
};

describe("a kept choice's logprobs", () => {
  for (const stream of [false, true]) {
    it(`read, compare and serialize as received (${stream ? "streamed" : "plain"} reply)`, async () => {
      let completion: ChatCompletion;
      if (stream)
        completion = await (await fake.client.chat.completions.create({ ...params, stream: true })).finalCompletion();
      else completion = await fake.client.chat.completions.create(params);
      const original = completion.choices[0]!;
      const received = JSON.parse(JSON.stringify(original)) as ChatCompletionChoice;
      const t = new Trajectory({ messages_and_choices: [...params.messages] }).record(completion);
      const kept = t.messages_and_choices[1] as TrajectoryChoice;
      const content = kept.logprobs!.content!;
      expect(types.isProxy(content)).toBe(true);
      expect(content.length).toBeGreaterThanOrEqual(16);
      expect(Array.isArray(content)).toBe(true);
      expect(content[3]!.logprob).toBe(received.logprobs!.content![3]!.logprob);
      expect(content[3]!.top_logprobs!.map((a) => a.token)).toEqual(
        received.logprobs!.content![3]!.top_logprobs!.map((a) => a.token),
      );
      expect([...content].map((e) => e.token).join("")).toBe(received.logprobs!.content!.map((e) => e.token).join(""));
      expect(kept).toEqual(received);
      // The same bytes as the choice the server sent, through JSON and through the trajectory.
      expect(JSON.stringify(kept)).toBe(JSON.stringify(received));
      expect(JSON.stringify(t)).toBe(
        JSON.stringify(
          new Trajectory({ ...t, messages_and_choices: [...params.messages, received as TrajectoryChoice] }),
        ),
      );
      // The caller's completion keeps its own lists.
      expect(types.isProxy(original.logprobs!.content)).toBe(false);
    });
  }

  it("a streamed reply packed as it arrived: recorded unread, the caller's completion still reads as received", async () => {
    const stream = await fake.client.chat.completions.create({ ...params, stream: true });
    const received: unknown[] = [];
    for await (const chunk of stream) received.push(...(chunk.choices[0]?.logprobs?.content ?? []));
    const completion = await stream.finalCompletion();
    const t = new Trajectory({ messages_and_choices: [...params.messages] }).record(completion);
    const kept = (t.messages_and_choices[1] as TrajectoryChoice).logprobs!.content!;
    expect(received.length).toBeGreaterThanOrEqual(16);
    expect(types.isProxy(kept)).toBe(true);
    expect(JSON.stringify(kept)).toBe(JSON.stringify(received));
    const own = completion.choices[0]!.logprobs!.content!;
    expect(types.isProxy(own)).toBe(false);
    expect(own).toStrictEqual(received);
  });

  it("what the caller changed in a streamed completion before recording it is what the trajectory keeps", async () => {
    const stream = await fake.client.chat.completions.create({ ...params, stream: true });
    const completion = await stream.finalCompletion();
    const content = completion.choices[0]!.logprobs!.content!;
    content[2]!.logprob = -42;
    const t = new Trajectory({ messages_and_choices: [...params.messages] }).record(completion);
    const kept = (t.messages_and_choices[1] as TrajectoryChoice).logprobs!.content!;
    expect(kept[2]!.logprob).toBe(-42);
    expect(JSON.stringify(kept)).toBe(JSON.stringify(content));
  });

  it("inside captureTrajectory too, and the training job sent is the one a plain list would give", async () => {
    const t = await captureTrajectory(async () => {
      await fake.client.chat.completions.create(params);
      return 1;
    });
    const kept = t.messages_and_choices.at(-1) as TrajectoryChoice;
    expect(types.isProxy(kept.logprobs!.content)).toBe(true);
    const plain = JSON.parse(JSON.stringify(t)) as object;
    // A group of one rollout teaches nothing: the SDK says so, and sends it as asked.
    const warnings = captureWarnings();
    await fake.client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: [{ trajectories: [t] }] });
    expect(warnings.codes()).toEqual(["INFERLOOP_UNIFORM_REWARDS"]);
    const sent = fake.svc.requests.at(-1)!;
    expect(sent.body).toBe(JSON.stringify({ model_id: MODEL_ID, trajectory_groups: [{ trajectories: [plain] }] }));
  });

  it("a list of another shape is kept as it came; a written entry stays written", () => {
    const entry = (token: string, extra?: object) => ({
      token,
      logprob: -0.5,
      bytes: [...new TextEncoder().encode(token)],
      top_logprobs: [{ token, logprob: -0.5, bytes: [...new TextEncoder().encode(token)] }],
      ...extra,
    });
    const choice = (content: object[]) =>
      ({
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: "x" },
        logprobs: { content },
      }) as ChatCompletionChoice;
    const odd = Array.from({ length: 20 }, (_, i) => entry(`t${i}`, i === 7 ? { rank: 1 } : undefined));
    const t = new Trajectory().record(choice(odd));
    expect((t.messages_and_choices[0] as TrajectoryChoice).logprobs!.content).toBe(odd);

    const even = Array.from({ length: 20 }, (_, i) => entry(`t${i}`));
    const u = new Trajectory().record(choice(even));
    const content = (u.messages_and_choices[0] as TrajectoryChoice).logprobs!.content!;
    expect(types.isProxy(content)).toBe(true);
    content[2] = { ...content[2]!, logprob: -9 };
    expect(content[2]!.logprob).toBe(-9);
    expect(content).toHaveLength(20);
    expect(JSON.parse(JSON.stringify(content))[2].logprob).toBe(-9);
  });
});
