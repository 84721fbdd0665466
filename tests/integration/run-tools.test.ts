/**
 * runTools over real HTTP to the fake service (which calls a tool named in the question, then
 * answers with the tool's result): inside captureTrajectory a run is one trajectory with every
 * assistant choice kept, logprobs and token ids included; streamed model calls record the same.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type ChatCompletionChoice,
  captureTrajectory,
  gatherTrajectoryGroups,
  isTrajectoryChoice,
  tool,
} from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { captureWarnings } from "../warnings.js";
import { MODEL, MODEL_ID, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

const getWeather = tool({
  name: "get_weather",
  description: "Current weather in a city",
  parameters: z.object({ city: z.string() }),
  run: ({ city }) => ({ city, celsius: 21 }),
});
const question = [{ role: "user" as const, content: "What does get_weather say for Paris?" }];
const kinds = (items: readonly unknown[]) =>
  items.map((m) =>
    m !== null && typeof m === "object" && "role" in m
      ? (m as { role: string }).role
      : `choice:${(m as ChatCompletionChoice).finish_reason}`,
  );

describe("runTools inside captureTrajectory", () => {
  for (const stream of [false, true]) {
    it(`records the run as one trajectory, every choice kept with logprobs and token ids (${stream ? "streamed" : "plain"} calls)`, async () => {
      const trajectory = await captureTrajectory(
        async () => {
          const run = fake.client.chat.completions.runTools({
            model: MODEL,
            messages: question,
            tools: [getWeather],
            stream,
          });
          const { messages, iterations } = await run.done();
          expect(iterations).toBe(2);
          expect(messages.at(-1)).toMatchObject({
            role: "assistant",
            content: 'The tool answered: {"city":"Paris","celsius":21}',
          });
          return 1;
        },
        { logprobs: true },
      );
      expect(kinds(trajectory.messages_and_choices)).toEqual(["user", "choice:tool_calls", "tool", "choice:stop"]);
      expect(trajectory.additional_histories).toEqual([]);
      expect(trajectory.tools).toEqual([JSON.parse(JSON.stringify(getWeather))]);
      const choices = trajectory.messages_and_choices.filter(isTrajectoryChoice) as ChatCompletionChoice[];
      expect(choices).toHaveLength(2);
      for (const choice of choices) {
        expect(choice.token_ids!.length).toBeGreaterThan(0);
        expect(choice.logprobs!.content).toHaveLength(choice.token_ids!.length);
      }
      expect(trajectory.reward).toBe(1);
    });
  }

  it("gathered runs train", async () => {
    const rollout = () =>
      captureTrajectory(
        async () => {
          const { messages } = await fake.client.chat.completions
            .runTools({ model: MODEL, messages: question, tools: [getWeather] })
            .done();
          return String(messages.at(-1)?.content).includes("21") ? 1 : 0;
        },
        { logprobs: true },
      );
    const groups = await gatherTrajectoryGroups([[rollout, rollout]]);
    // Both rollouts score 1: the SDK says the group teaches nothing, and still sends it.
    const warnings = captureWarnings();
    const { id } = await fake.client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: groups });
    expect(fake.svc.trainingJobs.find((j) => j.id === id)!.rewards).toEqual([[1, 1]]);
    expect(warnings.codes()).toEqual(["INFERLOOP_UNIFORM_REWARDS"]);
  });
});

describe("a tool described by a plain JSON Schema", () => {
  const ran: unknown[] = [];
  const calc = tool<{ op: "+" | "-" | "*" | "/"; a: number; b: number }>({
    name: "calc",
    description: "Arithmetic on two numbers",
    parameters: {
      type: "object",
      properties: { op: { enum: ["+", "-", "*", "/"] }, a: { type: "number" }, b: { type: "number" } },
      required: ["op", "a", "b"],
      additionalProperties: false,
    },
    run: (args) => {
      ran.push(args);
      const { op, a, b } = args;
      return op === "+" ? a + b : op === "-" ? a - b : op === "*" ? a * b : a / b;
    },
  });
  const ask = [{ role: "user" as const, content: "What is 12 * 7? Use calc." }];

  it("runs a call that satisfies the schema", async () => {
    ran.length = 0;
    const { messages } = await fake.client.chat.completions
      .runTools({ model: MODEL, messages: ask, tools: [calc] })
      .done();
    expect(ran).toEqual([{ op: "*", a: 12, b: 7 }]);
    expect(messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: expect.any(String), content: "84" },
      { role: "assistant", content: "The tool answered: 84" },
    ]);
  });

  it("answers a value outside the enum with a tool message naming the argument and the allowed values; the tool does not run", async () => {
    ran.length = 0;
    const call = { id: "call-1", type: "function", function: { name: "calc", arguments: '{"op":"Use","a":12,"b":7}' } };
    fake.svc.inject(
      faults.body(
        JSON.stringify({
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1,
          model: MODEL,
          choices: [
            {
              index: 0,
              finish_reason: "tool_calls",
              message: { role: "assistant", content: null, tool_calls: [call] },
            },
          ],
        }),
        { path: "/v1/chat/completions", times: 1, headers: { "content-type": "application/json" } },
      ),
    );
    const { messages } = await fake.client.chat.completions
      .runTools({ model: MODEL, messages: ask, tools: [calc] })
      .done();
    expect(ran).toEqual([]);
    const answer = 'Error: invalid arguments for calc: op: Instance does not match any of ["+","-","*","/"]';
    expect(messages[2]).toEqual({ role: "tool", tool_call_id: "call-1", content: answer });
    // The model read it: the next request carried it.
    const second = fake.svc.requests.filter((r) => r.path === "/v1/chat/completions")[1]!.json as {
      messages: unknown[];
    };
    expect(second.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call-1", content: answer });
  });
});
