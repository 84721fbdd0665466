/**
 * The RL loop, shared by `examples/rl-loop.ts` and the last step of `npm run demo`: roll out
 * groups of 4 replies per prompt, score them, train on them, then review the traced calls.
 */
import { gatherTrajectoryGroups, Trajectory, type Logger } from "../src/index.js";
import { reviewRollouts } from "./_review.js";
import type { ExampleService } from "./_service.js";
import { startTracing } from "./_tracing.js";

const PROMPTS = [
  "Explain what a token is, briefly.",
  "Say something about streaming replies.",
  "Describe a good answer in a few words.",
];
const ROLLOUTS_PER_PROMPT = 4;

/** The reward: replies of about 8 words score best, each word more or less costs 1/8. */
function reward(reply: string): number {
  const words = reply.split(/\s+/).filter(Boolean).length;
  return Math.round(Math.max(0, 1 - Math.abs(words - 8) / 8) * 100) / 100;
}

/**
 * Runs the loop and prints through `say`: the reward table, the job id, and the review of the
 * traced calls.
 */
export async function runRlLoop(service: ExampleService, say: (line: string) => void): Promise<void> {
  // The rollouts' chat calls are traced (with their messages) so the review can read them.
  const tracing = startTracing(service);
  const client = service.client.withOptions({ telemetry: { recordContent: true } });
  const { fake, model, trainingModelId } = service;
  // Findings of the training-job checks (flat groups, missing rewards...) print here.
  const logger: Logger = { error: say, warn: (m) => say(`log warn: ${m}`), info: () => {}, debug: () => {} };
  const logged = client.withOptions({ logLevel: "warn", logger });

  // 1. Rollouts: one function per sample, each a chat call with its own seed, recorded with the
  //    logprobs and token ids a trainer needs (Trajectory.sample asks for both).
  const groups = await gatherTrajectoryGroups(
    PROMPTS.map((prompt, p) =>
      Array.from({ length: ROLLOUTS_PER_PROMPT }, (_, seed) => async (signal: AbortSignal) => {
        const t = new Trajectory({
          messages_and_choices: [
            { role: "system", content: "Answer in one short sentence." },
            { role: "user", content: prompt },
          ],
          metadata: { prompt: p, seed },
        });
        const completion = await t.sample(
          client,
          { model, seed, temperature: 1, max_completion_tokens: 64 },
          { signal },
        );
        const reply = completion.choices[0]?.message.content ?? "";
        t.reward = reward(reply);
        t.metrics = {
          words: reply.split(/\s+/).filter(Boolean).length,
          completion_tokens: completion.usage?.completion_tokens ?? 0,
        };
        return t;
      }),
    ),
    { concurrency: 4, maxExceptions: 1 },
  );

  say("rewards per prompt (4 rollouts each):");
  groups.forEach((group, p) => {
    const rewards = group.trajectories.map((t) => (t.reward ?? 0).toFixed(2)).join("  ");
    say(`  ${PROMPTS[p]!.padEnd(40)} ${rewards}`);
  });

  // 2. Training: the gathered groups go in as they are.
  if (!trainingModelId) {
    say("training skipped: no model id (pass --training-model=UUID)");
  } else {
    const job = await logged.trainingJobs.create({ model_id: trainingModelId, trajectory_groups: groups });
    const tokens = groups.flatMap((g) => g.trajectories).reduce((n, t) => n + Number(t.metrics.completion_tokens), 0);
    say(`created RL training job ${job.id} from ${groups.length} groups, ${tokens} sampled tokens`);
    if (fake) {
      const kept = fake.trainingJobs.find((j) => j.id === job.id);
      const same =
        JSON.stringify(kept?.rewards) === JSON.stringify(groups.map((g) => g.trajectories.map((t) => t.reward)));
      say(`the fake service kept the job with ${same ? "the same" : "DIFFERENT"} rewards`);
    }
  }

  // 3. Review: the rollouts just traced, queried and annotated.
  await reviewRollouts(service, tracing, say);
}
