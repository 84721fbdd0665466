// `inferloop/ai-sdk` from the installed tarball: its ESM and CommonJS builds load from the
// package and take the client from `inferloop` itself (one copy: an error thrown by the client
// is an instance of the app's `inferloop` classes), `generateText` of the real `ai` package runs
// against the fake service, and a consumer's TypeScript accepts the declarations.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, inject, it } from "vitest";
import * as source from "../../src/ai-sdk/index.js";
import * as sourceV3 from "../../src/ai-sdk/v3.js";

const repo = inject("repo");
const app = inject("app");
const tsc = join(repo, "node_modules", "typescript", "bin", "tsc");
const names = (m: object) => Object.keys(m).sort();

it.each([
  ["inferloop/ai-sdk", "ai-sdk.js", source],
  ["inferloop/ai-sdk/v3", "ai-sdk-v3.js", sourceV3],
])("%s: the ESM and CommonJS builds export exactly the source's names", async (specifier, file, from) => {
  const esm = (await import(pathToFileURL(join(app, "node_modules", "inferloop", "dist", file)).href)) as object;
  const cjs = createRequire(join(app, "package.json"))(specifier) as object;
  expect(names(esm)).toEqual(names(from));
  expect(names(cjs)).toEqual(names(from));
});

// `ai` 6 keeps its own `@ai-sdk/provider` 3 when the top level has 4, and `ai` 7 its own 4 when
// the top level has 3: each entry's types of its specification are its own, so they are the same
// whichever major a project has (tests/types/ai-sdk-v3.test-d.ts, ai-sdk-v4.test-d.ts).
it.each([
  ["ai-sdk.d.ts", "V4"],
  ["ai-sdk.d.cts", "V4"],
  ["ai-sdk-v3.d.ts", "V3"],
  ["ai-sdk-v3.d.cts", "V3"],
])("dist/%s takes no type from @ai-sdk/provider", (file, version) => {
  const dts = readFileSync(join(app, "node_modules", "inferloop", "dist", file), "utf8");
  expect(dts).toMatch(new RegExp(`declare class InferloopChatLanguageModel implements LanguageModel${version} \\{`));
  expect(dts).not.toMatch(/@ai-sdk\//);
});

it("the installed package declares no dependency on @ai-sdk/provider, whose types it carries itself", () => {
  const pkg = JSON.parse(readFileSync(join(app, "node_modules", "inferloop", "package.json"), "utf8")) as Record<
    string,
    Record<string, unknown> | undefined
  >;
  for (const field of ["dependencies", "peerDependencies", "peerDependenciesMeta", "optionalDependencies"])
    expect(Object.keys(pkg[field] ?? {}), field).not.toContain("@ai-sdk/provider");
  // The peers that stay: each optional, each imported only by the entry that needs it.
  expect(pkg["peerDependenciesMeta"]).toEqual({
    msw: { optional: true },
    "@opentelemetry/api": { optional: true },
  });
});

const esmScript = `
import { generateText } from "ai";
import { Inferloop, RateLimitError } from "inferloop";
import { createInferloopProvider } from "inferloop/ai-sdk";
import { faults, startFakeService } from "inferloop/testing";

const svc = await startFakeService();
try {
  const client = new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey, maxRetries: 0 });
  const inferloop = createInferloopProvider({ client });
  const model = (await client.models.list()).data[0].id;
  const { text, providerMetadata } = await generateText({
    model: inferloop(model),
    prompt: "echo from the tarball",
    providerOptions: { inferloop: { return_token_ids: true } },
  });
  svc.inject(faults.rateLimited({ path: "/v1/chat/completions" }));
  let shared = null;
  try {
    await generateText({ model: inferloop(model), prompt: "hi", maxRetries: 0 });
  } catch (error) {
    shared = error instanceof RateLimitError;
  }
  process.stdout.write(JSON.stringify({
    resolved: import.meta.resolve("inferloop/ai-sdk"),
    text,
    tokenIds: providerMetadata.inferloop.token_ids.length,
    shared,
  }));
} finally {
  await svc.close();
}
`;

// CommonJS, without the `ai` package (ESM-only): the model called directly, as the AI SDK would.
const cjsScript = `"use strict";
const { Inferloop, RateLimitError } = require("inferloop");
const { createInferloopProvider } = require("inferloop/ai-sdk");
const { faults, startFakeService } = require("inferloop/testing");

async function main() {
  const svc = await startFakeService();
  try {
    const client = new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey, maxRetries: 0 });
    const model = createInferloopProvider({ client })((await client.models.list()).data[0].id);
    const prompt = [{ role: "user", content: [{ type: "text", text: "echo from the tarball" }] }];
    const result = await model.doGenerate({ prompt });
    svc.inject(faults.rateLimited({ path: "/v1/chat/completions" }));
    let shared = null;
    try {
      await model.doGenerate({ prompt });
    } catch (error) {
      shared = error instanceof RateLimitError;
    }
    process.stdout.write(JSON.stringify({
      resolved: require.resolve("inferloop/ai-sdk"),
      text: result.content.find((p) => p.type === "text").text,
      shared,
    }));
  } finally {
    await svc.close();
  }
}
main().catch((e) => { console.error(e); process.exitCode = 1; });
`;

describe("installed tarball, inferloop/ai-sdk", () => {
  it.each([
    ["esm", "ai-sdk-smoke.mjs", esmScript, "js"],
    ["cjs", "ai-sdk-smoke.cjs", cjsScript, "cjs"],
  ])("%s: generates through the client of the app's `inferloop`", (_kind, file, script, ext) => {
    writeFileSync(join(app, file), script);
    const run = spawnSync(process.execPath, ["--no-warnings", file], { cwd: app, encoding: "utf8", timeout: 60_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(String(result["resolved"])).toMatch(new RegExp(`node_modules/inferloop/dist/ai-sdk\\.${ext}$`));
    expect(result["text"]).toBe("from the tarball");
    expect(result["shared"]).toBe(true);
    if (ext === "js") expect(result["tokenIds"]).toBeGreaterThan(0);
  });
});

// Two consumers. The strict one (skipLibCheck off, so the shipped .d.ts and .d.cts are checked)
// uses the provider without `ai`: the AI SDK's own declarations do not pass a strict lib check
// (`ai` and `@ai-sdk/provider-utils` under exactOptionalPropertyTypes, `@ai-sdk/provider`
// without `@types/json-schema`, whose types a shim stands in for). The app with `ai` is checked
// with skipLibCheck on, as such apps are; its `@ts-expect-error` fails if a type decays to any.
const strictUsage = `
  const client = new Inferloop({ baseURL: "http://localhost:8000", apiKey: "k" });
  const inferloop: InferloopProvider = createInferloopProvider({ client, maxRetries: 1 });
  const provider: ProviderV4 = inferloop;
  const model: LanguageModelV4 = inferloop("Qwen/Qwen3-8B");
  const v3: LanguageModelV3 = createV3({ client })("Qwen/Qwen3-8B");
  const result = await model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
  const meta = result.providerMetadata?.["inferloop"] as unknown as InferloopProviderMetadata | undefined;
  const options: InferloopProviderOptions = { top_k: 20, extraBody: { x: 1 } };
  // @ts-expect-error: not a chat field's type
  const wrong: InferloopProviderOptions = { top_k: "20" };
  return [provider, v3, meta?.token_ids, options, wrong] as const;
`;
const strictImports = `import type { LanguageModelV3, LanguageModelV4, ProviderV4 } from "@ai-sdk/provider"$MODE;
import { Inferloop } from "inferloop";
import { createInferloopProvider, type InferloopProvider, type InferloopProviderMetadata, type InferloopProviderOptions } from "inferloop/ai-sdk";
import { createInferloopProvider as createV3 } from "inferloop/ai-sdk/v3";
`;
const jsonSchemaShim = `declare module "json-schema" {
  export type JSONSchema7 = Record<string, unknown>;
  export type JSONSchema7Definition = JSONSchema7 | boolean;
  export type JSONSchema7TypeName = string;
}
`;

const aiUsage = `
  const inferloop = createInferloopProvider({ baseURL: "http://localhost:8000", apiKey: "k" });
  const model: LanguageModel = inferloop("Qwen/Qwen3-8B");
  const { text, providerMetadata } = await generateText({
    model,
    prompt: "hi",
    providerOptions: { inferloop: { top_k: 20, logprobs: true, extraBody: { x: 1 } } satisfies InferloopProviderOptions },
  });
  // @ts-expect-error: not a chat field's type
  const wrong = { top_k: "20" } satisfies InferloopProviderOptions;
  return [text, providerMetadata, wrong] as const;
`;
const aiImports = `import { generateText, type LanguageModel } from "ai";
import { createInferloopProvider, type InferloopProviderOptions } from "inferloop/ai-sdk";
`;

describe("consumer type-check of inferloop/ai-sdk", () => {
  const dir = join(app, "types-ai-sdk");
  mkdirSync(dir, { recursive: true });
  const files = {
    "strict.ts": `${strictImports.replace("$MODE", "")}\nasync function main() {${strictUsage}}\nexport const result = await main();\n`,
    // @ai-sdk/provider is ESM-only: a CommonJS file takes its types with resolution-mode "import".
    "strict.cts": `${strictImports.replace("$MODE", ' with { "resolution-mode": "import" }')}\nasync function main() {${strictUsage}}\nexport const result = main();\n`,
    "json-schema.d.ts": jsonSchemaShim,
    "app.ts": `${aiImports}\nasync function main() {${aiUsage}}\nexport const result = await main();\n`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const common = {
    target: "es2022",
    strict: true,
    noEmit: true,
    types: ["node"],
    exactOptionalPropertyTypes: true,
    lib: ["es2022", "dom", "dom.iterable"],
  };
  const node16 = { module: "node16", moduleResolution: "node16" };
  const bundler = { module: "preserve", moduleResolution: "bundler" };
  const strict = ["strict.ts", "json-schema.d.ts"];
  const configs = {
    "strict, node16": {
      files: [...strict, "strict.cts"],
      compilerOptions: { ...common, ...node16, skipLibCheck: false },
    },
    "strict, bundler": { files: strict, compilerOptions: { ...common, ...bundler, skipLibCheck: false } },
    "app with ai, node16": { files: ["app.ts"], compilerOptions: { ...common, ...node16, skipLibCheck: true } },
    "app with ai, bundler": { files: ["app.ts"], compilerOptions: { ...common, ...bundler, skipLibCheck: true } },
  };

  it.each(Object.keys(configs) as Array<keyof typeof configs>)("%s", (name) => {
    const project = join(dir, `tsconfig.${name.replace(/\W+/g, "-")}.json`);
    writeFileSync(project, JSON.stringify(configs[name], null, 2));
    const run = spawnSync(tsc, ["-p", project, "--listFiles"], { cwd: dir, encoding: "utf8" });
    const diagnostics = run.stdout
      .split("\n")
      .filter((line) => !line.startsWith("/"))
      .join("\n");
    expect(run.status, `${diagnostics}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/node_modules\/inferloop\/dist\/ai-sdk\.d\.ts/);
    if (name.startsWith("strict")) expect(run.stdout).toMatch(/node_modules\/inferloop\/dist\/ai-sdk-v3\.d\.c?ts/);
    if (name === "strict, node16") expect(run.stdout).toMatch(/node_modules\/inferloop\/dist\/ai-sdk\.d\.cts/);
  });
});
