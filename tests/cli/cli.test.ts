// The `inferloop` command as a user runs it: the packed tarball installed in a temporary project
// (tests/package/global-setup.ts), its `node_modules/.bin/inferloop`, each subcommand against
// a fake service on loopback, with the credentials in the environment. Every run's stdout and
// stderr are kept, and none may contain the key (or a Basic credential made of it).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Inferloop, type TrajectoryGroup } from "../../src/index.js";
import {
  DEFAULT_MODELS,
  type FakeService,
  faults,
  SEED_PROJECT_ID,
  startFakeService,
} from "../../src/testing/index.js";

const app = inject("app");
const bin = join(app, "node_modules", ".bin", "inferloop");
const SECRET = "sk-cli-test-secret-7f3a9c";
const SECRETS = [SECRET, btoa(`api:${SECRET}`)];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
const outputs: Run[] = [];

/** The environment of a user with only the key and the base URL set, and this Node first. */
function userEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith("INFERLOOP_") && k !== "WANDB_API_KEY" && !k.toLowerCase().startsWith("npm_")) env[k] = v;
  env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

function start(args: string[], env: NodeJS.ProcessEnv, cwd = app): ChildProcess {
  return spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
}

function finish(child: ChildProcess): Promise<Run> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) =>
    child.on("close", (code) => {
      const run = { code, stdout, stderr };
      outputs.push(run);
      done(run);
    }),
  );
}

let svc: FakeService;
let client: Inferloop;
const run = (args: string[], extra: Record<string, string | undefined> = {}) =>
  finish(start(args, userEnv({ INFERLOOP_BASE_URL: svc.url, INFERLOOP_API_KEY: SECRET, ...extra })));

/** One group of two rollouts whose rewards differ by `spread` around `reward`. */
function group(reward: number): TrajectoryGroup[] {
  return [
    {
      trajectories: [0.05, -0.05].map((d, i) => ({
        messages_and_choices: [
          { role: "user" as const, content: "Say hi" },
          { finish_reason: "stop", index: 0, message: { role: "assistant" as const, content: `hi ${i}` } },
        ],
        reward: reward + d,
      })),
    },
  ];
}
const experimental_config = { allow_training_without_logprobs: true };

/** Registers the model `name` on `on`'s service and starts a training job of it. */
async function startJob(on: Inferloop, name: string): Promise<string> {
  const model = await on.trainableModels.register({ project: "cli", name, base_model: "OpenPipe/Qwen3-14B-Instruct" });
  const { id } = await on.trainingJobs.create({
    model_id: model.id,
    trajectory_groups: group(0.5),
    experimental_config,
  });
  return id;
}

beforeAll(async () => {
  svc = await startFakeService({ apiKey: SECRET, trainingStepMs: 1 });
  client = new Inferloop({ baseURL: svc.url, apiKey: SECRET });
});

afterAll(async () => {
  await svc?.close();
  // No run printed the key, whatever it did.
  expect(outputs.length).toBeGreaterThan(20);
  for (const { stdout, stderr } of outputs)
    for (const secret of SECRETS) {
      expect(stdout).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }
});

describe("inferloop --help, --version and usage errors", () => {
  it("lists every subcommand, the environment and the exit codes", async () => {
    const { code, stdout } = await run(["--help"]);
    expect(code).toBe(0);
    for (const name of [
      "fake",
      "models",
      "chat <prompt>",
      "calls export",
      "jobs follow <job-id>",
      "checkpoints list <model-id>",
      "checkpoints prune <model-id>",
      "checkpoints download <model-id>",
      "artifacts download <ref> <dir>",
      "lora deploy <dir>",
    ])
      expect(stdout).toContain(`  ${name}`);
    expect(stdout).toContain("WANDB_API_KEY");
    for (const code of [0, 1, 2, 3, 4, 5, 6, 130]) expect(stdout).toMatch(new RegExp(`^ +${code}  \\S`, "m"));
  });

  it("each subcommand has its own help; a group lists its subcommands", async () => {
    for (const name of ["fake", "models", "chat", "calls export", "jobs follow", "artifacts download", "lora deploy"]) {
      const { code, stdout } = await run([...name.split(" "), "--help"]);
      expect(code, name).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: inferloop ${name}`));
      expect(stdout).toContain("--json");
      expect(stdout).toContain("Exit codes:");
    }
    const prune = await run(["checkpoints", "prune", "-h"]);
    expect(prune.stdout).toMatch(/--keep-latest <n>.*\n.*--keep-best <n>/);
    const group = await run(["checkpoints", "--help"]);
    expect(group.code).toBe(0);
    expect(group.stdout).toMatch(/checkpoints list <model-id>[\s\S]*checkpoints prune[\s\S]*checkpoints download/);
  });

  it("--version prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(join(app, "node_modules", "inferloop", "package.json"), "utf8"));
    expect((await run(["--version"])).stdout.trim()).toBe(version);
  });

  it("exits 2 on a usage mistake, with what to type instead, and sends nothing", async () => {
    const sent = svc.requests.length;
    const cases: Array<[string[], RegExp]> = [
      [["modles"], /unknown command "modles"; did you mean "models"\?/],
      [["models", "--jsno"], /unknown option --jsno; did you mean --json\?/],
      [["checkpoints", "lst", "x"], /did you mean "checkpoints list"\?/],
      [["checkpoints"], /needs a command: one of list, prune, download/],
      [["chat"], /missing <prompt>: usage is inferloop chat <prompt> \[options\]/],
      [["models", "extra"], /unexpected argument "extra"/],
      [["calls", "export"], /--project is required, e.g. --project acme\/support-bot/],
      [["calls", "export", "-p", SEED_PROJECT_ID, "--limit", "ten"], /--limit must be a whole number >= 1, got "ten"/],
      [["calls", "export", "-p", SEED_PROJECT_ID, "--filter", "{"], /--filter must be a JSON object/],
      [["checkpoints", "prune", "m", "--mode", "best"], /--mode must be max or min/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await run(args);
      expect(code, args.join(" ")).toBe(2);
      expect(stderr).toMatch(message);
    }
    // With no arguments: the help, on stderr.
    const bare = await run([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^Usage: inferloop <command>/);
    expect(svc.requests.length).toBe(sent);
  });

  it("a request the SDK refuses before sending exits 2 (RequestValidationError), in JSON too", async () => {
    const sent = svc.requests.length;
    const { code, stderr } = await run(["checkpoints", "prune", "m", "--keep-best", "1", "--json"]);
    expect(code).toBe(2);
    const { error } = JSON.parse(stderr) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ name: "RequestValidationError", exitCode: 2 });
    expect(error["message"]).toMatch(/metric/);
    expect(svc.requests.length).toBe(sent);
  });
});

describe("credentials and the service's faults", () => {
  it("exits 3 when the key is refused (401) or missing, naming where it comes from but not its value", async () => {
    const refused = await run(["models"], { INFERLOOP_API_KEY: `${SECRET}-wrong` });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/AuthenticationError: 401 .*INFERLOOP_API_KEY/);
    expect(refused.stderr).not.toContain(`${SECRET}-wrong`);
    const missing = await run(["models", "--json"], { INFERLOOP_API_KEY: undefined });
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stderr).error).toMatchObject({ name: "MissingCredentialsError", exitCode: 3 });
  });

  it("exits 3 for a Basic credential refused on the trace routes", async () => {
    const { code } = await run(["calls", "export", "-p", SEED_PROJECT_ID], { INFERLOOP_PASSWORD: "not-it" });
    expect(code).toBe(3);
  });

  it("exits 4 for what does not exist, 5 when the service keeps failing", async () => {
    const job = await run(["jobs", "follow", "00000000-0000-4000-8000-000000000000", "--json"]);
    expect(job.code).toBe(4);
    expect(JSON.parse(job.stderr).error).toMatchObject({ name: "NotFoundError", status: 404, exitCode: 4 });
    svc.inject(faults.serviceUnavailable({ path: "/v1/models", times: 3 }));
    const down = await run(["models"]);
    expect(down.code).toBe(5);
    expect(down.stderr).toMatch(/InternalServerError: 503/);
  });

  it("exits 5 when nothing listens at the base URL", async () => {
    const closed = await startFakeService();
    const url = closed.url;
    await closed.close();
    const { code, stderr } = await run(["models"], { INFERLOOP_BASE_URL: url });
    expect(code).toBe(5);
    expect(stderr).toMatch(/APIConnectionError/);
  });
});

describe("inferloop models and chat", () => {
  it("models: one line per model; --json the list", async () => {
    const text = await run(["models"]);
    expect(text.code).toBe(0);
    const ids = [...DEFAULT_MODELS];
    expect(
      text.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(ids);
    const json = await run(["models", "--json"]);
    expect((JSON.parse(json.stdout) as Array<{ id: string }>).map((m) => m.id)).toEqual(ids);
  });

  it("chat streams the reply to stdout; --json prints the whole completion", async () => {
    const text = await run(["chat", "echo Hello from the command line", "--model", "Qwen/Qwen3-8B"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe("Hello from the command line\n");
    const json = await run(["chat", "echo hi there", "--json", "--max-tokens", "16", "--system", "Be brief."]);
    const completion = JSON.parse(json.stdout);
    expect(completion.choices[0].message.content).toBe("hi there");
    expect(completion.usage.completion_tokens).toBeGreaterThan(0);
    const sent = svc.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!.json as Record<string, unknown>;
    expect(sent).toMatchObject({ stream: true, max_completion_tokens: 16, model: DEFAULT_MODELS[0] });
    expect((sent["messages"] as unknown[])[0]).toEqual({ role: "system", content: "Be brief." });
  });

  it("chat without --model takes the first listed one and says so on stderr", async () => {
    const { stdout, stderr } = await run(["chat", "echo ok"]);
    expect(stdout).toBe("ok\n");
    expect(stderr).toContain(`(model ${DEFAULT_MODELS[0]}: the first listed; --model picks another)`);
  });

  it("a model the service does not serve exits 4", async () => {
    const { code, stderr } = await run(["chat", "hi", "--model", "no/such-model"]);
    expect(code).toBe(4);
    expect(stderr).toMatch(/NotFoundError: 404/);
  });
});

describe("inferloop calls export", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "inferloop-cli-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes every call of the project as JSON lines to stdout, the count on stderr", async () => {
    const expected = svc.calls.records().filter((r) => r.project_id === SEED_PROJECT_ID);
    const { code, stdout, stderr } = await run(["calls", "export", "--project", SEED_PROJECT_ID, "--page-size", "50"]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(expected.length);
    const records = lines.map((l) => JSON.parse(l) as { id: string; project_id: string });
    expect(new Set(records.map((r) => r.id)).size).toBe(expected.length);
    expect(records.every((r) => r.project_id === SEED_PROJECT_ID)).toBe(true);
    expect(stderr).toContain(`exported ${expected.length.toLocaleString("en-US")} calls of ${SEED_PROJECT_ID}`);
    // Page after page of 50: one request per page, and the last one short.
    const pages = svc.requests.filter((r) => r.path === "/calls/stream_query").slice(-Math.ceil(expected.length / 50));
    expect(pages.map((r) => (r.json as { limit: number }).limit).every((l) => l === 50)).toBe(true);
  });

  it("--out writes a file; --json reports the count; --limit and --filter narrow it", async () => {
    const out = join(dir, "calls.jsonl");
    const { code, stdout } = await run([
      "calls",
      "export",
      "-p",
      SEED_PROJECT_ID,
      "-o",
      out,
      "--limit",
      "7",
      "--filter",
      '{"trace_roots_only":true}',
      "--json",
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ project: SEED_PROJECT_ID, exported: 7, out });
    const records = readFileSync(out, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(7);
    expect(records.every((r: { parent_id: string | null }) => r.parent_id == null)).toBe(true);
  });

  it("an --out it cannot write exits 2 before querying", async () => {
    const sent = svc.requests.length;
    const { code, stderr } = await run(["calls", "export", "-p", SEED_PROJECT_ID, "-o", join(dir, "no", "such", "f")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot write --out .*ENOENT/);
    expect(svc.requests.length).toBe(sent);
  });
});

describe("inferloop jobs follow", () => {
  it("prints each event until training_ended and exits 0; --json one event per line", async () => {
    const id = await startJob(client, "followed");
    const text = await run(["jobs", "follow", id, "--poll-interval", "5"]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^training_started {2}num_sequences=\d+ {2}\(event \S+\)$/);
    expect(lines.some((l) => /^gradient_step {2}.*loss=\d/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^training_ended/);
    const json = await run(["jobs", "follow", id, "--poll-interval", "5", "--json"]);
    const events = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; type: string });
    expect(events.map((e) => e.type)).toEqual(lines.map((l) => l.split(" ")[0]));
    // Re-attached after an event, it prints only what came after it.
    const after = await run(["jobs", "follow", id, "--after", events[1]!.id, "--json"]);
    expect(
      after.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual(events.slice(2).map((e) => e.id));
  });

  it("a failed job prints its training_failed event and exits 6", async () => {
    svc.inject(faults.trainingFailed("CUDA out of memory", { afterSteps: 1 }));
    const id = await startJob(client, "failing");
    const { code, stdout, stderr } = await run(["jobs", "follow", id, "--poll-interval", "5", "--json"]);
    expect(code).toBe(6);
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toMatchObject({ type: "training_failed" });
    expect(JSON.parse(stderr).error).toMatchObject({ name: "TrainingJobFailedError", exitCode: 6 });
    expect(JSON.parse(stderr).error.message).toContain("CUDA out of memory");
  });

  it("Ctrl-C stops following, closes the requests and exits 130", async () => {
    const slow = await startFakeService({ apiKey: SECRET, trainingStepMs: 60_000 });
    try {
      const slowClient = new Inferloop({ baseURL: slow.url, apiKey: SECRET });
      const id = await startJob(slowClient, "slow");
      const child = start(
        ["jobs", "follow", id, "--poll-interval", "10"],
        userEnv({ INFERLOOP_BASE_URL: slow.url, INFERLOOP_API_KEY: SECRET }),
      );
      const done = finish(child);
      // Once it has polled the events, it is following.
      while (!slow.requests.some((r) => r.path.endsWith("/events"))) await new Promise((r) => setTimeout(r, 20));
      child.kill("SIGINT");
      const { code, stderr } = await done;
      expect(code).toBe(130);
      expect(stderr).toContain("inferloop jobs follow: interrupted");
    } finally {
      await slow.close();
    }
  });
});

describe("inferloop lora deploy", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "inferloop-lora-"));
    writeFileSync(
      join(dir, "adapter_config.json"),
      JSON.stringify({ base_model_name_or_path: "meta-llama/Llama-3.1-8B-Instruct", r: 16, lora_alpha: 32 }),
    );
    writeFileSync(join(dir, "adapter_model.safetensors"), new Uint8Array(64).fill(7));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("deploys a folder and prints the model to chat with, which the service then serves", async () => {
    const { code, stdout } = await run([
      "lora",
      "deploy",
      dir,
      "--project",
      "acme/support",
      "--name",
      "tutor",
      "--json",
    ]);
    expect(code).toBe(0);
    const deployed = JSON.parse(stdout) as { model: string; baseModel: string };
    expect(deployed).toMatchObject({
      model: "wandb-artifact:///acme/support/tutor:latest",
      baseModel: "meta-llama/Llama-3.1-8B-Instruct",
    });
    const reply = await client.chat.completions.create({
      model: deployed.model,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(reply.choices[0]?.message.content).toBeTruthy();
  });

  it("a rank over the base model's limit exits 2 before anything is sent", async () => {
    writeFileSync(
      join(dir, "adapter_config.json"),
      JSON.stringify({ base_model_name_or_path: "meta-llama/Llama-3.1-8B-Instruct", r: 4096 }),
    );
    const before = svc.requests.length;
    const { code, stderr } = await run(["lora", "deploy", dir, "--project", "acme/support", "--name", "too-wide"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/rank|r\b/);
    expect(svc.requests.length).toBe(before);
  });
});

describe("inferloop checkpoints and artifacts", () => {
  let modelId: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "inferloop-cli-"));
    const model = await client.trainableModels.register({
      project: "rl",
      name: "pruned",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    for (const reward of [0.2, 0.9, 0.1, 0.3])
      await model.train(group(reward), { pollInterval: 1, experimental_config });
    modelId = model.id;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("list: one line per step with its metrics; --json the checkpoints", async () => {
    const text = await run(["checkpoints", "list", modelId]);
    expect(text.code).toBe(0);
    expect(
      text.stdout
        .trim()
        .split("\n")
        .map((l) => Number(/^step +(\d+)/.exec(l)?.[1])),
    ).toEqual([1, 2, 3, 4]);
    expect(text.stdout).toMatch(/reward=0\.9/);
    const json = JSON.parse((await run(["checkpoints", "list", modelId, "--json"])).stdout) as Array<{
      step: number;
      metrics: Record<string, number>;
    }>;
    expect(json.map((c) => c.step)).toEqual([1, 2, 3, 4]);
    expect(json[1]!.metrics["reward"]).toBeCloseTo(0.9);
  });

  it("prune --dry-run deletes nothing; prune keeps the latest and the best by the metric", async () => {
    const args = ["checkpoints", "prune", modelId, "--keep-latest", "1", "--keep-best", "1", "--metric", "reward"];
    const dry = await run([...args, "--dry-run", "--json"]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ kept: [2, 4], deleted: [1, 3], dryRun: true });
    expect(svc.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
    const text = await run(args);
    expect(text.stdout).toBe("deleted steps: 1, 3\nkept steps: 2, 4\n");
    const left = await client.trainableModels.checkpoints.list(modelId).toArray();
    expect(left.map((c) => c.step)).toEqual([2, 4]);
  });

  it("download: the latest step's LoRA by default, or --step, into --dir", async () => {
    const latest = join(dir, "latest");
    const json = await run([
      "checkpoints",
      "download",
      modelId,
      "--project",
      "acme/rl",
      "--name",
      "pruned",
      "-d",
      latest,
      "--json",
    ]);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as { step: number; files: string[]; dir: string };
    expect(result.step).toBe(4);
    expect(result.files.sort()).toEqual(readdirSync(latest).sort());
    expect(result.files).toContain("adapter_config.json");
    const text = await run(
      ["checkpoints", "download", modelId, "-p", "acme/rl", "--name", "pruned", "--step", "2"],
      {},
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^downloaded step 2 \(v\d+\) into \.\/pruned-step2: .*adapter_config\.json/);
    expect(existsSync(join(app, "pruned-step2", "adapter_config.json"))).toBe(true);
    rmSync(join(app, "pruned-step2"), { recursive: true, force: true });
  });

  it("download needs the model's project and name; no checkpoint, or a step that is gone, exits 4", async () => {
    const missing = await run(["checkpoints", "download", modelId, "--name", "pruned"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--project is required/);
    const untrained = await client.trainableModels.register({
      project: "rl",
      name: "untrained",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    const none = await run(["checkpoints", "download", untrained.id, "-p", "acme/rl", "--name", "untrained"]);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain(`model ${untrained.id} has no checkpoint yet: nothing to download`);
    const gone = await run([
      "checkpoints",
      "download",
      modelId,
      "-p",
      "acme/rl",
      "--name",
      "pruned",
      "--step",
      "1",
      "-d",
      join(dir, "gone"),
    ]);
    expect(gone.code).toBe(4);
  });

  it("artifacts download <ref> <dir> writes every file of the version", async () => {
    const { ref } = await client.artifacts.upload({
      entity: "acme",
      project: "rl",
      name: "cli-data",
      type: "dataset",
      files: [
        { name: "train.jsonl", data: '{"messages":[]}\n' },
        { name: "notes/readme.txt", data: "hello" },
      ],
    });
    const target = join(dir, "artifact");
    const { code, stdout } = await run(["artifacts", "download", ref, target, "--json"]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { ref: string; dir: string; files: string[] };
    expect(result).toMatchObject({ ref, dir: target });
    expect(result.files.sort()).toEqual(["notes/readme.txt", "train.jsonl"]);
    expect(readFileSync(join(target, "notes", "readme.txt"), "utf8")).toBe("hello");
    const unknown = await run(["artifacts", "download", "acme/rl/no-such-thing:v0", join(dir, "none")]);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/ArtifactNotFoundError: No artifact acme\/rl\/no-such-thing:v0/);
  });
});

describe("inferloop fake", () => {
  /** Starts `inferloop fake` and resolves with the child and its first line of output. */
  async function startFake(args: string[], env: NodeJS.ProcessEnv) {
    const child = start(["fake", ...args], env);
    const done = finish(child);
    const first = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout! }).once("line", (line) => resolve(line)),
    );
    return { child, first, done };
  }

  it("serves until SIGINT; --json gives its URL and own credentials, which the other commands use", async () => {
    // A key in the user's environment is not the fake's, and is never printed.
    const { child, first, done } = await startFake(
      ["--json", "--latency-ms", "1", "--training-step-ms", "1"],
      userEnv({ INFERLOOP_API_KEY: SECRET }),
    );
    const info = JSON.parse(first) as Record<string, unknown>;
    expect(info).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      apiKey: expect.any(String),
      username: "api",
      projectId: SEED_PROJECT_ID,
    });
    expect(info["apiKey"]).not.toBe(SECRET);
    const models = await finish(
      start(
        ["models", "--json"],
        userEnv({ INFERLOOP_BASE_URL: info["url"] as string, INFERLOOP_API_KEY: info["apiKey"] as string }),
      ),
    );
    expect(models.code).toBe(0);
    expect(JSON.parse(models.stdout).length).toBeGreaterThan(0);
    child.kill("SIGINT");
    expect((await done).code).toBe(0);
  });

  it("prints the environment to point the SDK at it, and stops on SIGTERM", async () => {
    const { child, first, done } = await startFake(["--port", "0"], userEnv({ WANDB_API_KEY: SECRET }));
    expect(first).toMatch(/^inferloop fake service on http:\/\/127\.0\.0\.1:\d+ \(Ctrl-C stops it\)$/);
    child.kill("SIGTERM");
    const { code, stdout, stderr } = await done;
    expect(code).toBe(0);
    expect(stdout).toMatch(/export INFERLOOP_BASE_URL=http:\/\/127\.0\.0\.1:\d+\n {2}export INFERLOOP_API_KEY=\S+/);
    expect(stderr).toContain("inferloop fake: stopped");
  });
});
