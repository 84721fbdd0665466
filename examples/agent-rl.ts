/**
 * An agent trained with no reward function written: each rollout is `runTools` (the model calls
 * a `lookup` tool, reads its notes, answers) inside `captureTrajectory`, so every reply is kept
 * with its logprobs and token ids; each group is judged by RULER as soon as its rollouts end
 * (gather's `afterEach`), and `model.trainLoop` trains on the judged groups step after step,
 * sampling the next step while a job trains (`maxStepsOffPolicy: 1`), with the mean reward
 * charted. On the fake service the judge is the fake's own fixed rule (an answer after a
 * failed tool call scores less, a direct answer more), the rollouts of a city differ by their
 * seed (the fake samples tool arguments with it: some ask lookup about the wrong word), and each
 * trained step calls lookup the way that scored well more often.
 *
 *   npx tsx agent-rl.ts [--steps=3]          (needs: npm install inferloop zod tsx)
 *
 * On W&B (WANDB_API_KEY set), name where to train, INFERLOOP_TRAINING_PROJECT (a project) and
 * INFERLOOP_BASE_MODEL (one of `client.trainableModels.baseModels()`), and the judge's model,
 * INFERLOOP_MODEL.
 */
import {
  captureTrajectory,
  currentTrajectory,
  type GatheredTrajectoryGroup,
  gatherTrajectoryGroups,
  Inferloop,
  rulerScoreGroup,
  tool,
} from "inferloop";
import { DEFAULT_BASE_MODELS, startFakeService } from "inferloop/testing";
import { z } from "zod";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback, which trains in moments.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
// Findings about a job (a group whose rewards are all equal teaches nothing) come through this
// logger, in the example's own output; without a logger each kind is a process warning, once.
const ignore = () => {};
const client = new Inferloop({
  ...(fake ? { baseURL: fake.url, apiKey: fake.apiKey } : {}),
  logLevel: "warn",
  logger: { error: console.error, warn: (line) => console.log(`  ${line}`), info: ignore, debug: ignore },
});
const project = process.env.INFERLOOP_TRAINING_PROJECT ?? (fake ? "agent-rl" : undefined);
const baseModel = process.env.INFERLOOP_BASE_MODEL ?? (fake ? DEFAULT_BASE_MODELS[0] : undefined);
// The judge: any chat model the client reaches (the fake judges RULER requests itself).
const judge = { client, model: process.env.INFERLOOP_MODEL ?? "Qwen/Qwen3-8B" };
const steps = Number(process.argv.find((a) => a.startsWith("--steps="))?.slice("--steps=".length) ?? 3);

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

try {
  if (!project || !baseModel) {
    console.log("skipped: set INFERLOOP_TRAINING_PROJECT and INFERLOOP_BASE_MODEL to train on a real service");
    process.exit(0);
  }
  const model = await client.trainableModels.register({ project, name: "lookup-agent", base_model: baseModel });
  const first = await model.latestStep();
  /** What the rollouts of each step saw, printed when the step has trained. */
  const seen = new Map<number, { judged: number[]; uniform: string[]; choices: number; log?: string }>();

  const loop = model.trainLoop({
    steps: first + steps,
    // The rollouts of the next step run on the newest checkpoint while a job trains, at most one
    // step behind the step they train (0 would wait for each job: strictly on-policy).
    maxStepsOffPolicy: 1,
    pollInterval: fake ? 20 : 2_000,
    // On a real service the loop keeps its job in flight in .inferloop/ (a re-run after Ctrl-C
    // follows it); the fake forgets its jobs when it closes, so there is nothing to keep.
    ...(fake ? { state: false as const } : {}),
    rollouts: async ({ step, modelName, signal, onProgress }) => {
      const uniform: string[] = [];
      const judged: number[] = [];
      const alike: GatheredTrajectoryGroup[] = [];
      const groups = await gatherTrajectoryGroups(
        CITIES.map((city) =>
          Array.from(
            { length: ROLLOUTS_PER_CITY },
            (_, i) => (signal: AbortSignal) =>
              captureTrajectory(
                async () => {
                  const run = client.chat.completions.runTools(
                    {
                      model: modelName,
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
          signal,
          onProgress,
          // Each group is judged as soon as its own rollouts have ended; a group whose rollouts
          // all score the same teaches nothing (every advantage is 0), so it is dropped.
          afterEach: async (group) => {
            const scored = await rulerScoreGroup(group, { ...judge, swallowErrors: true });
            const rewards = scored?.trajectories.map((t) => t.reward ?? 0) ?? [];
            judged.push(...rewards);
            if (new Set(rewards).size <= 1) {
              uniform.push(`${group.trajectories[0]?.metadata.city ?? "?"}`);
              if (scored) alike.push(scored);
              return null;
            }
            return scored;
          },
        },
      );
      // Every step trains: when every group scored alike, on those (the job then says that they
      // teach nothing, through the logger).
      const trained = groups.length > 0 ? groups : alike;
      const kept = trained.flatMap((g) => g.trajectories).flatMap((t) => t.messages_and_choices);
      const log = trained[0]?.trajectories[0]?.logs.at(-1);
      seen.set(step, {
        judged,
        uniform,
        choices: kept.filter((item) => !("role" in item)).length,
        ...(log ? { log } : {}),
      });
      return trained;
    },
  });

  const started = performance.now();
  let oneAfterTheOther = 0;
  const means: Array<[string, number]> = [];
  for await (const s of loop) {
    const { judged, uniform, choices, log } = seen.get(s.step)!;
    means.push([`step ${String(s.step).padStart(2)} (sampled ${s.sampledStep})`, mean(judged)]);
    oneAfterTheOther += s.durations.rollouts + s.durations.training;
    const saved = (oneAfterTheOther - (performance.now() - started)) / 1000;
    console.log(
      `step ${s.step}: ${judged.length} rollouts of step ${s.sampledStep} judged by RULER (mean ${mean(judged).toFixed(2)}), ${choices} choices kept with logprobs` +
        (uniform.length === 0
          ? ""
          : uniform.length < CITIES.length
            ? `; dropped (all alike): ${uniform.join(", ")}`
            : "; every group scored alike: trained on them anyway"),
    );
    if (log) console.log(`  ${log}`);
    console.log(
      `  trained → step ${s.step} (sampled step ${s.sampledStep}, ${s.step - 1 - s.sampledStep} behind); ` +
        `${saved.toFixed(2)} s saved so far against the strict loop (its rollouts and jobs one after the other)`,
    );
  }

  console.log("mean RULER reward per step:");
  for (const [label, m] of means) {
    const bar = Math.round(m * 30);
    console.log(`  ${label} │${"█".repeat(bar)}${"░".repeat(30 - bar)} ${m.toFixed(2)}`);
  }
} finally {
  await fake?.close();
}
