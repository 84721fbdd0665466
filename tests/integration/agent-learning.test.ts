/**
 * docs/agents-and-rewards.md's loop, as written there, over real HTTP against the fake service:
 * seeded rollouts of one question call the tool differently (the fake's arguments follow the
 * schema and the seed), RULER on the fake ranks the calls that failed below the ones that did
 * not, and the trained checkpoints call the way that scored well more often, so the mean
 * reward rises step after step.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { captureTrajectory, gatherTrajectoryGroups, rulerScoreGroup, tool } from "../../src/index.js";
import { MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });

// From the page: a search that knows three cities and says so when asked about another.
const NOTES: Record<string, string[]> = {
  Paris: ["a capital", "has a river"],
  Lima: ["a capital", "on the coast"],
  Oslo: ["a capital", "has a fjord"],
};
const lookup = tool({
  name: "lookup",
  description: "Notes about a city",
  parameters: z.object({ city: z.string() }),
  run: ({ city }) => {
    const notes = NOTES[city];
    if (notes === undefined) throw new Error(`no notes about ${city}; ask about ${Object.keys(NOTES).join(", ")}`);
    return { city, notes };
  },
});

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function learn(steps: number) {
  const { client } = fake;
  const judgeModel = MODEL;
  const trainable = await client.trainableModels.register({
    project: "agents",
    name: "lookup-agent",
    base_model: "OpenPipe/Qwen3-14B-Instruct",
  });
  const rollout = (city: string, seed: number) => (signal: AbortSignal) =>
    captureTrajectory(
      async () => {
        await client.chat.completions
          .runTools(
            {
              model: trainable.inferenceName(),
              messages: [{ role: "user", content: `What does lookup say about ${city}?` }],
              tools: [lookup],
              seed,
              temperature: 1,
            },
            { signal, maxIterations: 4 },
          )
          .done();
      },
      { logprobs: true },
    );

  const means: number[] = [];
  const trained: number[] = [];
  for (let step = await trainable.latestStep(); step < steps; step++) {
    const rewards: number[] = [];
    const groups = await gatherTrajectoryGroups(
      Object.keys(NOTES).map((city) => Array.from({ length: 8 }, (_, seed) => rollout(city, seed))),
      {
        afterEach: async (group) => {
          const scored = await rulerScoreGroup(group, { client, model: judgeModel, swallowErrors: true });
          rewards.push(...(scored?.trajectories.map((t) => t.reward ?? 0) ?? []));
          return scored && new Set(scored.trajectories.map((t) => t.reward)).size > 1 ? scored : null;
        },
      },
    );
    means.push(Math.round(mean(rewards) * 1000) / 1000);
    if (groups.length > 0) trained.push((await trainable.train(groups)).step);
  }
  return { means, trained };
}

describe("the agent loop of docs/agents-and-rewards.md on the fake service", () => {
  it("learns: rollouts differ, the judge ranks them apart, and the mean reward rises step after step", async () => {
    fake.svc.state.trainable.stepMs = 0;
    const { means, trained } = await learn(4);
    expect(trained).toEqual([1, 2, 3, 4]);
    // The base model calls lookup with the city most of the time, not always.
    expect(means[0]).toBeGreaterThan(0.3);
    expect(means[0]).toBeLessThan(0.95);
    for (let i = 1; i < means.length; i++) expect(means[i]).toBeGreaterThan(means[i - 1]!);
    expect(means.at(-1)! - means[0]!).toBeGreaterThan(0.15);
  });

  it("runs the same way twice: the seeds decide every rollout", async () => {
    fake.svc.state.trainable.stepMs = 0;
    const first = await learn(2);
    fake.svc.reset();
    fake.svc.state.trainable.stepMs = 0;
    expect(await learn(2)).toEqual(first);
  });
});
