// The installed tarball, imported (ESM) and required (CJS) by plain Node scripts in the consumer
// project, makes real calls against the fake service of `inferloop/testing` on loopback. Runs
// on the Node running the tests (24) and, when `.ci/run` has installed it, on Node 22 too.
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const repo = inject("repo");
const app = inject("app");

const node22 = join(repo, ".tmp", "node22", "node_modules", ".bin", "node");
const runtimes: Array<[string, string]> = [[`node ${process.version}`, process.execPath]];
if (existsSync(node22)) runtimes.push(["node 22 (.tmp/node22)", node22]);

// The same steps in both module systems; `load` is `import` or `require`.
const body = (load: (spec: string) => string, resolveSpec: (spec: string) => string): string => `
const { Inferloop, ChatCompletionStream, APIError } = ${load("inferloop")};
const testing = ${load("inferloop/testing")};
const { createHandlers } = ${load("inferloop/testing/msw")};
const { setupServer } = ${load("msw/node")};
const { sparkline, terminalProgress } = ${load("inferloop/progress")};

async function main() {
  const svc = await testing.startFakeService();
  try {
    const client = new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey, username: svc.username, password: svc.password });
    const models = await client.models.list();
    const model = models.data[0].id;
    const params = { model, messages: [{ role: "user", content: "Hello from the packed tarball" }] };
    const completion = await client.chat.completions.create(params);
    const stream = await client.chat.completions.create({ ...params, stream: true });
    let streamed = "";
    for await (const text of stream.textStream()) streamed += text;
    let notFound = null;
    try {
      await client.chat.completions.create({ ...params, model: "no-such-model" });
    } catch (error) {
      notFound = { api: error instanceof APIError, status: error.status };
    }
    // The msw entry takes the testing entry's state (one shared FakeState class): a request
    // answered by the handlers is recorded in the state made by \`inferloop/testing\`.
    const state = testing.createFakeState();
    const server = setupServer(...createHandlers(state, { baseUrl: "http://msw.inferloop.test" }));
    server.listen();
    let mswModels;
    try {
      const viaMsw = new Inferloop({ baseURL: "http://msw.inferloop.test", apiKey: state.credentials.apiKey, fetch: (input, init) => fetch(input, init) });
      mswModels = (await viaMsw.models.list()).data.length;
    } finally {
      server.close();
    }
    process.stdout.write(JSON.stringify({
      resolved: ${resolveSpec("inferloop")},
      resolvedTesting: ${resolveSpec("inferloop/testing")},
      model,
      models: models.data.length,
      text: completion.choices[0].message.content,
      streamed,
      isStream: stream instanceof ChatCompletionStream,
      // What \`console.log\` and stack traces show: the public names, not the bundler's.
      names: [client.constructor.name, stream.constructor.name, (${load("node:util")}).inspect(client).split(" ")[0]],
      notFound,
      mswModels,
      sharedState: state.requests.length === 1 && state.requests[0].path === "/v1/models",
      chatRequests: svc.requests.filter((r) => r.path === "/v1/chat/completions").length,
      // \`inferloop/progress\` runs on its own: no code of the SDK's in it.
      progress: [sparkline([0, 1]), typeof terminalProgress({ stream: { write: () => {} } })],
    }));
  } finally {
    await svc.close();
  }
}
`;

const scripts = {
  esm: {
    file: "smoke.mjs",
    source: `${body(
      (s) => `await import(${JSON.stringify(s)})`,
      (s) => `import.meta.resolve(${JSON.stringify(s)})`,
    )}\nawait main();\n`,
  },
  cjs: {
    file: "smoke.cjs",
    source: `"use strict";\n${body(
      (s) => `require(${JSON.stringify(s)})`,
      (s) => `require.resolve(${JSON.stringify(s)})`,
    )}\nmain().catch((e) => { console.error(e); process.exitCode = 1; });\n`,
  },
} as const;

describe.each(runtimes)("installed tarball on %s", (_label, nodeBin) => {
  it.each(Object.keys(scripts) as Array<keyof typeof scripts>)(
    "%s: lists models, chats, streams, maps errors",
    (kind) => {
      const { file, source } = scripts[kind];
      writeFileSync(join(app, file), source);
      const run = spawnSync(nodeBin, ["--no-warnings", file], { cwd: app, encoding: "utf8", timeout: 60_000 });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      const result = JSON.parse(run.stdout) as Record<string, unknown>;

      // Resolved through the exports map to the right build, from the installed copy.
      const ext = kind === "esm" ? "js" : "cjs";
      expect(String(result["resolved"])).toMatch(new RegExp(`node_modules/inferloop/dist/index\\.${ext}$`));
      expect(String(result["resolvedTesting"])).toMatch(new RegExp(`node_modules/inferloop/dist/testing\\.${ext}$`));

      expect(typeof result["text"]).toBe("string");
      expect((result["text"] as string).length).toBeGreaterThan(0);
      // The fake service is deterministic: the streamed text is the non-streamed reply.
      expect(result["streamed"]).toBe(result["text"]);
      expect(result["isStream"]).toBe(true);
      expect(result["names"]).toEqual(["Inferloop", "ChatCompletionStream", "Inferloop"]);
      expect(result["progress"]).toEqual(["▁█", "function"]);
      expect(result["notFound"]).toEqual({ api: true, status: 404 });
      expect(result["mswModels"]).toBe(result["models"]);
      expect(result["sharedState"]).toBe(true);
      expect(result["chatRequests"]).toBe(3);
    },
  );
});
