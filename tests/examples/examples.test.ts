// Runs every program in examples/ as a child process, the way a user would (`tsx`), and checks
// that it exits 0 and prints the line that shows it did its work.
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeService,
  SEED_ITEM_IDS,
  SEED_PROJECT_ID,
  SEED_QUEUE_ID,
  startFakeService,
} from "../../src/testing/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = join(root, "node_modules", ".bin");
const tsx = join(bin, process.platform === "win32" ? "tsx.cmd" : "tsx");

/** What each example must print (a line that only appears when it really did its work). */
const expected: Record<string, RegExp[]> = {
  "demo.ts": [
    /< Hello from inferloop! Each piece of this reply is printed as soon as it arrives\./,
    /- Qwen\/Qwen3-8B/,
    /page 1: 25 records \(25 so far\)/,
    /→ completed/,
    /created job [0-9a-f-]{36}/,
    /sent again with the same key → the same job; jobs on the service: 1/,
    /RequestValidationError: .*tool_choice/,
    /requests the service received meanwhile: 0/,
    /log warn: .*GET \/v1\/models failed \(status 503\); retrying/,
    /succeeded with 4 models after 2 attempts/,
    /training: 12\/12 gradient steps, loss \d\.\d{4}/,
    /created RL training job [0-9a-f-]{36} from 3 groups → step 2/,
    /mean reward 0\.\d\d → 0\.\d\d over 2 steps/,
    /traced rollout calls in acme\/support-bot: 36 /,
    /annotation items of traced rollouts marked completed: 36 of 36/,
    /Done\. The fake service is closed\./,
  ],
  "agent-capture.ts": [
    /Paris: rewards 0\.\d+, 0\.75, 0\.75; last rollout: system → user → choice → tool → choice/,
    /captured 15 sampled turns, each with logprobs and token ids/,
    /created training job [0-9a-f-]{36} from 3 groups of captured rollouts/,
  ],
  "ai-sdk.ts": [
    /finish stop \(vLLM: stop\), \d+ token ids, first logprob -\d\.\d{3}, request id \S+/,
    /streamText: .+\n {2}\d+ output tokens/,
    /tool loop: 2 steps, called get_weather\(\{"city":"Paris"\}\); answer: The tool answered: \{"city":"Paris"/,
    /structured output: Lima 19 °C/,
    /refused before sending: providerOptions\.inferloop\.top_kk: .*did you mean "top_k"/,
    /captured 3 rollouts; rewards 1, 1, 1; turns: user → choice → tool → choice/,
  ],
  "agent-rl.ts": [
    /step 1: 12 rollouts of step 0 judged by RULER \(mean 0\.\d\d\), 24 choices kept with logprobs/,
    /RULER explanation: Answered; /,
    /trained → step 1 \(sampled step 0, 0 behind\)/,
    /trained → step 3 \(sampled step 1, 1 behind\); -?\d+\.\d\d s saved so far against the strict loop/,
    /step {2}3 \(sampled 1\) │[█░]{30} \d\.\d\d/,
  ],
  "chat-streaming.ts": [
    /reply: Tokens arrive one by one, and each is printed right away\./,
    /finish_reason: stop/,
    /after 3 content chunks/,
  ],
  "structured-output.ts": [/parsed: Paris: 18\.5 °C, cloudy/, /refused reply: choice 0: .*celsius/],
  "calls-pages.ts": [/page 1: 10 records \(10 so far\)/, /\d+ matching calls in \d+ pages/],
  "annotation-progress.ts": [/: in_progress/, /: completed at /, /completed → skipped: refused \(400\)/],
  "rl-loop.ts": [
    /model wandb-artifact:\/\/\/acme\/rl-demo\/agent \(id [0-9a-f-]{36}\), untrained/,
    /step 0: rewards per prompt \(4 rollouts each\), mean 0\.\d\d/,
    /training: 12\/12 gradient steps, loss \d\.\d{4}/,
    /created RL training job [0-9a-f-]{36} from 3 groups → step 4/,
    /step {2}4 │[█░]{30} 0\.\d\d/,
    /traced rollout calls in acme\/support-bot: 60 /,
    /annotation items of traced rollouts marked completed: 60 of 60/,
  ],
  "review-loop.ts": [
    /1\. sampled 12 rollouts of wandb-artifact:\/\/\/acme\/review-demo\/reviewed-agent \(step 0\), traced to acme\/support-bot/,
    /2\. queue [0-9a-f-]{36}: 12 rollouts added \(0 already there\)/,
    /3\. reviewer scored 12 rollouts; queue progress 12\/12/,
    /4\. reviewed traces as 3 groups of 4\/4\/4 trajectories, mean reward 0\.\d\d/,
    /5\. training job [0-9a-f-]{36} → step 1/,
    /reviewed rollout \S+ \(".*"\): feedback wandb\.annotation\.quality = ([\d.]+) → reward \1 in training job [0-9a-f-]{36} \(group \d, trajectory \d\)/,
    /6\. step 1 sampled: the reviewer's mean score 0\.\d\d → [01]\.\d\d/,
  ],
  "sft.ts": [
    /dataset wandb-artifact:\/\/\/acme\/sft-demo\/tutor-sft-data-[0-9a-f]{12}:v0/,
    /SFT job [0-9a-f-]{36} → step 2, mean loss \d\.\d{4}/,
    /step 2 says: 42/,
    /downloaded step 2 \(v1\): adapter_config\.json, adapter_model\.safetensors/,
    /would prune steps 1/,
    /pruned steps 1; kept 2/,
  ],
  "eval-before-after.ts": [
    /before training \(step 0\): length_fit \d\.\d\d, concise \d\.\d\d \(3 rows, 0 failed\)/,
    /trained step 3 \(sampled step \d\), mean reward \d\.\d\d/,
    /after training \(step 3\): length_fit \d\.\d\d, concise \d\.\d\d \(3 rows, 0 failed\)/,
    /baseline: {2}brief on brief-answers\ncandidate: brief:step3 on brief-answers/,
    /length_fit\s+\d\.\d{3}\s+\d\.\d{3}\s+[+-]?\d\.\d{3}/,
    /rows: candidate won \d, baseline won \d, tied \d \(of 3\)/,
    /in Weave: project acme\/eval-demo, evaluations [0-9a-f-]{36} and [0-9a-f-]{36}/,
  ],
  "training-job.ts": [
    /created training job [0-9a-f-]{36}/,
    /same job, nothing duplicated/,
    /jobs on the fake service: 1/,
  ],
  "list-models.ts": [/4 models \(HTTP 200, request id \S+\)/, /Qwen\/Qwen3-8B\s+owned by system/],
  "browser-relay.ts": [
    /content-type: application\/x-ndjson/,
    /browser received: Relayed through your own server, chunk by chunk\./,
  ],
  "errors-and-retries.ts": [
    /refused before sending: seed/,
    /after one 429: ok/,
    /gave up after 2 attempts: InternalServerError 503/,
    /timed out: /,
    /stream cut off: APIConnectionError/,
    /training job without a key: not retried \(503\)/,
    /training job with a key: retried and created .*jobs on the service: 1/,
    /rate limited, retryAfter = 1000 ms/,
  ],
};

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith("INFERLOOP_") && k !== "WANDB_API_KEY") env[k] = v;
  // The project's own Node (node_modules/.bin/node) first, whatever the machine has.
  env.PATH = `${bin}${delimiter}${process.env.PATH ?? ""}`;
  return { ...env, ...extra };
}

function run(
  file: string,
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(tsx, [join("examples", file), ...args], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

const programs = readdirSync(join(root, "examples")).filter((f) => f.endsWith(".ts") && !f.startsWith("_"));

describe("examples", () => {
  it("has an expectation for every example, and at least seven of them", () => {
    expect(programs.sort()).toEqual(Object.keys(expected).sort());
    expect(programs.length).toBeGreaterThanOrEqual(7);
  });

  for (const file of programs) {
    it.concurrent(`${file} runs against the fake service and prints its result`, { timeout: 90_000 }, async () => {
      const { code, stdout, stderr } = await run(file, cleanEnv());
      expect(stderr, `stderr of ${file}`).toBe("");
      expect(code, `exit code of ${file}\n${stdout}`).toBe(0);
      for (const pattern of expected[file] ?? [/./]) expect(stdout).toMatch(pattern);
    });
  }
});

describe("demo against a service named by INFERLOOP_BASE_URL", () => {
  let svc: FakeService;
  beforeAll(async () => {
    svc = await startFakeService({ apiKey: "env-key" });
  });
  afterAll(() => svc.close());

  it("uses the environment and arguments, and skips fault injection", { timeout: 90_000 }, async () => {
    const env = cleanEnv({
      INFERLOOP_BASE_URL: svc.url,
      INFERLOOP_API_KEY: "env-key",
      INFERLOOP_PROJECT_ID: SEED_PROJECT_ID,
    });
    const args = [
      `--queue=${SEED_QUEUE_ID}`,
      "--item",
      SEED_ITEM_IDS[1],
      "--training-model=5f1c1a7e-8a40-4c55-9c2e-3d3a8f0e6b11",
      "--training-project=rl",
      "--base-model=OpenPipe/Qwen3-14B-Instruct",
    ];
    const { code, stdout, stderr } = await run("demo.ts", env, args);
    expect(stderr).toBe("");
    expect(code, stdout).toBe(0);
    expect(stdout).toContain(`running against the service at ${svc.url}`);
    expect(stdout).toMatch(/page 1: 25 records/);
    expect(stdout).toContain(`item ${SEED_ITEM_IDS[1]}`);
    expect(stdout).toMatch(/created job [0-9a-f-]{36}/);
    expect(stdout).toMatch(/skipped: fault injection needs the fake service/);
    // One from the training-job step, two from the RL loop's steps at the end.
    expect(svc.trainingJobs).toHaveLength(3);
    expect(stdout).toMatch(/created RL training job [0-9a-f-]{36} from 3 groups → step 2/);
    // The rollouts were traced to the service named by the environment, and queried back.
    expect(stdout).toMatch(/traced rollout calls in acme\/support-bot: 36 /);
    expect(svc.requests.filter((r) => r.path === "/otel/v1/traces").length).toBeGreaterThan(0);
    // Every request carried the key from the environment.
    expect(
      svc.requests.filter((r) => r.path.startsWith("/v1/")).every((r) => r.headers.authorization === "Bearer env-key"),
    ).toBe(true);
  });

  it("an example without the ids it needs says so and exits 0", { timeout: 90_000 }, async () => {
    const env = cleanEnv({ INFERLOOP_BASE_URL: svc.url, INFERLOOP_API_KEY: "env-key" });
    const { code, stdout } = await run("annotation-progress.ts", env);
    expect(code).toBe(0);
    expect(stdout).toMatch(/skipped: needs a project, a queue and an item/);
  });
});
