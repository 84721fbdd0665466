// Every program in examples/ run where a user runs it: a project made as docs/getting-started.md
// says (`npm init -y`, `"type": "module"`, the packed tarball installed, `typescript` and
// `@types/node`, `tsc --init` with Node's types), with tsx and the packages the examples name,
// the examples copied from the installed package (`node_modules/inferloop/examples`). There they
// type-check against the package's declarations, and each runs alone with no configuration (it
// starts its own fake service) and prints the lines that show it did its work. Then the demo
// runs against `inferloop fake` (the package's command), named by INFERLOOP_BASE_URL.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { installedVersion, npm } from "../package/global-setup.js";

const repo = inject("repo");
const tarball = inject("tarball");
const project = join(dirname(tarball), "examples-project");

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
    /training: \d+ gradient steps, loss \d\.\d{4}/,
    /created RL training job [0-9a-f-]{36} from 2 groups → step 2/,
    /mean reward 0\.\d\d → [01]\.\d\d over 2 steps/,
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
    /mean reward 0\.\d\d → 0\.\d\d over 4 steps \(the fake's simulated learning\)/,
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
  "review-to-sft.ts": [
    /1\. sampled and traced 12 rollouts of wandb-artifact:\/\/\/acme\/review-sft-demo\/reviewed-tutor/,
    /3\. 12 reviewed traces in 3 groups \(0 skipped\), 12 with their logprobs/,
    /4\. RL: job [0-9a-f-]{36} on 12 reviewed traces → step 1/,
    /5\. SFT: [1-3] approved traces as rows → wandb-artifact:\/\/\/acme\/review-sft-demo\/reviewed-tutor-sft-data-[0-9a-f]{12}:v0 → step 2/,
    /6\. step 2, ".+": ".+" \(the approved reply\)/,
  ],
  "sft.ts": [
    /dataset wandb-artifact:\/\/\/acme\/sft-demo\/tutor-sft-data-[0-9a-f]{12}:v0\n/,
    /dataset wandb-artifact:\/\/\/acme\/sft-demo\/tutor-sft-data-[0-9a-f]{12}:v0 \(the same rows: already uploaded\)/,
    /SFT job [0-9a-f-]{36} → step 2, mean loss \d\.\d{4}/,
    /step 2 says: 42/,
    /downloaded step 2 \(v1\): adapter_config\.json, adapter_model\.safetensors/,
    /would prune steps 1/,
    /pruned steps 1; kept 2/,
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

/** What the examples import besides inferloop (each names its own in its header). */
const EXAMPLE_PACKAGES = [
  "tsx",
  "zod",
  "openai",
  "ai",
  "@opentelemetry/api",
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/resources",
  "@opentelemetry/exporter-trace-otlp-proto",
];

const bin = (name: string) => join(project, "node_modules", ".bin", name);

/** A user's shell: no INFERLOOP_* or W&B key, and this Node first on PATH. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith("INFERLOOP_") && k !== "WANDB_API_KEY" && !k.toLowerCase().startsWith("npm_")) env[k] = v;
  env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`;
  return { ...env, ...extra };
}

function run(file: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(bin("tsx"), [file], { cwd: project, env, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

let programs: string[] = [];

beforeAll(() => {
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project);
  // docs/getting-started.md, "Your project".
  npm(["init", "-y"], project);
  npm(["pkg", "set", "type=module"], project);
  const add = (dev: boolean, specs: string[]) =>
    npm(["install", ...(dev ? ["-D"] : []), ...specs, "--prefer-offline", "--no-audit", "--no-fund"], project);
  add(false, [tarball, ...EXAMPLE_PACKAGES.map((name) => `${name}@${installedVersion(name)}`)]);
  add(true, [`typescript@${installedVersion("typescript")}`, `@types/node@${installedVersion("@types/node")}`]);
  npm(["exec", "--", "tsc", "--init"], project);
  const tsconfig = join(project, "tsconfig.json");
  const written = readFileSync(tsconfig, "utf8");
  expect(written).toContain('"types": []');
  writeFileSync(tsconfig, written.replace('"types": []', '"types": ["node"]'));
  // The examples as the package ships them, copied into the project.
  const shipped = join(project, "node_modules", "inferloop", "examples");
  programs = readdirSync(shipped).filter((f) => f.endsWith(".ts"));
  for (const file of programs) copyFileSync(join(shipped, file), join(project, file));
}, 300_000);

afterAll(() => {
  if (process.env["KEEP_PACKAGE_TMP"] === undefined) rmSync(project, { recursive: true, force: true });
});

describe("examples in a user's project", () => {
  it("the package ships every example of the repository, each with an expectation here", () => {
    const inRepo = readdirSync(join(repo, "examples")).filter((f) => f.endsWith(".ts"));
    expect(programs.sort()).toEqual(inRepo.sort());
    expect(programs).toEqual(Object.keys(expected).sort());
    expect(programs.length).toBeGreaterThanOrEqual(7);
  });

  it("imports only packages (no relative import), and type-checks against the package's declarations", () => {
    for (const file of programs) expect(readFileSync(join(project, file), "utf8"), file).not.toMatch(/from "\.{1,2}\//);
    // `tsc --noEmit` as getting-started runs it, under the defaults `tsc --init` wrote.
    let output = "";
    let code = 0;
    try {
      npm(["exec", "--", "tsc", "--noEmit"], project);
    } catch (err) {
      code = 1;
      output = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(output).toBe("");
    expect(code).toBe(0);
  });

  for (const file of Object.keys(expected)) {
    it.concurrent(`${file} runs alone with no configuration and prints its result`, { timeout: 150_000 }, async () => {
      const { code, stdout, stderr } = await run(file, userEnv());
      expect(stderr, `stderr of ${file}`).toBe("");
      expect(code, `exit code of ${file}\n${stdout}`).toBe(0);
      for (const pattern of expected[file]!) expect(stdout).toMatch(pattern);
    });
  }
});

describe("the demo against `inferloop fake`, named by INFERLOOP_BASE_URL", () => {
  let fake: ChildProcess;
  let info: { url: string; apiKey: string; projectId: string; queueId: string; itemIds: string[] };
  beforeAll(async () => {
    fake = spawn(bin("inferloop"), ["fake", "--json", "--training-step-ms", "1"], {
      cwd: project,
      env: userEnv(),
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve) =>
      createInterface({ input: fake.stdout! }).once("line", (l) => resolve(l)),
    );
    info = JSON.parse(line);
  }, 60_000);
  afterAll(async () => {
    const closed = new Promise((resolve) => fake.once("close", resolve));
    fake.kill("SIGINT");
    await closed;
  });

  it("runs every step against the service the environment names, with the ids it names", {
    timeout: 150_000,
  }, async () => {
    const env = userEnv({
      INFERLOOP_BASE_URL: info.url,
      INFERLOOP_API_KEY: info.apiKey,
      INFERLOOP_PROJECT_ID: info.projectId,
      INFERLOOP_QUEUE_ID: info.queueId,
      INFERLOOP_ITEM_ID: info.itemIds[1]!,
      INFERLOOP_TRAINING_MODEL_ID: "5f1c1a7e-8a40-4c55-9c2e-3d3a8f0e6b11",
      INFERLOOP_TRAINING_PROJECT: "rl",
      INFERLOOP_BASE_MODEL: "OpenPipe/Qwen3-14B-Instruct",
    });
    const { code, stdout, stderr } = await run("demo.ts", env);
    expect(stderr).toBe("");
    expect(code, stdout).toBe(0);
    expect(stdout).toContain(`running against the service at ${info.url}`);
    expect(stdout).toMatch(/page 1: 25 records/);
    expect(stdout).toContain(`item ${info.itemIds[1]}`);
    expect(stdout).toMatch(/created job [0-9a-f-]{36}/);
    expect(stdout).toMatch(/skipped: fault injection needs the fake service/);
    expect(stdout).toMatch(/created RL training job [0-9a-f-]{36} from 2 groups → step 2/);
    expect(stdout).not.toContain("The fake service is closed");
  });

  it("an example without the ids it needs there says so and exits 0", { timeout: 60_000 }, async () => {
    const env = userEnv({ INFERLOOP_BASE_URL: info.url, INFERLOOP_API_KEY: info.apiKey });
    const { code, stdout } = await run("annotation-progress.ts", env);
    expect(code).toBe(0);
    expect(stdout).toMatch(/skipped: needs a project, a queue and an item/);
  });
});
