/**
 * The RL loop, closed, with `model.trainLoop`: register a trainable model, then step after step
 * roll out groups of 4 replies per prompt on its newest checkpoint, score them, train on them
 * with a live progress line, and chart the mean reward per step. Stopped and re-run against a
 * real service, it resumes from the model's latest step.
 *
 *   npx tsx rl-loop.ts [--steps=4]          (needs: npm install inferloop tsx)
 *
 * On W&B (WANDB_API_KEY set), name where to train: INFERLOOP_TRAINING_PROJECT (a project) and
 * INFERLOOP_BASE_MODEL (one of `client.trainableModels.baseModels()`).
 */
import { gatherTrajectoryGroups, Inferloop, type TrainableModel, Trajectory } from "inferloop";
import { DEFAULT_BASE_MODELS, startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback, which trains in moments.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
// Findings about a job (a group whose rewards are all equal teaches nothing) come through this
// logger, in the loop's own output; without a logger each kind is a process warning, once.
const ignore = () => {};
const client = new Inferloop({
  ...(fake ? { baseURL: fake.url, apiKey: fake.apiKey } : {}),
  logLevel: "warn",
  logger: { error: console.error, warn: (line) => console.log(`  ${line}`), info: ignore, debug: ignore },
});
const project = process.env.INFERLOOP_TRAINING_PROJECT ?? (fake ? "rl-demo" : undefined);
const baseModel = process.env.INFERLOOP_BASE_MODEL ?? (fake ? DEFAULT_BASE_MODELS[0] : undefined);
const steps = Number(process.argv.find((a) => a.startsWith("--steps="))?.slice("--steps=".length) ?? 4);
// On a terminal, one progress line that updates in place; in a log, one line per job.
const live = process.stdout.isTTY === true;

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

/**
 * Groups of rollouts of `modelName`: one chat call per sample, each with its own seed, through
 * the model's own chat (the host that serves its checkpoints: W&B Training on W&B).
 */
function rollOut(model: TrainableModel, modelName: string, signal?: AbortSignal) {
  return gatherTrajectoryGroups(
    PROMPTS.map((prompt, p) =>
      Array.from({ length: ROLLOUTS_PER_PROMPT }, (_, seed) => async (rolloutSignal: AbortSignal) => {
        const t = new Trajectory({
          messages_and_choices: [
            { role: "system", content: "Answer in one short sentence." },
            { role: "user", content: prompt },
          ],
          metadata: { prompt: p, seed },
        });
        // Trajectory.sample asks for the logprobs and token ids a trainer needs.
        const completion = await t.sample(
          model,
          { model: modelName, seed, temperature: 1, max_completion_tokens: 64 },
          { signal: rolloutSignal },
        );
        const reply = completion.choices[0]?.message.content ?? "";
        t.reward = reward(reply);
        t.metrics = { words: reply.split(/\s+/).filter(Boolean).length };
        return t;
      }),
    ),
    { concurrency: 4, maxExceptions: 1, ...(signal ? { signal } : {}) },
  );
}

try {
  if (!project || !baseModel) {
    console.log("skipped: set INFERLOOP_TRAINING_PROJECT and INFERLOOP_BASE_MODEL (see trainableModels.baseModels())");
    process.exit(0);
  }
  console.log(`running against ${client.trainingBaseURL}`);
  // Register: idempotent by name, so a re-run gets the same model and its checkpoints.
  const model = await client.trainableModels.register({ project, name: "agent", base_model: baseModel });
  const start = await model.latestStep();
  console.log(
    `model ${model.inferenceName()} (id ${model.id}), ${start === 0 ? "untrained" : `resuming from step ${start}`}`,
  );

  const means: Array<[number, number]> = [];
  let total = 0;
  let done = 0;
  let loss = Number.NaN;
  const progress = () =>
    `  training: ${done}/${total} gradient steps, loss ${Number.isNaN(loss) ? "-" : loss.toFixed(4)}`;

  // Each step: roll out on the newest checkpoint (`modelName`), then a job trains on the groups.
  // `maxStepsOffPolicy: 0` waits for each job before sampling again (strictly on-policy).
  for await (const s of model.trainLoop({
    steps: start + steps,
    maxStepsOffPolicy: 0,
    pollInterval: fake ? 20 : 2_000,
    rollouts: async ({ sampledStep, modelName, signal }) => {
      const groups = await rollOut(model, modelName, signal);
      const rewards = groups.map((g) => g.trajectories.map((t) => t.reward ?? 0));
      means.push([sampledStep, mean(rewards.flat())]);
      console.log(
        `step ${sampledStep}: rewards per prompt (${ROLLOUTS_PER_PROMPT} rollouts each), mean ${mean(rewards.flat()).toFixed(2)}`,
      );
      groups.forEach((_, p) =>
        console.log(`  ${PROMPTS[p]!.padEnd(40)} ${rewards[p]!.map((r) => r.toFixed(2)).join("  ")}`),
      );
      [total, done, loss] = [0, 0, Number.NaN];
      return groups;
    },
    // The job's events, as they arrive: a progress line.
    onEvent: (event) => {
      if (event.type !== "job") return;
      if (event.event.type === "training_started") total = Number(event.event.data.num_sequences ?? 0);
      if (event.event.type === "gradient_step") {
        done++;
        if (typeof event.event.data.loss === "number") loss = event.event.data.loss;
      }
      if (live) process.stdout.write(`\r\x1b[2K${progress()}`);
    },
  })) {
    if (live) process.stdout.write("\r\x1b[2K");
    console.log(progress());
    console.log(`  created RL training job ${s.jobId} from ${PROMPTS.length} groups → step ${s.step}`);
  }

  // The last step trained, sampled the same way, then the chart.
  const last = await rollOut(model, model.inferenceName());
  means.push([start + steps, mean(last.flatMap((g) => g.trajectories.map((t) => t.reward ?? 0)))]);
  console.log("mean reward per step:");
  for (const [step, m] of means) {
    const full = Math.round(m * 30);
    console.log(`  step ${String(step).padStart(2)} │${"█".repeat(full)}${"░".repeat(30 - full)} ${m.toFixed(2)}`);
  }
  const [first, final] = [means[0]![1], means.at(-1)![1]];
  console.log(
    `mean reward ${first.toFixed(2)} → ${final.toFixed(2)} over ${steps} steps${fake ? " (the fake's simulated learning)" : ""}`,
  );
} finally {
  await fake?.close();
}
