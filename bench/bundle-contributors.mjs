// Where the bytes of the whole-client browser page come from (issue 26): the page of
// bench/bundle-size.mjs, built by Vite from src/ (so the chunks name source modules, not the
// dist chunks) with the browser build's module swaps. Prints the gzipped bytes the page loads
// before it streams and those it loads at first use (the W&B-only namespaces), then the bytes of
// each source folder and module in each part, as Vite renders them before minifying.
// Usage: node bench/bundle-contributors.mjs [--top N]
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { byFirstLoad } from "./bundle-size.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// The swaps of tsup.config.ts's browser build (keep the two lists alike).
const SWAPS =
  /\/transport\/default\.js$|\/telemetry\.js$|\/token-entry-copy\.js$|\/compact-json-text\.js$|\/async-scope\.js$|\/quick-accept\.js$|\/packed-logprobs\.js$|\/md5\.js$|\/local-files\.js$|\/multipart\.js$|\/lora-deploy\.js$|\/loop-state-file\.js$/;
const PAGE_ID = "\0contributors-page.js";
const PAGE = `
  import { Inferloop } from ${JSON.stringify(join(ROOT, "src/index.ts"))};
  const client = new Inferloop({ baseURL: "https://api.example.com", apiKey: "key" });
  const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
  for await (const chunk of stream) console.log(chunk.choices[0]?.delta?.content ?? "");
`;

const plugin = {
  name: "page-and-browser-swaps",
  enforce: "pre",
  resolveId(id, importer) {
    if (id === PAGE_ID) return id;
    if (importer?.startsWith(join(ROOT, "src")) && SWAPS.test(id))
      return join(importer, "..", id.replace(/\.js$/, ".browser.ts"));
    return null;
  },
  load: (id) => (id === PAGE_ID ? PAGE : null),
};
const result = await build({
  configFile: false,
  root: ROOT,
  logLevel: "silent",
  plugins: [plugin],
  build: { write: false, rolldownOptions: { input: PAGE_ID } },
});
const { loadedFirst, later } = byFirstLoad(result);
const parts = { "loaded before the page streams": loadedFirst, "loaded at first use": later };

const top = Number(process.argv[process.argv.indexOf("--top") + 1]) || 40;
const gz = (list) => list.reduce((n, c) => n + gzipSync(c.code, { level: 9 }).length, 0);
for (const [name, list] of Object.entries(parts))
  console.log(`${name}: ${list.length} chunks, gzipped ${gz(list)} B (from src/, so a little off dist's)`);
const short = (id) =>
  id.includes("node_modules/") ? id.replace(/^.*node_modules\//, "node_modules/") : id.replace(ROOT, "");
const folder = (p) =>
  (p.startsWith("node_modules/") ? p.split("/").slice(0, p.includes("/zod/") ? 4 : 2) : p.split("/").slice(0, 3)).join(
    "/",
  );
for (const [name, list] of Object.entries(parts)) {
  const rows = list
    .flatMap((c) => Object.entries(c.modules).map(([id, m]) => [short(id), m.renderedLength]))
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const byFolder = new Map();
  for (const [p, n] of rows) byFolder.set(folder(p), (byFolder.get(folder(p)) ?? 0) + n);
  console.log(`\n${name}, rendered bytes per folder:`);
  for (const [f, n] of [...byFolder].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(8)}  ${f}`);
  console.log(`\n${name}, rendered bytes per module (top ${top}):`);
  for (const [p, n] of rows.slice(0, top)) console.log(`${String(n).padStart(8)}  ${p}`);
}
