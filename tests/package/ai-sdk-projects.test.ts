// A user's own project on each major of the AI SDK, made as docs/getting-started.md says
// (`npm init -y`, `"type": "module"`, `tsc --init` of the installed TypeScript with `"types":
// ["node"]` and @types/node) with the packed tarball beside `ai` 6 and `@ai-sdk/provider` 3 or
// an unversioned `@ai-sdk/provider` (4, while `ai` 6 keeps its 3 nested) with
// `inferloop/ai-sdk/v3`, or `ai` 7 and `@ai-sdk/provider` 4 or 3 with `inferloop/ai-sdk`. The install
// needs no flag (inferloop declares no peer on `@ai-sdk/provider`), the sample type-checks under those
// defaults with the AI SDK's own types (and the model's types are not `any`), and runs as Node
// runs a .ts file: generateText with vLLM's extras in providerMetadata, streamText with a tool
// loop, and JSON output.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { installedVersion, npm, npmEnv } from "./global-setup.js";

const repo = inject("repo");
const tarball = inject("tarball");
const tsc = join(repo, "node_modules", "typescript", "bin", "tsc");
const version = (name: string) => installedVersion(name);

const sample = (entry: string) => `import { generateText, jsonSchema, Output, stepCountIs, streamText, tool } from "ai";
import { Inferloop } from "inferloop";
import { createInferloopProvider, type InferloopProviderMetadata } from "${entry}";
import { startFakeService } from "inferloop/testing";

const svc = await startFakeService();
try {
  const client = new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey, maxRetries: 0 });
  const inferloop = createInferloopProvider({ client });
  const model = inferloop((await client.models.list()).data[0]!.id);
  const call = (options: Parameters<typeof model.doGenerate>[0]) => options;
  // @ts-expect-error: a call needs its prompt (the model is typed by the specification, not any)
  call({});

  const reply = await generateText({
    model,
    prompt: "echo from a user's project",
    providerOptions: { inferloop: { logprobs: true, return_token_ids: true } },
  });
  const meta = reply.providerMetadata?.["inferloop"] as unknown as InferloopProviderMetadata;

  const looped = streamText({
    model,
    prompt: "What does get_weather say for Paris?",
    tools: {
      get_weather: tool({
        description: "Current weather in a city",
        inputSchema: jsonSchema<{ city: string }>({
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
        }),
        execute: async ({ city }) => ({ city, celsius: 21 }),
      }),
    },
    stopWhen: stepCountIs(3),
  });
  const steps = await looped.steps;

  const json = await generateText({
    model,
    prompt: 'echo {"city":"Oslo","celsius":3}',
    output: Output.object({
      schema: jsonSchema<{ city: string; celsius: number }>({
        type: "object",
        properties: { city: { type: "string" }, celsius: { type: "integer" } },
        required: ["city", "celsius"],
      }),
    }),
  });

  console.log(JSON.stringify({
    text: reply.text,
    tokenIds: meta.token_ids?.length,
    logprobs: meta.logprobs?.length,
    requestId: typeof meta.request_id,
    toolCalls: steps[0]?.toolCalls.map((call) => call.toolName),
    final: steps.at(-1)?.text,
    output: json.output,
  }));
} finally {
  await svc.close();
}
`;

const major = (name: string) => version(name).split(".")[0]!;

// `provider` is the major of `@ai-sdk/provider` npm puts at the top level. An unversioned
// `@ai-sdk/provider` beside `ai` 6 is the newest (4), while `ai` 6 keeps its own 3 nested; beside
// `ai` 7 a project may still have 3 (`ai` 7 keeps its 4 nested). Neither entry's declarations may
// take their types from whichever the top level has.
const majors = [
  {
    ai: "ai 6",
    install: [`ai@${version("ai6")}`, `@ai-sdk/provider@${version("@ai-sdk/provider-v3")}`],
    provider: major("@ai-sdk/provider-v3"),
    entry: "inferloop/ai-sdk/v3",
  },
  {
    ai: "ai 6 and an unversioned provider",
    install: [`ai@${version("ai6")}`, "@ai-sdk/provider"],
    provider: major("@ai-sdk/provider"),
    entry: "inferloop/ai-sdk/v3",
  },
  {
    ai: "ai 7",
    install: [`ai@${version("ai")}`, `@ai-sdk/provider@${version("@ai-sdk/provider")}`],
    provider: major("@ai-sdk/provider"),
    entry: "inferloop/ai-sdk",
  },
  {
    ai: "ai 7 and provider 3",
    install: [`ai@${version("ai")}`, `@ai-sdk/provider@${version("@ai-sdk/provider-v3")}`],
    provider: major("@ai-sdk/provider-v3"),
    entry: "inferloop/ai-sdk",
  },
];

describe.each(majors)("a user's project with $ai and $entry", ({ ai, install, provider, entry }) => {
  const dir = join(tarball, "..", `project-${ai.replace(/\W+/g, "")}`);

  it("installs without flags, type-checks under tsc --init defaults, and runs the sample", () => {
    mkdirSync(dir, { recursive: true });
    npm(["init", "-y"], dir);
    npm(["pkg", "set", "type=module"], dir);
    const installed = spawnSync(
      "npm",
      [
        "install",
        tarball,
        ...install,
        `@types/node@${version("@types/node")}`,
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
      ],
      { cwd: dir, env: npmEnv(), encoding: "utf8" },
    );
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stderr).not.toMatch(/ERESOLVE|peer dep/i);
    expect(
      JSON.parse(readFileSync(join(dir, "node_modules", "@ai-sdk", "provider", "package.json"), "utf8")).version,
    ).toMatch(new RegExp(`^${provider}\\.`));

    const init = spawnSync(process.execPath, [tsc, "--init"], { cwd: dir, encoding: "utf8" });
    expect(init.status, init.stdout).toBe(0);
    // The one edit docs/getting-started.md asks for: Node's types, for `process` and `node:` modules.
    const config = readFileSync(join(dir, "tsconfig.json"), "utf8");
    expect(config).toMatch(/^\s*"types": \[\],$/m);
    writeFileSync(join(dir, "tsconfig.json"), config.replace(/^(\s*)"types": \[\],$/m, '$1"types": ["node"],'));

    writeFileSync(join(dir, "sample.ts"), sample(entry));
    const check = spawnSync(process.execPath, [tsc, "--noEmit", "-p", "."], { cwd: dir, encoding: "utf8" });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);

    const run = spawnSync(process.execPath, ["sample.ts"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      text: "from a user's project",
      tokenIds: expect.any(Number),
      logprobs: expect.any(Number),
      requestId: "string",
      toolCalls: ["get_weather"],
      final: 'The tool answered: {"city":"Paris","celsius":21}',
      output: { city: "Oslo", celsius: 3 },
    });
  });
});
