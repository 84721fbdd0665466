/**
 * Did training make the model better? Evaluate the base model in Weave, train a few RL steps
 * with `trainLoop`, evaluate the trained checkpoint on the same rows and scorers, and print the
 * comparison. Both runs show in Weave's Evals tab and open side by side in its Compare view.
 *
 *   npx tsx examples/eval-before-after.ts [--steps=3]
 *   INFERLOOP_BASE_URL=https://api.training.wandb.ai INFERLOOP_API_KEY=$WANDB_API_KEY \
 *     npx tsx examples/eval-before-after.ts --training-project=evals --base-model=OpenPipe/Qwen3-14B-Instruct
 */
import {
  type EvaluationRunParams,
  gatherTrajectoryGroups,
  type TrainLoopRolloutContext,
  Trajectory,
} from "../src/index.js";
import { runExample, trainingTarget } from "./_service.js";

const PROMPTS = [
  "Explain what a token is, briefly.",
  "Say something about streaming replies.",
  "Describe a good answer in a few words.",
];
const stepsArg = process.argv.find((a) => a.startsWith("--steps="));
const STEPS = stepsArg ? Number(stepsArg.slice("--steps=".length)) : 3;

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

await runExample(async ({ client, fake }) => {
  const target = trainingTarget(fake, "eval-demo");
  if (!target) {
    console.log("skipped: pass --training-project=... and --base-model=... (see trainableModels.baseModels())");
    return;
  }
  const model = await client.trainableModels.register({
    project: target.project,
    name: "brief",
    base_model: target.baseModel,
  });
  // Evaluations live in the model's own W&B project.
  const project_id = `${model.entity}/${model.project}`;
  const evaluate = (modelName: string) =>
    client.evaluations.run({ project_id, name: "brief-answers", dataset, model: modelName, scorers });
  const show = (label: string, run: { summary: Record<string, unknown>; rows: number; failed: number }) =>
    console.log(
      `${label}: ${Object.entries(run.summary)
        .map(([name, s]) => {
          const value = s as { mean?: number; true_fraction?: number };
          return `${name} ${(value.mean ?? value.true_fraction ?? 0).toFixed(2)}`;
        })
        .join(", ")} (${run.rows} rows, ${run.failed} failed)`,
    );

  // 1. The model as it is now.
  // (Before any checkpoint, the model's name without a step serves the base model.)
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
});
