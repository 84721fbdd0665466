// A consumer's TypeScript, checked against the installed tarball's declarations with the
// project's own `tsc` (TypeScript 7), under moduleResolution node16 (ESM and CJS files) and
// bundler. `skipLibCheck` is off, so the shipped .d.ts/.d.cts files are checked too.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const repo = inject("repo");
const app = inject("app");
// TypeScript 7's own bin, not `node_modules/.bin/tsc`: @typescript/typescript6 (for
// rollup-plugin-dts) brings `@typescript/old`, whose `tsc` bin (TypeScript 6) can win that link.
const tsc = join(repo, "node_modules", "typescript", "bin", "tsc");

// Statements shared by the ESM and CJS consumers (inside an async function for CJS).
const usage = `
  const svc: FakeService = await startFakeService();
  const client = new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey, timeout: 10_000, maxRetries: 1 });
  const params: ChatCompletionCreateParams = { model: "m", messages: [{ role: "user", content: "hi" }] };
  const completion: ChatCompletion = await client.chat.completions.create(params);
  const content: string | null | undefined = completion.choices[0]?.message.content;
  const stream: ChatCompletionStream = await client.chat.completions.create({ ...params, stream: true });
  for await (const chunk of stream) {
    const c: ChatCompletionChunk = chunk;
    void c;
  }
  for await (const text of stream.textStream()) {
    const t: string = text;
    void t;
  }
  const models: ModelList = await client.models.list();
  try {
    await client.chat.completions.create(params, { timeout: 1000 });
  } catch (error) {
    if (error instanceof APIError) {
      const status: number | undefined = error.status;
      void status;
    }
  }
  // @ts-expect-error: \`messages\` is required
  await client.chat.completions.create({ model: "m" });
  // @ts-expect-error: \`stream\` is a boolean
  await client.chat.completions.create({ ...params, stream: "yes" });
  // The documented RL path (issue 32): gathered groups of \`Trajectory\` objects, whose reward is
  // undefined until scored, go to train() and trainingJobs.create() as they are.
  const groups = await gatherTrajectoryGroups([[async () => new Trajectory({ reward: 1 }), async () => new Trajectory()]]);
  const model = await client.trainableModels.register({ project: "p", name: "n", base_model: "b" });
  await model.train(groups);
  await client.trainingJobs.create({ model_id: model.id, trajectory_groups: groups });
  await svc.close();
  return [content, models.data.length] as const;
`;

const imports = `import { Inferloop, APIError, ChatCompletionStream, Trajectory, gatherTrajectoryGroups, type ChatCompletion, type ChatCompletionChunk, type ChatCompletionCreateParams, type ModelList } from "inferloop";
import { startFakeService, type FakeService } from "inferloop/testing";
`;

// msw's own typings need the DOM lib, so its consumer is checked where that lib is on. The
// state made by \`inferloop/testing\` must be accepted by \`inferloop/testing/msw\`: FakeState
// has private members, so this only passes when both entries declare the same class.
const msw = (mode: string): string => `import { createFakeState, type FakeState } from "inferloop/testing";
import { createHandlers, type CreateHandlersOptions } from "inferloop/testing/msw";
import type { HttpHandler } from "msw"${mode};
const state: FakeState = createFakeState();
const options: CreateHandlersOptions = { baseUrl: "http://fake.test" };
export const handlers: HttpHandler[] = createHandlers(state, options);
`;

const files = {
  "esm.ts": `${imports}\nasync function main() {${usage}}\nexport const result = await main();\n`,
  "cjs.cts": `${imports}\nasync function main() {${usage}}\nexport const result = main();\n`,
  "msw.ts": msw(""),
  // msw is ESM-only: a CommonJS file takes its types with resolution-mode "import".
  "msw-cjs.cts": msw(` with { "resolution-mode": "import" }`),
};
const core = ["esm.ts", "cjs.cts"];
const all = Object.keys(files);

const common = {
  target: "es2022",
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  types: ["node"],
  exactOptionalPropertyTypes: true,
};
const configs = {
  // A Node app without the DOM lib: the web globals come from @types/node.
  node16: {
    files: core,
    compilerOptions: { ...common, module: "node16", moduleResolution: "node16", lib: ["es2022"] },
  },
  // A Node app with the DOM lib, which msw's typings need.
  "node16+dom": {
    files: all,
    compilerOptions: {
      ...common,
      module: "node16",
      moduleResolution: "node16",
      lib: ["es2022", "dom", "dom.iterable"],
    },
  },
  // A bundled app (Vite, webpack, esbuild): ESM syntax everywhere, DOM lib.
  bundler: {
    files: all,
    compilerOptions: {
      ...common,
      module: "preserve",
      moduleResolution: "bundler",
      lib: ["es2022", "dom", "dom.iterable"],
    },
  },
};

it("the checker is TypeScript 7", () => {
  expect(spawnSync(tsc, ["--version"], { encoding: "utf8" }).stdout).toMatch(/Version 7\./);
});

describe("consumer type-check against the installed declarations", () => {
  const dir = join(app, "types");
  mkdirSync(dir, { recursive: true });
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);

  it.each(Object.keys(configs) as Array<keyof typeof configs>)("moduleResolution %s", (name) => {
    const project = join(dir, `tsconfig.${name}.json`);
    writeFileSync(project, JSON.stringify(configs[name], null, 2));
    const run = spawnSync(tsc, ["-p", project, "--listFiles"], { cwd: dir, encoding: "utf8" });
    const diagnostics = run.stdout
      .split("\n")
      .filter((line) => !line.startsWith("/"))
      .join("\n");
    expect(run.status, `${diagnostics}\n${run.stderr}`).toBe(0);
    // The declarations were checked from the installed package, the CJS file got the .d.cts.
    expect(run.stdout).toMatch(/node_modules\/inferloop\/dist\/index\.d\.ts/);
    if (name.startsWith("node16")) expect(run.stdout).toMatch(/node_modules\/inferloop\/dist\/index\.d\.cts/);
  });
});
