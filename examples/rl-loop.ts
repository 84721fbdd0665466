/**
 * The RL loop, closed: register a trainable model, then for several steps roll out groups of 4
 * replies per prompt on its latest checkpoint, score them, train on them with a live progress
 * line, and chart the mean reward per step. Stopped and re-run against a real service, it
 * resumes from the model's latest step. Ends with a review of the traced calls.
 *
 *   npx tsx examples/rl-loop.ts [--steps=4]
 *   INFERLOOP_BASE_URL=https://api.training.wandb.ai INFERLOOP_API_KEY=$WANDB_API_KEY \
 *     npx tsx examples/rl-loop.ts --training-project=rl --base-model=OpenPipe/Qwen3-14B-Instruct
 */
import { runRlLoop } from "./_rl-loop.js";
import { runExample } from "./_service.js";

const stepsArg = process.argv.find((a) => a.startsWith("--steps="));
const live = process.stdout.isTTY === true;

await runExample(async (service) => {
  console.log(`running against ${service.description}`);
  await runRlLoop(service, (line) => console.log(line), {
    steps: stepsArg ? Number(stepsArg.slice("--steps=".length)) : 4,
    // On a terminal, one line that updates in place; in a log, one line per job.
    ...(live ? { progress: (line: string) => process.stdout.write(`\r\x1b[2K${line}`) } : {}),
  });
});
