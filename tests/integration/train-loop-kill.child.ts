/**
 * The loop that train-loop-kill.test.ts kills: a user's program, run as a child process (bundled
 * by the test, run with node) against the test's fake service. It trains `TARGET` steps with the
 * default state file (in its working directory), writes every loop event to stdout as one JSON
 * line (the test picks its kill points from them), and ends with a `done` or `error` line.
 */
import { Inferloop } from "../../src/index.js";
import { abortOnSignals } from "../../src/progress/index.js";
import { stepRollouts } from "./loop-rollouts.js";

const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const line = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

const client = new Inferloop({ baseURL: env("FAKE_URL"), apiKey: env("FAKE_API_KEY") });
const model = await client.trainableModels.register({
  project: "rl",
  name: "killed",
  base_model: "OpenPipe/Qwen3-14B-Instruct",
});
const stop = abortOnSignals({ onSignal: (signal) => line({ type: "signal", signal }) });
try {
  for await (const s of model.trainLoop({
    steps: Number(env("TARGET")),
    maxStepsOffPolicy: 1,
    pollInterval: 20,
    retention: { keepLatest: 2 },
    signal: stop.signal,
    onEvent: (e) => line(e.type === "job" ? { type: "job", step: e.step, event: e.event.type } : e),
    // Rollouts take a moment, so that a kill can land while they run; their prompts name the step.
    rollouts: stepRollouts(client, { delayMs: () => 40, logprobs: true }),
  }))
    line({ type: "step", step: s.step, jobId: s.jobId });
  line({ type: "done" });
} catch (err) {
  line({ type: "error", name: (err as Error).name, message: (err as Error).message });
  process.exitCode = 1;
} finally {
  stop.dispose();
}
