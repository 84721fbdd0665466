// `npm run bench:train-loop`: the pipelined training loop against the strict one, on the fake
// service, with rollouts and training jobs of about equal length (both mostly waiting, as they
// are on a real service, so the machine's load matters little). 8 steps with
// `maxStepsOffPolicy: 1` and 8 with `maxStepsOffPolicy: 0`, alternating, `BENCH_ROUNDS` rounds
// (default 3). The goal is a pipelined wall time of at most 0.6x the strict loop's; the limit is
// one rollout phase plus eight training phases, (R + 8T) / (8R + 8T).
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { sleep } from "../src/core/pipeline/retry.js";
import { gatherTrajectoryGroups, Inferloop, type TrainLoopRolloutContext, Trajectory } from "../src/index.js";
import { startFakeService } from "../src/testing/index.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const STEPS = 8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** How long one step's rollouts take (each rollout waits this long, then samples) and one job. */
const ROLLOUT_MS = Number(process.env.BENCH_ROLLOUT_MS ?? 500);
const JOB_MS = Number(process.env.BENCH_JOB_MS ?? 500);
const GOAL = 0.6;

const svc = await startFakeService({ seedCalls: false, trainingJobMs: JOB_MS });
const client = new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey });
/** 2 prompts x 4 rollouts, each a wait of ROLLOUT_MS (the model thinking) and a chat call. */
function rollouts({ step, modelName, signal, onProgress }: TrainLoopRolloutContext) {
  return gatherTrajectoryGroups(
    ["Say hi", "Say bye"].map((prompt) =>
      [0, 1, 2, 3].map((seed) => async (inner: AbortSignal) => {
        await sleep(ROLLOUT_MS, inner);
        const t = new Trajectory({ messages_and_choices: [{ role: "user", content: `${prompt} (${step})` }] });
        await t.sample(
          client,
          { model: modelName, seed, temperature: 1, max_completion_tokens: 16 },
          { signal: inner },
        );
        t.reward = seed / 3;
        return t;
      }),
    ),
    { signal, onProgress },
  );
}

async function run(k: number, name: string) {
  const model = await client.trainableModels.register({
    project: "bench",
    name,
    base_model: "OpenPipe/Qwen3-14B-Instruct",
  });
  const started = performance.now();
  let serial = 0;
  let maxLag = 0;
  for await (const s of model.trainLoop({
    steps: STEPS,
    maxStepsOffPolicy: k,
    rollouts,
    pollInterval: 10,
    state: false,
  })) {
    serial += s.durations.rollouts + s.durations.training;
    maxLag = Math.max(maxLag, s.step - 1 - s.sampledStep);
  }
  return { ms: performance.now() - started, serial, maxLag };
}

const samples: Record<"strict" | "pipelined", number[]> = { strict: [], pipelined: [] };
const lags: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 === 0 ? (["strict", "pipelined"] as const) : (["pipelined", "strict"] as const)) {
      const r = await run(which === "strict" ? 0 : 1, `${which}-${round}`);
      samples[which].push(r.ms);
      if (which === "pipelined") lags.push(r.maxLag);
      process.stderr.write(
        `round ${round + 1} ${which.padEnd(9)} ${r.ms.toFixed(0)} ms (steps' own time ${r.serial.toFixed(0)} ms)\n`,
      );
    }
  }
} finally {
  await svc.close();
}

const strict = median(samples.strict);
const pipelined = median(samples.pipelined);
const ratio = pipelined / strict;
const limit = (ROLLOUT_MS + STEPS * JOB_MS) / (STEPS * (ROLLOUT_MS + JOB_MS));
const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(" ");
console.log(
  `${cpus()[0]?.model ?? "?"}, ${cpus().length} cores, Node ${process.version}, load ${load}; medians of ${ROUNDS} rounds`,
);
console.log(`${STEPS} steps, rollouts ${ROLLOUT_MS} ms (2 x 4 per step), jobs ${JOB_MS} ms, fake service on loopback`);
console.log("| loop | wall time (ms) | vs strict |");
console.log("| --- | --- | --- |");
console.log(`| strict (maxStepsOffPolicy 0) | ${strict.toFixed(0)} | 1.00 |`);
console.log(`| pipelined (maxStepsOffPolicy 1) | ${pipelined.toFixed(0)} | ${ratio.toFixed(3)} |`);
console.log(
  `limit ${limit.toFixed(3)}, goal ${GOAL}: ${ratio <= GOAL ? "met" : "NOT met"}; largest lag ${Math.max(...lags)} step(s)`,
);
if (ratio > GOAL) process.exitCode = 1;
