/**
 * The RL loop, shared by `examples/rl-loop.ts` and the last step of `npm run demo`: register a
 * trainable model, then step after step roll out groups of 4 replies per prompt on the model's
 * latest checkpoint, score them, train on them (with a live progress line), and finally chart
 * the mean reward per step and review the traced calls.
 *
 * Re-run against a real service, it resumes from the model's latest step.
 */
import {
  gatherTrajectoryGroups,
  type Inferloop,
  type TrainableModel,
  Trajectory,
  type TrajectoryGroup,
} from "../src/index.js";
import { reviewRollouts } from "./_review.js";
import { type ExampleService, trainingTarget } from "./_service.js";
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

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** One bar per step, scaled to the best reward (1). */
function chart(means: Array<[number, number]>, say: (line: string) => void): void {
  const width = 30;
  say("mean reward per step:");
  for (const [step, m] of means) {
    const full = Math.round(m * width);
    say(`  step ${String(step).padStart(2)} │${"█".repeat(full)}${"░".repeat(width - full)} ${m.toFixed(2)}`);
  }
}

/** Groups of rollouts on `name`: one chat call per sample, each with its own seed. */
async function rollOut(client: Inferloop, name: string): Promise<TrajectoryGroup[]> {
  return gatherTrajectoryGroups(
    PROMPTS.map((prompt, p) =>
      Array.from({ length: ROLLOUTS_PER_PROMPT }, (_, seed) => async (signal: AbortSignal) => {
        const t = new Trajectory({
          messages_and_choices: [
            { role: "system", content: "Answer in one short sentence." },
            { role: "user", content: prompt },
          ],
          metadata: { prompt: p, seed },
        });
        // Trajectory.sample asks for the logprobs and token ids a trainer needs.
        const completion = await t.sample(
          client,
          { model: name, seed, temperature: 1, max_completion_tokens: 64 },
          { signal },
        );
        const reply = completion.choices[0]?.message.content ?? "";
        t.reward = reward(reply);
        t.metrics = { words: reply.split(/\s+/).filter(Boolean).length };
        return t;
      }),
    ),
    { concurrency: 4, maxExceptions: 1 },
  );
}

/** Options of {@link runRlLoop}. */
export interface RlLoopOptions {
  /** Training steps to run in this run (default 4). */
  steps?: number;
  /** Rewrites the current terminal line (a live progress line); absent: one line per job. */
  progress?: (line: string) => void;
}

/**
 * Runs the loop and prints through `say`: the reward table of each step, the training jobs with
 * their progress, a chart of the mean reward per step, and the review of the traced calls.
 */
export async function runRlLoop(
  service: ExampleService,
  say: (line: string) => void,
  options: RlLoopOptions = {},
): Promise<void> {
  const { fake } = service;
  const target = trainingTarget(fake, "rl-demo");
  if (!target) {
    say("training skipped: pass --training-project=... and --base-model=... (see trainableModels.baseModels())");
    return;
  }
  const { project, baseModel } = target;
  // The rollouts' chat calls are traced (with their messages) so the review can read them.
  const tracing = startTracing(service);
  // Findings about a job (a group whose rewards are all equal teaches nothing) come through this
  // logger, in the loop's own output; without a logger each kind is a process warning, once.
  const ignore = () => {};
  const client = service.client.withOptions({
    telemetry: { recordContent: true },
    logLevel: "warn",
    logger: { error: say, warn: (line) => say(`  ${line}`), info: ignore, debug: ignore },
  });

  // 1. Register: idempotent by name, so a re-run gets the same model and its checkpoints.
  const model: TrainableModel = await client.trainableModels.register({
    project,
    name: "agent",
    base_model: baseModel,
  });
  const start = await model.latestStep();
  say(`model ${model.inferenceName()} (id ${model.id}), ${start === 0 ? "untrained" : `resuming from step ${start}`}`);
  const steps = options.steps ?? 4;
  const means: Array<[number, number]> = [];

  for (let step = start; step < start + steps; step++) {
    // 2. Roll out on the latest checkpoint: the same name serves each new step as it lands.
    const groups = await rollOut(client, model.inferenceName());
    const rewards = groups.map((g) => g.trajectories.map((t) => t.reward ?? 0));
    means.push([step, mean(rewards.flat())]);
    say(
      `step ${step}: rewards per prompt (${ROLLOUTS_PER_PROMPT} rollouts each), mean ${mean(rewards.flat()).toFixed(2)}`,
    );
    groups.forEach((_, p) => say(`  ${PROMPTS[p]!.padEnd(40)} ${rewards[p]!.map((r) => r.toFixed(2)).join("  ")}`));

    // 3. Train: create the job and follow its events until it ends.
    let total = 0;
    let done = 0;
    let loss = Number.NaN;
    const line = () =>
      `  training: ${done}/${total} gradient steps, loss ${Number.isNaN(loss) ? "-" : loss.toFixed(4)}`;
    const result = await model.train(groups, {
      pollInterval: fake ? 20 : 2_000,
      onEvent: (event) => {
        if (event.type === "training_started") total = Number(event.data.num_sequences ?? 0);
        if (event.type === "gradient_step") {
          done++;
          if (typeof event.data.loss === "number") loss = event.data.loss;
        }
        options.progress?.(line());
      },
    });
    options.progress?.("");
    say(line());
    say(`  created RL training job ${result.jobId} from ${groups.length} groups → step ${result.step}`);
  }
  const last = await rollOut(client, model.inferenceName());
  means.push([start + steps, mean(last.flatMap((g) => g.trajectories.map((t) => t.reward ?? 0)))]);
  chart(means, say);
  const [first, final] = [means[0]![1], means.at(-1)![1]];
  say(
    `mean reward ${first.toFixed(2)} → ${final.toFixed(2)} over ${steps} steps${fake ? " (the fake's simulated learning)" : ""}`,
  );

  // 4. Review: the rollouts just traced, queried and annotated.
  await reviewRollouts(service, tracing, say);
}
