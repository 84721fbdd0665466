// Bun: which build should Bun load? Compares, inside Bun, the build with the fetch transport
// that the `bun` export condition selects (`dist/bun.js`) with the Node build falling back to
// fetch after finding that Bun's built-in undici has no `Agent#request` (what a run-time
// fallback would do).
// Both send over Bun's `fetch`; the question is what each costs to load and per call.
// Usage: `npm run build && node bench/bun-transport.mjs [rounds]` (needs .tmp/runtimes:
// `node scripts/install-runtimes.mjs`). The fake service runs here, in Node, on loopback.
import { execFile, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startFakeService } from "../dist/testing.js";
import { median } from "./stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUN = `${ROOT}.tmp/runtimes/node_modules/.bin/bun`;
const CALLS = 300;
const STREAMS = 100;

const variant = {
  "bun condition (dist/bun.js)": `const t0 = performance.now();
const { Inferloop } = await import(${JSON.stringify(`${ROOT}dist/bun.js`)});
const client = new Inferloop(cfg);`,
  "fallback (dist/index.js, undici probed, then fetch)": `const t0 = performance.now();
const { Inferloop } = await import(${JSON.stringify(`${ROOT}dist/index.js`)});
const { Agent } = await import("undici");
if (typeof new Agent().request === "function") throw new Error("Bun has Agent#request now");
const client = new Inferloop({ ...cfg, fetch: globalThis.fetch });`,
};

async function sample(setup, cfg) {
  const code = `const cfg = ${JSON.stringify(cfg)};
${setup}
await client.models.list();
const t1 = performance.now();
const t2 = performance.now();
for (let i = 0; i < ${CALLS}; i++) await client.chat.completions.create({ model: cfg.model, messages: [{ role: "user", content: "hi" }] });
const t3 = performance.now();
for (let i = 0; i < ${STREAMS}; i++) { const s = await client.chat.completions.create({ model: cfg.model, messages: [{ role: "user", content: "hi" }], stream: true }); for await (const _ of s) {} }
const t4 = performance.now();
console.log(JSON.stringify({ loadAndFirstCallMs: t1 - t0, callMs: (t3 - t2) / ${CALLS}, streamMs: (t4 - t3) / ${STREAMS} }));`;
  // Asynchronously: the fake service answering it runs in this process.
  const { stdout } = await promisify(execFile)(BUN, ["-e", code], { cwd: ROOT, encoding: "utf8" });
  return JSON.parse(stdout.trim());
}

const rounds = Number(process.argv[2] ?? 5);
const svc = await startFakeService();
try {
  const cfg = { baseURL: svc.url, apiKey: svc.apiKey, model: "Qwen/Qwen3-8B", maxRetries: 0 };
  const samples = Object.fromEntries(Object.keys(variant).map((k) => [k, []]));
  for (let i = 0; i < rounds; i++)
    for (const [name, setup] of i % 2 ? Object.entries(variant).reverse() : Object.entries(variant))
      samples[name].push(await sample(setup, cfg));
  const bun = execFileSync(BUN, ["--version"], { encoding: "utf8" }).trim();
  console.log(`Bun ${bun}, ${rounds} rounds, medians; ${CALLS} chat calls and ${STREAMS} streamed chats per round`);
  for (const [name, s] of Object.entries(samples)) {
    const m = (k) => median(s.map((x) => x[k])).toFixed(3);
    console.log(
      `${name}: import + first call ${m("loadAndFirstCallMs")} ms, chat call ${m("callMs")} ms, streamed chat ${m("streamMs")} ms`,
    );
  }
} finally {
  await svc.close();
}
