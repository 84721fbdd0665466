// Browser bundle size of one streaming chat call: the code an app ships to make it, minified and
// gzipped (level 9, as CDNs serve it). `minBytes`/`gzipBytes`: what the page loads before it
// streams, built by Vite as an app's production build (code splitting on, so what a dynamic
// `import()` loads is a chunk of its own, fetched at its first use). `oneFile`: the same page
// bundled into one file by esbuild (`--bundle --minify --platform=browser`, no splitting).
// `esbuildSplit`: what the page loads first when esbuild splits it (`--splitting`), which keeps
// in the first chunks every module its entry reaches statically (esbuild issue #3704).

import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { build as viteBuild } from "vite";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BROWSER_BUILD = JSON.stringify(fileURLToPath(new URL("../dist/browser.js", import.meta.url)));

// The same app for each client: create the client, start a stream, print every delta.
export const APPS = {
  // `dist/browser.js` is what the package's "browser" export condition resolves to.
  inferloop: `
    import { Inferloop } from ${BROWSER_BUILD};
    const client = new Inferloop({ baseURL: "https://api.example.com", apiKey: "key" });
    const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
    for await (const chunk of stream) console.log(chunk.choices[0]?.delta?.content ?? "");
  `,
  // A page that only reads a stream relayed by its own server (docs/browser.md): no client,
  // so none of the request validation.
  inferloopRelay: `
    import { ChatCompletionStream } from ${BROWSER_BUILD};
    const res = await fetch("/api/chat", { method: "POST", body: JSON.stringify({ prompt: "hi" }) });
    for await (const text of ChatCompletionStream.fromReadableStream(res.body).textStream()) console.log(text);
  `,
  openai: `
    import OpenAI from "openai";
    const client = new OpenAI({ baseURL: "https://api.example.com/v1", apiKey: "key", dangerouslyAllowBrowser: true });
    const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
    for await (const chunk of stream) console.log(chunk.choices[0]?.delta?.content ?? "");
  `,
};

const gzip = (code) => gzipSync(code, { level: 9 }).length;

/**
 * The chunks of a Vite build that a page loads before it runs (its entry and what that imports)
 * and those it loads at a dynamic `import()`.
 */
export function byFirstLoad(result) {
  const chunks = (Array.isArray(result) ? result[0] : result).output.filter((o) => o.type === "chunk");
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const first = new Set();
  const queue = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
  for (let file = queue.pop(); file !== undefined; file = queue.pop())
    if (!first.has(file)) {
      first.add(file);
      queue.push(...byName.get(file).imports);
    }
  return {
    loadedFirst: chunks.filter((c) => first.has(c.fileName)),
    later: chunks.filter((c) => !first.has(c.fileName)),
  };
}

/** The page as Vite builds it: bytes of the chunks loaded before it streams, and of the others. */
async function splitSize(name) {
  const page = "\0bench-page.js";
  const result = await viteBuild({
    configFile: false,
    root: ROOT,
    logLevel: "silent",
    plugins: [
      {
        name: "bench-page",
        resolveId: (id) => (id === page ? id : null),
        load: (id) => (id === page ? APPS[name] : null),
      },
    ],
    build: { write: false, rolldownOptions: { input: page } },
  });
  const { loadedFirst, later } = byFirstLoad(result);
  const sum = (list, f) => list.reduce((n, c) => n + f(c.code), 0);
  return {
    minBytes: sum(loadedFirst, (code) => code.length),
    gzipBytes: sum(loadedFirst, gzip),
    laterGzipBytes: sum(later, gzip),
  };
}

/** The page bundled into one file by esbuild. */
async function oneFileSize(name) {
  const result = await build({
    stdin: { contents: APPS[name], resolveDir: ROOT, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { minBytes: code.length, gzipBytes: gzip(code) };
}

/** The page bundled by esbuild with `--splitting`: bytes of the chunks loaded before it streams. */
async function esbuildSplitSize(name) {
  const result = await build({
    stdin: { contents: APPS[name], resolveDir: ROOT, loader: "js" },
    bundle: true,
    minify: true,
    splitting: true,
    outdir: "out",
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const code = new Map(result.outputFiles.map((f) => [f.path.split("/").pop(), f.contents]));
  const first = new Set();
  const queue = Object.keys(outputs).filter((k) => outputs[k].entryPoint === "<stdin>");
  for (let file = queue.pop(); file !== undefined; file = queue.pop())
    if (!first.has(file)) {
      first.add(file);
      queue.push(
        ...outputs[file].imports.filter((i) => i.kind === "import-statement" && !i.external).map((i) => i.path),
      );
    }
  return { gzipBytes: [...first].reduce((n, file) => n + gzip(code.get(file.split("/").pop())), 0) };
}

export async function bundleSize(name) {
  return { ...(await splitSize(name)), oneFile: await oneFileSize(name), esbuildSplit: await esbuildSplitSize(name) };
}

export async function bundleSizes() {
  const out = {};
  for (const name of Object.keys(APPS)) out[name] = await bundleSize(name);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(await bundleSizes(), null, 2));
