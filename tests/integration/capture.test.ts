/**
 * captureTrajectory over real HTTP against the fake service: inferloop calls made inside a
 * capture (plain, streamed, n > 1, tools, several turns, calls that start another history,
 * failures and aborts) land in the trajectory as ART records them, and nothing else does.
 */
import { describe, expect, it } from "vitest";
import {
  APIUserAbortError,
  type ChatCompletionChoice,
  type ChatCompletionMessageParam,
  type ChatCompletionStream,
  type ChatCompletionTool,
  captureTrajectory,
  currentTrajectory,
  gatherTrajectoryGroups,
  InternalServerError,
  RequestValidationError,
  Trajectory,
} from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { caught, MODEL, MODEL_ID, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

const user = (content: string): ChatCompletionMessageParam => ({ role: "user", content });
const choiceAt = (t: { messages_and_choices: unknown[] }, i: number) =>
  t.messages_and_choices.at(i) as ChatCompletionChoice;
const sentBodies = () =>
  fake.svc.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.json as Record<string, unknown>);

const weather: ChatCompletionTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("captureTrajectory with inferloop calls", () => {
  it("records a plain call's messages and its reply with logprobs and token ids; the number returned is the reward", async () => {
    let seen: Trajectory | undefined;
    const t = await captureTrajectory(
      async () => {
        seen = currentTrajectory();
        const reply = await fake.client.chat.completions.create({ model: MODEL, messages: [user("echo alpha beta")] });
        currentTrajectory()!.metrics.turns = 1;
        return reply.choices[0]?.message.content === "alpha beta" ? 1 : 0;
      },
      { metadata: { prompt: "echo" }, logprobs: true },
    );
    expect(seen).toBe(t);
    expect(t.reward).toBe(1);
    expect(t.metadata).toEqual({ prompt: "echo" });
    expect(t.metrics).toEqual({ turns: 1 });
    expect(t.messages_and_choices).toHaveLength(2);
    expect(t.messages_and_choices[0]).toEqual(user("echo alpha beta"));
    const choice = choiceAt(t, 1);
    expect(choice.message.content).toBe("alpha beta");
    expect(choice.token_ids!.length).toBeGreaterThan(0);
    expect(choice.logprobs!.content).toHaveLength(choice.token_ids!.length);
    expect(sentBodies()[0]).toMatchObject({ logprobs: true, return_token_ids: true });
    expect(t.additional_histories).toEqual([]);
    expect(t.logs).toEqual([]);
  });

  it("logprobs: true leaves a call's own logprobs and return_token_ids alone, and without it calls go as written", async () => {
    await captureTrajectory(
      () => fake.client.chat.completions.create({ model: MODEL, messages: [user("hi")], logprobs: false }),
      { logprobs: true },
    );
    await captureTrajectory(() => fake.client.chat.completions.create({ model: MODEL, messages: [user("hi")] }));
    const [first, second] = sentBodies();
    expect(first).toMatchObject({ logprobs: false, return_token_ids: true });
    expect(second).not.toHaveProperty("logprobs");
    expect(second).not.toHaveProperty("return_token_ids");
  });

  it("records a streamed reply once it has been read, whichever way it is read", async () => {
    const request = { model: MODEL, messages: [user("echo one two three")], stream: true as const, seed: 3 };
    const byLoop = await captureTrajectory(
      async () => {
        const stream = await fake.client.chat.completions.create(request);
        for await (const _ of stream);
      },
      { logprobs: true },
    );
    const byFinal = await captureTrajectory(
      async () => (await fake.client.chat.completions.create(request)).finalCompletion(),
      { logprobs: true },
    );
    const byText = await captureTrajectory(
      async () => {
        let text = "";
        for await (const piece of (await fake.client.chat.completions.create(request)).textStream()) text += piece;
        return text.length;
      },
      { logprobs: true },
    );
    const plain = await captureTrajectory(() => fake.client.chat.completions.create({ ...request, stream: false }), {
      logprobs: true,
    });
    for (const t of [byLoop, byFinal, byText]) {
      expect(t.messages_and_choices).toHaveLength(2);
      expect(choiceAt(t, 1).message.content).toBe("one two three");
      expect(choiceAt(t, 1).token_ids).toEqual(choiceAt(plain, 1).token_ids);
      expect(choiceAt(t, 1).logprobs!.content).toEqual(choiceAt(plain, 1).logprobs!.content);
      expect(t.logs).toEqual([]);
    }
    expect(byText.reward).toBe("one two three".length);
  });

  it("n > 1: the first choice continues the conversation, each other choice is a history of its own", async () => {
    const t = await captureTrajectory(() =>
      fake.client.chat.completions.create({ model: MODEL, n: 3, messages: [user("Say hi")], logprobs: true }),
    );
    expect(t.messages_and_choices.map((m) => ("index" in m ? m.index : "message"))).toEqual(["message", 0]);
    expect(
      t.additional_histories.map((h) => h.messages_and_choices.map((m) => ("index" in m ? m.index : m.role))),
    ).toEqual([
      ["user", 1],
      ["user", 2],
    ]);
  });

  it("a multi-turn tool-calling agent is one conversation: each call adds only its new messages and its reply", async () => {
    const t = await captureTrajectory(async () => {
      const messages: ChatCompletionMessageParam[] = [
        { role: "system", content: "You answer weather questions." },
        user("What is the get_weather in Paris?"),
      ];
      for (let step = 0; step < 3; step++) {
        // Two tool rounds ("required" calls a tool every time), then the last step answers.
        const reply = await fake.client.chat.completions.create({
          model: MODEL,
          messages,
          tools: [weather],
          tool_choice: step === 2 ? "none" : "required",
        });
        const message = reply.choices[0]!.message;
        messages.push({ role: "assistant", content: message.content, tool_calls: message.tool_calls });
        if (!message.tool_calls?.length) break;
        for (const call of message.tool_calls)
          messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify({ celsius: 21 }) });
      }
      return 1;
    });
    const roles = t.messages_and_choices.map((m) => ("role" in m ? m.role : `choice:${m.finish_reason}`));
    expect(roles).toEqual(["system", "user", "choice:tool_calls", "tool", "choice:tool_calls", "tool", "choice:stop"]);
    expect(t.tools).toEqual([weather]);
    expect(t.additional_histories).toEqual([]);
    // What the agent sent back is what was recorded: the next request's messages are t.messages().
    expect(sentBodies().at(-1)!["messages"]).toHaveLength(t.messages().length - 1);
  });

  it("a call that does not continue the conversation starts an additional history, and a later call continues it", async () => {
    const t = await captureTrajectory(async () => {
      const main = await fake.client.chat.completions.create({ model: MODEL, messages: [user("Plan a trip")] });
      // A judge with a conversation of its own, twice.
      const judge = [user("Rate this plan")];
      const verdict = await fake.client.chat.completions.create({ model: MODEL, messages: judge });
      await fake.client.chat.completions.create({
        model: MODEL,
        messages: [...judge, verdict.choices[0]!.message, user("Why?")],
      });
      await fake.client.chat.completions.create({
        model: MODEL,
        messages: [user("Plan a trip"), main.choices[0]!.message, user("Cheaper")],
      });
    });
    expect(t.messages_and_choices).toHaveLength(4);
    expect(t.messages_and_choices[2]).toEqual(user("Cheaper"));
    expect(t.additional_histories).toHaveLength(1);
    const judge = t.additional_histories[0]!.messages_and_choices;
    expect(judge.map((m) => ("role" in m ? m.content : "choice"))).toEqual([
      "Rate this plan",
      "choice",
      "Why?",
      "choice",
    ]);
  });

  it("a failed call and an aborted one are lines in logs, never choices", async () => {
    fake.svc.inject(faults.status(500));
    const t = await captureTrajectory(async () => {
      const failure = await caught(() =>
        fake.client.chat.completions.create({ model: MODEL, messages: [user("one")] }),
      );
      expect(failure).toBeInstanceOf(InternalServerError);
      const controller = new AbortController();
      controller.abort();
      const aborted = await caught(() =>
        fake.client.chat.completions.create({ model: MODEL, messages: [user("two")] }, { signal: controller.signal }),
      );
      expect(aborted).toBeInstanceOf(APIUserAbortError);
      const stream = await fake.client.chat.completions.create({
        model: MODEL,
        messages: [user("three")],
        stream: true,
      });
      for await (const _ of stream) break;
      const cut = await fake.client.chat.completions.create({ model: MODEL, messages: [user("four")], stream: true });
      cut.abort();
      return 0;
    });
    expect(t.messages_and_choices).toEqual([]);
    expect(t.additional_histories).toEqual([]);
    expect(t.logs).toHaveLength(4);
    expect(t.logs[0]).toMatch(/^chat completion failed \(model Qwen\/Qwen3-8B, 1 messages\): InternalServerError: /);
    expect(t.logs[1]).toMatch(/: APIUserAbortError: /);
    expect(t.logs[2]).toMatch(/: APIUserAbortError: The stream was aborted/);
    expect(t.logs[3]).toMatch(/: APIUserAbortError: The stream was aborted/);
  });

  it("records nothing outside a capture, and a call still unread when the capture ends is left out", async () => {
    const before = new Trajectory();
    await fake.client.chat.completions.create({ model: MODEL, messages: [user("outside")] });
    expect(currentTrajectory()).toBeUndefined();
    let late: ChatCompletionStream | undefined;
    const t = await captureTrajectory(async () => {
      late = await fake.client.chat.completions.create({ model: MODEL, messages: [user("late")], stream: true });
    });
    await late!.finalCompletion();
    expect(t.messages_and_choices).toEqual([]);
    expect(before.messages_and_choices).toEqual([]);
  });

  it("100 concurrent captures never mix, and each fits gatherTrajectoryGroups as a rollout", async () => {
    const rollout = (i: number) => () =>
      captureTrajectory(
        async () => {
          const first = await fake.client.chat.completions.create({ model: MODEL, messages: [user(`echo p${i}`)] });
          await new Promise((r) => setTimeout(r, i % 7));
          const stream = await fake.client.chat.completions.create({
            model: MODEL,
            stream: true,
            messages: [user(`echo p${i}`), first.choices[0]!.message, user(`echo q${i}`)],
          });
          await stream.finalCompletion();
          return i;
        },
        { logprobs: true },
      );
    const groups = await gatherTrajectoryGroups(
      Array.from({ length: 10 }, (_, g) => Array.from({ length: 10 }, (_, j) => rollout(g * 10 + j))),
      { concurrency: 100 },
    );
    const all = groups.flatMap((g) => g.trajectories);
    expect(all).toHaveLength(100);
    all.forEach((t, i) => {
      expect(t.reward).toBe(i);
      expect(
        t.messages_and_choices.map((m) => ("role" in m ? m.content : (m as ChatCompletionChoice).message.content)),
      ).toEqual([`echo p${i}`, `p${i}`, `echo q${i}`, `q${i}`]);
      expect(t.additional_histories).toEqual([]);
    });
    const { id } = await fake.client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: groups });
    expect(fake.svc.trainingJobs.find((j) => j.id === id)!.rewards[3]).toEqual([
      30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
    ]);
  });

  it("refuses a rollout that is not a function, naming it", async () => {
    const err = await caught(() => captureTrajectory("agent" as never));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues[0]!.path).toBe("fn");
  });
});
