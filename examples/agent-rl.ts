/**
 * An agent trained with no reward function written: each rollout is `runTools` (the model calls
 * a `lookup` tool, reads its notes, answers) inside `captureTrajectory`, so every reply is kept
 * with its logprobs and token ids; each group is judged by RULER as soon as its rollouts end
 * (gather's `afterEach`), and the judged groups train the model, step after step, with the mean
 * reward charted. On the fake service the judge is the fake's own fixed rule (an answer after a
 * failed tool call scores less, a direct answer more), the rollouts of a city differ by their
 * seed (the fake samples tool arguments with it: some ask lookup about the wrong word), and each
 * trained step calls lookup the way that scored well more often.
 *
 *   npx tsx examples/agent-rl.ts [--steps=3]
 *   INFERLOOP_BASE_URL=https://api.training.wandb.ai INFERLOOP_API_KEY=$WANDB_API_KEY \
 *     npx tsx examples/agent-rl.ts --training-project=rl --base-model=OpenPipe/Qwen3-14B-Instruct --model=JUDGE
 */
import { z } from "zod";
import { captureTrajectory, currentTrajectory, gatherTrajectoryGroups, rulerScoreGroup, tool } from "../src/index.js";
import { runExample, setting } from "./_service.js";

const CITIES = ["Paris", "Lima", "Oslo"];
const ROLLOUTS_PER_CITY = 4;
const NOTES: Record<string, string[]> = {
  Paris: ["it is a capital", "it has a river"],
  Lima: ["it is a capital", "it is on the coast"],
  Oslo: ["it is a capital", "it has a fjord"],
};

/** A small search that knows three cities and says so when asked about anything else. */
const lookup = tool({
  name: "lookup",
  description: "Notes about a city",
  parameters: z.object({ city: z.string() }),
  run: ({ city }) => {
    const notes = NOTES[city];
    if (notes === undefined) throw new Error(`no notes about ${city}; ask about ${CITIES.join(", ")}`);
    return { city, notes };
  },
});

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

await runExample(async (service) => {
  const { client, fake } = service;
  const steps = Number(process.argv.find((a) => a.startsWith("--steps="))?.slice("--steps=".length) ?? 3);
  const baseModel = setting("baseModel") ?? (fake ? "OpenPipe/Qwen3-14B-Instruct" : undefined);
  const project = setting("trainingProject") ?? (fake ? "agent-rl" : undefined);
  if (!baseModel || !project) {
    console.log("pass --training-project=... and --base-model=... to train on a real service");
    return;
  }
  const model = await client.trainableModels.register({ project, name: "lookup-agent", base_model: baseModel });
  // The judge: any chat model the client reaches (the fake judges RULER requests itself).
  const judge = { client, model: service.model };
  const means: Array<[number, number]> = [];
  const first = await model.latestStep();

  for (let step = first; step < first + steps; step++) {
    const uniform: string[] = [];
    const judged: number[] = [];
    const groups = await gatherTrajectoryGroups(
      CITIES.map((city) =>
        Array.from(
          { length: ROLLOUTS_PER_CITY },
          (_, i) => (signal: AbortSignal) =>
            captureTrajectory(
              async () => {
                const run = client.chat.completions.runTools(
                  {
                    model: model.inferenceName(),
                    messages: [
                      { role: "system", content: "Answer questions about cities. Use lookup first." },
                      { role: "user", content: `What does lookup say about ${city}?` },
                    ],
                    tools: [lookup],
                    seed: i,
                    temperature: 1,
                  },
                  { signal, maxIterations: 4 },
                );
                const { iterations } = await run.done();
                currentTrajectory()!.metrics.model_calls = iterations;
              },
              { metadata: { city, rollout: i }, logprobs: true },
            ),
        ),
      ),
      {
        concurrency: 6,
        // Each group is judged as soon as its own rollouts have ended; a group whose rollouts
        // all score the same teaches nothing (every advantage is 0), so it is dropped.
        afterEach: async (group) => {
          const scored = await rulerScoreGroup(group, { ...judge, swallowErrors: true });
          const rewards = scored?.trajectories.map((t) => t.reward ?? 0) ?? [];
          judged.push(...rewards);
          if (new Set(rewards).size <= 1) {
            uniform.push(`${group.trajectories[0]?.metadata.city ?? "?"}`);
            return null;
          }
          return scored;
        },
      },
    );
    means.push([step, mean(judged)]);
    const kept = groups.flatMap((g) => g.trajectories).flatMap((t) => t.messages_and_choices);
    const choices = kept.filter((item) => !("role" in item)).length;
    console.log(
      `step ${step}: ${judged.length} rollouts judged by RULER (mean ${mean(judged).toFixed(2)}), ${choices} choices kept with logprobs` +
        (uniform.length > 0 ? `; dropped (all alike): ${uniform.join(", ")}` : ""),
    );
    const sample = groups[0]?.trajectories[0];
    if (sample) console.log(`  ${sample.logs.at(-1)}`);
    if (groups.length === 0) {
      console.log("  nothing left to learn from: every group scored alike");
      continue;
    }
    const result = await model.train(groups, { pollInterval: fake ? 20 : 2_000 });
    console.log(`  trained → step ${result.step}`);
  }

  console.log("mean RULER reward per step:");
  for (const [step, m] of means) {
    const bar = Math.round(m * 30);
    console.log(`  step ${String(step).padStart(2)} │${"█".repeat(bar)}${"░".repeat(30 - bar)} ${m.toFixed(2)}`);
  }
});
