/** Trajectory: what it sends next, what it records, and the wire shape it gives. */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type ChatCompletion,
  type ChatCompletionChoice,
  RequestValidationError,
  Trajectory,
  type TrajectoryChoice,
  trajectorySchema,
} from "../../../src/index.js";

function choice(
  index: number,
  content: string | null,
  extra: Partial<ChatCompletionChoice> = {},
): ChatCompletionChoice {
  return {
    index,
    message: { role: "assistant", content },
    logprobs: { content: [{ token: content ?? "", logprob: -0.5, bytes: [52], top_logprobs: [] }] },
    finish_reason: "stop",
    stop_reason: null,
    token_ids: [19],
    ...extra,
  };
}

function completion(...choices: ChatCompletionChoice[]): ChatCompletion {
  return { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "m", choices };
}

describe("Trajectory.record", () => {
  it("appends choice 0 of a completion as received, logprobs, token ids and finish reason kept", () => {
    const t = new Trajectory({ messages_and_choices: [{ role: "user", content: "2+2?" }] });
    const c = completion(choice(0, "4"), choice(1, "5"));
    t.record(c);
    expect(t.messages_and_choices).toHaveLength(2);
    expect(t.messages_and_choices[1]).toEqual(c.choices[0]);
  });

  it("takes another choice by index, or a single choice", () => {
    const t = new Trajectory();
    t.record(completion(choice(0, "4"), choice(1, "5")), 1).record(choice(0, "6"));
    expect(t.messages_and_choices.map((c) => (c as ChatCompletionChoice).message.content)).toEqual(["5", "6"]);
  });

  it("refuses a choice index the completion does not have, naming the ones it has", () => {
    const t = new Trajectory();
    expect(() => t.record(completion(choice(0, "4")), 2)).toThrow(RequestValidationError);
    expect(() => t.record(completion(choice(0, "4")), 2)).toThrow(/no choice with index 2 \(it has: 0\)/);
    expect(t.messages_and_choices).toEqual([]);
  });

  it("refuses a choice that never finished", () => {
    const t = new Trajectory();
    expect(() => t.record(choice(0, "4", { finish_reason: null }))).toThrow(/did not finish/);
    expect(t.messages_and_choices).toEqual([]);
  });
});

describe("Trajectory.messages", () => {
  it("turns recorded choices back into assistant messages with tool calls and reasoning", () => {
    const t = new Trajectory({ messages_and_choices: [{ role: "user", content: "weather in Paris?" }] });
    const toolCall = {
      id: "call-1",
      type: "function" as const,
      function: { name: "weather", arguments: '{"city":"Paris"}' },
    };
    t.record(
      choice(0, null, {
        message: { role: "assistant", content: null, tool_calls: [toolCall], reasoning: "use the tool" },
      }),
    );
    t.messages_and_choices.push({ role: "tool", tool_call_id: "call-1", content: "18 C" });
    t.record(
      choice(0, "18 C and cloudy", {
        message: { role: "assistant", content: "18 C and cloudy", reasoning_content: "read it" },
      }),
    );
    expect(t.messages()).toEqual([
      { role: "user", content: "weather in Paris?" },
      { role: "assistant", content: null, tool_calls: [toolCall], reasoning: "use the tool" },
      { role: "tool", tool_call_id: "call-1", content: "18 C" },
      { role: "assistant", content: "18 C and cloudy", reasoning: "read it" },
    ]);
  });

  it("sends an empty reply as empty text, which the server accepts", () => {
    const t = new Trajectory().record(choice(0, null, { finish_reason: "length" }));
    expect(t.messages()).toEqual([{ role: "assistant", content: "" }]);
  });
});

describe("Trajectory.toJSON", () => {
  it("gives the wire shape, accepted by the trajectory schema, sharing the recorded lists", () => {
    const t = new Trajectory({
      messages_and_choices: [{ role: "user", content: "2+2?" }],
      tools: [{ type: "function", function: { name: "add" } }],
      initial_policy_version: 3,
      start_time: new Date("2025-03-18T17:04:12Z"),
    });
    t.record(completion(choice(0, "4")));
    t.reward = 1;
    t.metrics.correct = true;
    t.metadata.prompt = 7;
    t.logs.push("scored");
    const json = t.toJSON();
    expect(trajectorySchema.safeParse(json).success).toBe(true);
    expect(json).toEqual({
      messages_and_choices: t.messages_and_choices,
      tools: [{ type: "function", function: { name: "add" } }],
      reward: 1,
      initial_policy_version: 3,
      metrics: { correct: true },
      metadata: { prompt: 7 },
      logs: ["scored"],
      start_time: "2025-03-18T17:04:12.000Z",
    });
    expect(json.messages_and_choices).toBe(t.messages_and_choices);
    expect(JSON.parse(JSON.stringify(t))).toEqual(JSON.parse(JSON.stringify(json)));
  });

  it("leaves out a reward that was never set, so the checks can flag it", () => {
    expect(new Trajectory().toJSON()).not.toHaveProperty("reward");
  });
});

describe("Trajectory types", () => {
  it("types a recorded choice's logprob entries", () => {
    const t = new Trajectory().record(choice(0, "4"));
    const item = t.messages_and_choices[0]!;
    if (!("message" in item)) throw new Error("expected a choice");
    const first = (item as TrajectoryChoice).logprobs?.content?.[0];
    expectTypeOf(first?.logprob).toEqualTypeOf<number | undefined>();
    expect(first?.logprob).toBe(-0.5);
  });
});
