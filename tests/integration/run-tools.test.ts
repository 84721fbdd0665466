/**
 * runTools over real HTTP to the fake service (which calls a tool named in the question, then
 * answers with the tool's result): inside captureTrajectory a run is one trajectory with every
 * assistant choice kept, logprobs and token ids included; streamed model calls record the same.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  captureTrajectory,
  type ChatCompletionChoice,
  gatherTrajectoryGroups,
  isTrajectoryChoice,
  tool,
} from "../../src/index.js";
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
