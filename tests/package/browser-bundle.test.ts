// Size budgets of the SDK in browser apps (a streaming chat call with a whole client; a page
// reading a stream relayed by its server), bundled from the installed tarball exactly as a user's
// bundler would (exports map, `browser` condition), minified, gzipped. The chat page is built by
// Vite, as an app is built for production (code splitting on); the relay page and the chat page
// as one file by esbuild. Summaries (and esbuild's metafiles) go to test-output/ for a look at
// what the bytes are.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { type Rolldown, build as viteBuild } from "vite";
import { describe, expect, inject, it } from "vitest";

const repo = inject("repo");
const app = inject("app");

/**
 * Gzipped, what the chat page loads before it streams: its first chunk and the chunks that one
 * imports. They hold the client, chat (with `runTools`, structured outputs and the vLLM request
 * rules) and models, every namespace class and the lists their methods return. The W&B-only
 * namespaces (trainable models, training and SFT jobs, artifacts, LoRA deploys, evaluations, and the trace
 * server's calls, annotation queues and feedback) load their endpoints, schemas and helpers at
 * their first call, as chunks of their own; docs/performance.md ("Browser bundle") has the sizes,
 * and `node bench/bundle-contributors.mjs` says where they come from.
 */
const BUDGET = 50_000;

/**
 * Gzipped, the same page bundled into one file (esbuild, no code splitting): without splitting,
 * an app carries every namespace, each wrapped to load at its first call.
 */
const ONE_FILE_BUDGET = 88_500;

/**
 * Gzipped, for a page that only reads a stream relayed by its own server (issue 26, item 5;
 * docs/browser.md): it creates no client, so it must carry none of the request validation.
 * docs/performance.md ("Browser relay page") has its size.
 */
const RELAY_BUDGET = 10_000;

// The request operations of the W&B-only namespaces (one or more per namespace), as their
// endpoint declarations name them: none may be in what the chat page loads first, all must be in
// the chunks it loads later.
const LOADED_LATER = [
  "calls.query",
  "annotation_queues.items.add",
  "feedback.create",
  "training_jobs.create",
  "training_jobs.events.list",
  "sft_training_jobs.create",
  "trainable_models.register",
  "trainable_models.checkpoints.list",
  "artifacts.create_manifest",
];

const entry = `import { Inferloop } from "inferloop";

export async function streamReply(baseURL, apiKey, prompt, onText) {
  const client = new Inferloop({ baseURL, apiKey });
  const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: prompt }], stream: true });
  for await (const text of stream.textStream()) onText(text);
}
`;

// The page of docs/browser.md's relay, importing from the main entry as the docs show.
const relayEntry = `import { ChatCompletionStream } from "inferloop";

export async function readRelay(prompt, onText) {
  const res = await fetch("/api/chat", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt }) });
  if (!res.ok || !res.body) throw new Error(\`relay answered \${res.status}\`);
  const stream = ChatCompletionStream.fromReadableStream(res.body);
  for await (const text of stream.textStream()) onText(text);
}
`;

/** Bytes per input file, largest first, grouped by package (zod by file). */
function grouped(bytesByInput: Iterable<[string, number]>): Array<[string, number]> {
  const groups = new Map<string, number>();
  for (const [path, bytes] of bytesByInput) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
    const key = m === null ? path : m[1] === "zod" ? `zod/${m[2]!.split("/").slice(0, 3).join("/")}` : m[1]!;
    groups.set(key, (groups.get(key) ?? 0) + bytes);
  }
  return [...groups].sort((a, b) => b[1] - a[1]);
}

/** Writes the summary (size, budget, largest contributors) to test-output/<name>.txt and prints it. */
function summarize(name: string, head: string, contributors: Array<[string, number]>): string {
  const summary = [
    head,
    ...contributors.slice(0, 12).map(([file, bytes]) => `  ${String(bytes).padStart(7)} B  ${file}`),
  ].join("\n");
  const out = join(repo, "test-output");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${name}.txt`), `${summary}\n`);
  console.log(summary);
  return summary;
}

/** Bundles `source` as a user's app into one file with esbuild (exports map, `browser` condition), minified. */
async function bundle(name: string, source: string, budget: number) {
  writeFileSync(join(app, `${name}-entry.js`), source);
  const result = await build({
    absWorkingDir: app,
    entryPoints: [`${name}-entry.js`],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  const gzipped = gzipSync(code).length;
  const metafile: Metafile = result.metafile;
  mkdirSync(join(repo, "test-output"), { recursive: true });
  writeFileSync(join(repo, "test-output", `${name}.meta.json`), JSON.stringify(metafile, null, 2));
  const byInput = Object.values(metafile.outputs)[0]!.inputs;
  const contributors = grouped(Object.entries(byInput).map(([path, { bytesInOutput }]) => [path, bytesInOutput]));
  const head = `${name}: minified ${code.length} B, gzipped ${gzipped} B (budget ${budget} B)`;
  const summary = summarize(name, head, contributors);
  // Files with code in the output (esbuild also lists the files it read and dropped whole).
  const used = contributors.filter(([, bytes]) => bytes > 0).map(([file]) => file);
  return { text: new TextDecoder().decode(code), gzipped, inputs: Object.keys(metafile.inputs), used, summary };
}

/**
 * Builds `source` as a Vite app's production build (code splitting, Vite's minifier) and splits
 * the chunks into those the page loads first (the entry and what it imports) and those it loads
 * at a dynamic `import()`.
 */
async function bundleWithVite(name: string, source: string, budget: number) {
  const input = join(app, `${name}-entry.js`);
  writeFileSync(input, source);
  const result = await viteBuild({
    configFile: false,
    root: app,
    logLevel: "silent",
    // The page's exports are its API (as a module of a larger app): kept, not tree-shaken away.
    build: { write: false, rolldownOptions: { input, preserveEntrySignatures: "strict" } },
  });
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
  const chunks = output.output.filter((o): o is Rolldown.OutputChunk => o.type === "chunk");
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const first = new Set<string>();
  const queue = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
  for (let file = queue.pop(); file !== undefined; file = queue.pop())
    if (!first.has(file)) {
      first.add(file);
      queue.push(...byName.get(file)!.imports);
    }
  const loadedFirst = chunks.filter((c) => first.has(c.fileName));
  const loadedLater = chunks.filter((c) => !first.has(c.fileName));
  const gzipped = loadedFirst.reduce((n, c) => n + gzipSync(c.code).length, 0);
  const later = loadedLater.reduce((n, c) => n + gzipSync(c.code).length, 0);
  const contributors = grouped(
    loadedFirst.flatMap((c) => Object.entries(c.modules).map(([id, m]): [string, number] => [id, m.renderedLength])),
  );
  const head = `${name}: loaded first ${loadedFirst.length} chunks, gzipped ${gzipped} B (budget ${budget} B); loaded at first use ${loadedLater.length} chunks, gzipped ${later} B; rendered bytes of what is loaded first:`;
  const summary = summarize(name, head, contributors);
  return {
    gzipped,
    first: loadedFirst.map((c) => c.code).join("\n"),
    later: loadedLater.map((c) => c.code).join("\n"),
    inputs: [...new Set(chunks.flatMap((c) => Object.keys(c.modules)))],
    summary,
  };
}

// `dist/browser.js` only re-exports; the code is in its chunks (`dist/browser-<hash>.js`).
const isBrowserBuild = (p: string) => /node_modules\/inferloop\/dist\/browser(-[A-Z0-9]+)?\.js$/.test(p);

/** Nothing Node-only, nothing from `inferloop/testing`, and no trajectory capture. */
function expectBrowserOnly(text: string) {
  expect(text).not.toMatch(/["'`]node:[a-z]/);
  expect(text).not.toMatch(/undici/i);
  expect(text).not.toMatch(/startFakeService|createFakeState|FakeState/);
  // No trajectory capture: the chat call only reads its capture slot, which a running
  // capture plugs (apps that import captureTrajectory bundle the capture). The strings are
  // the stream watcher's and captureTrajectory's.
  expect(text).not.toMatch(/The stream was aborted\.|needs AsyncLocalStorage/);
}

describe("browser bundle of a streaming chat call", () => {
  it(`loads at most ${BUDGET / 1000} KB gzipped before it streams; the W&B-only namespaces load at first use`, async () => {
    const { gzipped, first, later, inputs, summary } = await bundleWithVite("browser-bundle", entry, BUDGET);

    // Resolved through the exports map to the browser build of the installed package (whose
    // `browser.js` only re-exports, so the bundler keeps its chunks only).
    const fromPackage = inputs.filter((p) => p.includes("node_modules/inferloop/"));
    expect(fromPackage.length).toBeGreaterThan(0);
    expect(fromPackage.filter((p) => !isBrowserBuild(p))).toEqual([]);
    expect(inputs.filter((p) => p.startsWith("node:") || /undici|msw/.test(p))).toEqual([]);
    expectBrowserOnly(`${first}\n${later}`);
    // Every W&B-only namespace is still in the app, in the chunks loaded at its first call.
    for (const operation of LOADED_LATER) {
      // As a string literal in any quotes (Vite's minifier writes backticks).
      const literal = new RegExp(`["'\`]${operation.replaceAll(".", "\\.")}["'\`]`);
      expect(first, operation).not.toMatch(literal);
      expect(later, operation).toMatch(literal);
    }
    expect(gzipped, summary).toBeLessThanOrEqual(BUDGET);
  });

  it(`stays within ${ONE_FILE_BUDGET / 1000} KB gzipped bundled into one file`, async () => {
    const { text, gzipped, inputs, summary } = await bundle("browser-bundle-one-file", entry, ONE_FILE_BUDGET);

    const fromPackage = inputs.filter((p) => p.includes("node_modules/inferloop/"));
    expect(fromPackage).toContain("node_modules/inferloop/dist/browser.js");
    expect(fromPackage.filter((p) => !isBrowserBuild(p))).toEqual([]);
    expect(inputs.filter((p) => p.startsWith("node:") || /undici|msw/.test(p))).toEqual([]);
    expectBrowserOnly(text);
    expect(gzipped, summary).toBeLessThanOrEqual(ONE_FILE_BUDGET);
  });
});

describe("browser bundle of a page reading a relayed stream", () => {
  it(`stays within ${RELAY_BUDGET / 1000} KB gzipped and carries no request validation`, async () => {
    const { text, gzipped, inputs, used, summary } = await bundle("browser-relay-bundle", relayEntry, RELAY_BUDGET);

    expect(inputs.filter((p) => p.includes("node_modules/inferloop/")).filter((p) => !isBrowserBuild(p))).toEqual([]);
    // No zod (the request schemas), no client, no transport: only the stream reader.
    expect(used.filter((p) => p.startsWith("zod"))).toEqual([]);
    expect(text).not.toMatch(/RequestValidationError|chat\/completions|undici/);
    expect(gzipped, summary).toBeLessThanOrEqual(RELAY_BUDGET);
  });
});
