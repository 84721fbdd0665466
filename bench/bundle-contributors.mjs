// Where the bytes of the whole-client browser page come from (issue 26): the page of
// bench/bundle-size.mjs, bundled from src/ (so esbuild's metafile names source modules, not the
// dist chunks) with the browser build's module swaps, minified. Prints the gzipped total, the
// minified bytes per source folder and per module, and the gzipped total with each client
// namespace left out (the bytes a namespace costs every page that creates a client).
// Usage: node bench/bundle-contributors.mjs [--top N]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// The swaps of tsup.config.ts's browser build (keep the two lists alike).
const SWAPS =
  /\/transport\/default\.js$|\/telemetry\.js$|\/token-entry-copy\.js$|\/compact-json-text\.js$|\/async-scope\.js$|\/quick-accept\.js$/;
const NAMESPACES = ["TrainableModels", "TrainingJobs", "Calls", "AnnotationQueues", "Feedback", "Models"];
// `TrainableModels` builds its own `TrainingJobs`: either alone leaves the jobs' code in.
const LEAVE_OUT = [...NAMESPACES.map((ns) => [ns]), ["TrainableModels", "TrainingJobs"]];
const PAGE = `
  import { Inferloop } from "./src/index.ts";
  const client = new Inferloop({ baseURL: "https://api.example.com", apiKey: "key" });
  const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
  for await (const chunk of stream) console.log(chunk.choices[0]?.delta?.content ?? "");
`;

async function bundle(leaveOut = []) {
  const plugin = {
    name: "browser-swaps",
    setup(b) {
      b.onResolve({ filter: SWAPS }, (a) => ({ path: join(a.resolveDir, a.path.replace(/\.js$/, ".browser.ts")) }));
      if (leaveOut.length > 0)
        b.onLoad({ filter: /src\/client\.ts$/ }, (a) => {
          let text = readFileSync(a.path, "utf8");
          for (const ns of leaveOut) text = text.replace(`new ${ns}(http)`, "undefined as never");
          return { contents: text, loader: "ts" };
        });
    },
  };
  const result = await build({
    stdin: { contents: PAGE, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [plugin],
  });
  const code = result.outputFiles[0].contents;
  return { code, gz: gzipSync(code, { level: 9 }).length, inputs: Object.values(result.metafile.outputs)[0].inputs };
}

const top = Number(process.argv[process.argv.indexOf("--top") + 1]) || 40;
const whole = await bundle();
console.log(`whole page: minified ${whole.code.length} B, gzipped ${whole.gz} B (from src/, so a little off dist's)`);
const rows = Object.entries(whole.inputs)
  .map(([path, { bytesInOutput }]) => [path.replace(/^.*node_modules\//, "node_modules/"), bytesInOutput])
  .filter(([, n]) => n > 0)
  .sort((a, b) => b[1] - a[1]);
const folder = (p) =>
  (p.startsWith("node_modules/") ? p.split("/").slice(0, p.includes("/zod/") ? 4 : 2) : p.split("/").slice(0, 3)).join(
    "/",
  );
const byFolder = new Map();
for (const [p, n] of rows) byFolder.set(folder(p), (byFolder.get(folder(p)) ?? 0) + n);
console.log("\nminified bytes per folder:");
for (const [f, n] of [...byFolder].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(8)}  ${f}`);
console.log(`\nminified bytes per module (top ${top}):`);
for (const [p, n] of rows.slice(0, top)) console.log(`${String(n).padStart(8)}  ${p}`);
console.log("\ngzipped bytes a namespace adds (the page with it left out of the client):");
for (const set of LEAVE_OUT)
  console.log(`${String(whole.gz - (await bundle(set)).gz).padStart(8)}  ${set.join(" + ")}`);
const bare = await bundle(NAMESPACES);
console.log(`${String(whole.gz - bare.gz).padStart(8)}  all of them (chat alone: ${bare.gz} B)`);
