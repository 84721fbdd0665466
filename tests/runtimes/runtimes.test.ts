// The packed tarball on Bun, Deno and Cloudflare's workerd (through miniflare), each from its
// npm package as pinned in tests/runtimes/package.json (`.ci/run` installs them into
// .tmp/runtimes). Each runtime runs scenario.mjs against the fake service, which runs here in
// Node on loopback.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import {
  DEFAULT_MODELS,
  type FakeService,
  faults,
  SEED_PROJECT_ID,
  startFakeService,
} from "../../src/testing/index.js";

const repo = inject("repo");
const app = inject("app");
const runtimes = join(repo, ".tmp", "runtimes", "node_modules");
const here = join(repo, "tests", "runtimes");

if (!existsSync(join(runtimes, ".bin", "bun")))
  throw new Error("The runtimes are not installed: run `npm run test:runtimes` (it installs them into .tmp/runtimes)");

for (const file of ["scenario.mjs", "main.mjs", "worker.mjs", "otel.mjs"])
  copyFileSync(join(here, file), join(app, file));

interface Outcome {
  resolved?: string;
  aiSdk: {
    text: string | undefined;
    tokenIds: number;
    streamed: string;
    streamedTokenIds: number | undefined;
    finishReason: string | undefined;
  };
  tools: { answer: string; issues: Array<[string, string]> };
  streamed: string;
  final: { content: string | null | undefined; finishReason: string | undefined };
  pages: number[];
  rateLimited: {
    name: string;
    rateLimitError: boolean;
    apiError: boolean;
    inferloopError: boolean;
    status: number;
  } | null;
}

let svc: FakeService;
beforeEach(async () => {
  svc = await startFakeService();
  svc.inject(faults.rateLimited({ path: "/v1/models", retryAfterMs: 5, times: 3 }));
});
afterEach(() => svc.close());

const config = () => ({
  baseURL: svc.url,
  apiKey: svc.apiKey,
  username: svc.username,
  password: svc.password,
  model: DEFAULT_MODELS[0],
  project: SEED_PROJECT_ID,
});

/** Runs a runtime's binary in the consumer project; resolves with the JSON line it printed. */
function run<T = Outcome>(bin: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(runtimes, ".bin", bin), args, {
      cwd: app,
      env: {
        ...process.env,
        INFERLOOP_RUNTIME_CONFIG: JSON.stringify(config()),
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`${bin} exited with ${code}:\n${out}\n${err}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}

function expectScenario(outcome: Outcome): void {
  const expected = svc.calls.records().filter((r) => r.project_id === SEED_PROJECT_ID).length;
  expect(outcome.streamed.length).toBeGreaterThan(0);
  expect(outcome.final.content).toBe(outcome.streamed);
  expect(outcome.final.finishReason).toBe("stop");
  expect(outcome.pages.reduce((a, b) => a + b, 0)).toBe(expected);
  expect(outcome.pages.slice(0, -1).every((n) => n === 100)).toBe(true);
  expect(outcome.rateLimited).toEqual({
    name: "RateLimitError",
    rateLimitError: true,
    apiError: true,
    inferloopError: true,
    status: 429,
  });
  // inferloop/ai-sdk loads from the package, takes the client from `inferloop`, and runs.
  expect(outcome.aiSdk).toEqual({
    text: "Hello from the AI SDK provider",
    tokenIds: outcome.aiSdk.streamedTokenIds,
    streamed: "Hello from the AI SDK provider",
    streamedTokenIds: expect.any(Number),
    finishReason: "stop",
  });
  expect(outcome.aiSdk.tokenIds).toBeGreaterThan(0);
  // A JSON Schema tool: its validator loads on this runtime, a valid call runs, an invalid one is refused.
  expect(outcome.tools).toEqual({
    answer: "The tool answered: 84",
    issues: [["op", 'Instance does not match any of ["+","*"]']],
  });
  // The first try and both retries reached the service.
  expect(svc.requests.filter((r) => r.path === "/v1/models")).toHaveLength(3);
}

const versionIn = (dir: string, pkg: string): string =>
  (JSON.parse(readFileSync(join(dir, pkg, "package.json"), "utf8")) as { version: string }).version;
const version = (pkg: string) => versionIn(runtimes, pkg);
const devVersion = (pkg: string) => versionIn(join(repo, "node_modules"), pkg);

describe(`Bun ${version("bun")}`, () => {
  it("loads the Bun build (fetch transport) through the `bun` condition and runs the scenario", async () => {
    const outcome = await run("bun", ["main.mjs"]);
    expect(outcome.resolved).toMatch(/inferloop\/dist\/bun\.js$/);
    expectScenario(outcome);
  });

  it("makes OpenTelemetry spans when the app registers a tracer provider", async () => {
    // The app's own OpenTelemetry packages, the versions this repository tests with.
    execFileSync(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        `@opentelemetry/api@${devVersion("@opentelemetry/api")}`,
        `@opentelemetry/sdk-trace-base@${devVersion("@opentelemetry/sdk-trace-base")}`,
      ],
      { cwd: app, stdio: "ignore" },
    );
    const { spans } = await run<{ spans: Array<{ name: string; attributes: Record<string, unknown> }> }>("bun", [
      "otel.mjs",
    ]);
    expect(spans.map((s) => s.name)).toEqual([`chat ${DEFAULT_MODELS[0]}`, `chat ${DEFAULT_MODELS[0]}`]);
    expect(spans[0]!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.response.finish_reasons": ["stop"],
    });
    expect(spans[1]!.attributes["inferloop.stream.chunk_count"]).toBeGreaterThan(0);
  });
});

describe(`Deno ${version("deno")}`, () => {
  it("loads the Node build from node_modules and runs the scenario", async () => {
    const outcome = await run("deno", ["run", "--allow-net", "--allow-env", "--allow-read", "main.mjs"]);
    expect(outcome.resolved).toMatch(/inferloop\/dist\/index\.js$/);
    expectScenario(outcome);
  });
});

describe(`workerd through miniflare ${version("miniflare")}`, () => {
  it("runs a worker bundled with the workerd export conditions and no Node compatibility", async () => {
    const bundle = await build({
      entryPoints: [join(app, "worker.mjs")],
      absWorkingDir: app,
      bundle: true,
      write: false,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      // What wrangler resolves with for a Worker.
      conditions: ["workerd", "worker", "browser"],
      metafile: true,
    });
    const inputs = Object.keys(bundle.metafile.inputs);
    expect(inputs).toContain("node_modules/inferloop/dist/browser.js");
    expect(inputs).toContain("node_modules/inferloop/dist/ai-sdk.js");
    expect(inputs.filter((p) => p.includes("undici"))).toEqual([]);
    // The provider takes only types from the AI SDK: nothing of it is bundled.
    expect(inputs.filter((p) => p.includes("@ai-sdk/") || p.includes("node_modules/ai/"))).toEqual([]);

    const { Miniflare } = (await import(
      pathToFileURL(join(runtimes, "miniflare", "dist", "src", "index.js")).href
    )) as {
      Miniflare: new (
        o: Record<string, unknown>,
      ) => {
        dispatchFetch(url: string, init: { method: string; body: string }): Promise<Response>;
        dispose(): Promise<void>;
      };
    };
    const mf = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]!.text,
      compatibilityDate: "2025-09-01",
    });
    try {
      const res = await mf.dispatchFetch("http://worker.test/", { method: "POST", body: JSON.stringify(config()) });
      const outcome = (await res.json()) as Outcome & { error?: string };
      expect(outcome.error).toBeUndefined();
      expectScenario(outcome);
    } finally {
      await mf.dispose();
    }
  });
});
