/**
 * Did training make the model better? Evaluate the base model in Weave, train a few RL steps
 * with `trainLoop`, evaluate the trained checkpoint on the same rows and scorers, and print the
 * comparison. Both runs show in Weave's Evals tab and open side by side in its Compare view.
 *
 *   npx tsx eval-before-after.ts          (needs: npm install inferloop tsx)
 *
 * On W&B (WANDB_API_KEY set), name where to train: INFERLOOP_TRAINING_PROJECT (a project) and
 * INFERLOOP_BASE_MODEL (one of `client.trainableModels.baseModels()`); the evaluations go to that
 * project in Weave.
 */
import {
  type EvaluationRunParams,
  gatherTrajectoryGroups,
  Inferloop,
  type TrainLoopRolloutContext,
  Trajectory,
} from "inferloop";
import { DEFAULT_BASE_MODELS, startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback, which trains in moments.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const project = process.env.INFERLOOP_TRAINING_PROJECT ?? (fake ? "eval-demo" : undefined);
const baseModel = process.env.INFERLOOP_BASE_MODEL ?? (fake ? DEFAULT_BASE_MODELS[0] : undefined);

const PROMPTS = [
  "Explain what a token is, briefly.",
  "Say something about streaming replies.",
  "Describe a good answer in a few words.",
];
const STEPS = 3;

const words = (text: unknown) =>
  String(text ?? "")
    .split(/\s+/)
    .filter(Boolean).length;
/** Replies of about 8 words score best; each word more or less costs 1/8. */
const lengthFit = (text: unknown) => Math.max(0, 1 - Math.abs(words(text) - 8) / 8);

type Row = { prompt: string };
const dataset: Row[] = PROMPTS.map((prompt) => ({ prompt }));
const scorers: EvaluationRunParams<Row, string | null>["scorers"] = {
  length_fit: ({ output }) => lengthFit(output),
  concise: ({ output }) => words(output) <= 12,
};

/** Each scorer's mean (or fraction true), and how many rows. */
function show(label: string, run: { summary: Record<string, unknown>; rows: number; failed: number }): void {
  const scores = Object.entries(run.summary).map(([name, s]) => {
    const value = s as { mean?: number; true_fraction?: number };
    return `${name} ${(value.mean ?? value.true_fraction ?? 0).toFixed(2)}`;
  });
  console.log(`${label}: ${scores.join(", ")} (${run.rows} rows, ${run.failed} failed)`);
}

try {
  if (!project || !baseModel) {
    console.log("skipped: set INFERLOOP_TRAINING_PROJECT and INFERLOOP_BASE_MODEL (see trainableModels.baseModels())");
  } else {
    const model = await client.trainableModels.register({ project, name: "brief", base_model: baseModel });
    // The evaluations go to the model's own project in Weave.
    const project_id = `${model.entity}/${model.project}`;
    const evaluate = (modelName: string) =>
      client.evaluations.run({ project_id, name: "brief-answers", dataset, model: modelName, scorers });

    // 1. The model as it is now (before any checkpoint, its name without a step serves the base model).
    const start = await model.latestStep();
    const before = await evaluate(start === 0 ? model.inferenceName() : model.inferenceName(start));
    show(`before training (step ${start})`, before);

    // 2. A few RL steps: 4 replies per prompt, rewarded like the length_fit scorer.
    const rollouts = ({ modelName, signal, onProgress }: TrainLoopRolloutContext) =>
      gatherTrajectoryGroups(
        PROMPTS.map((prompt) =>
          [0, 1, 2, 3].map((seed) => async (inner: AbortSignal) => {
            const t = new Trajectory({ messages_and_choices: [{ role: "user", content: prompt }] });
            const reply = await t.sample(client, { model: modelName, seed, temperature: 1 }, { signal: inner });
            t.reward = lengthFit(reply.choices[0]?.message.content);
            return t;
          }),
        ),
        { signal, onProgress },
      );
    let last = start;
    for await (const s of model.trainLoop({
      steps: start + STEPS,
      maxStepsOffPolicy: 1,
      rollouts,
      pollInterval: fake ? 10 : 2_000,
      // On a real service the loop keeps its job in flight in .inferloop/ (a re-run after Ctrl-C
      // follows it); the fake forgets its jobs when it closes, so there is nothing to keep.
      ...(fake ? { state: false as const } : {}),
    })) {
      console.log(`trained step ${s.step} (sampled step ${s.sampledStep}), mean reward ${s.reward?.toFixed(2)}`);
      last = s.step;
    }

    // 3. The trained checkpoint, on the same rows and scorers.
    const after = await evaluate(model.inferenceName(last));
    show(`after training (step ${last})`, after);

    // 4. Side by side: per scorer, and which run did better on each row.
    const comparison = await client.evaluations.compare({ project_id, baseline: before.id, candidate: after.id });
    console.log(comparison.format());
    console.log(`in Weave: project ${project_id}, evaluations ${before.id} and ${after.id}`);
  }
} finally {
  await fake?.close();
}
