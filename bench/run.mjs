// `npm run bench`: the whole benchmark. Starts the loopback server, runs every scenario for
// every contender in fresh child processes (contender order rotates each round, so no one
// always runs first or last), then measures cold import and bundle size, prints the table
// and writes the results section of docs/performance.md.
//
// A/B: `BENCH_BASE=<commit> npm run bench` builds that commit into a temporary folder
// (bench/base-build.mjs) and runs it as a fourth contender, "base", in the same rounds, so the
// report gives the working tree's ratios both to the floor and to the base, measured side by
// side under the same load. `BENCH_SCENARIOS=a,b` and `BENCH_CONTENDERS=inferloop,base,floor`
// keep a run short (a partial run prints its tables but leaves docs/performance.md alone).
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBase } from "./base-build.mjs";
import { bundleSizes } from "./bundle-size.mjs";
import { coldImport } from "./cold-import.mjs";
import { machine } from "./machine.mjs";
import { measureInto } from "./measure.mjs";
import { printReport, writeDoc } from "./report.mjs";
import { SCENARIOS } from "./scenarios.mjs";
import { startBenchServer } from "./server.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
// The 1M-record run exists for RSS flatness only and reads ten times the records: fewer rounds.
const FLAT_ROUNDS = Number(process.env.BENCH_FLAT_ROUNDS ?? 3);
const BASE = process.env.BENCH_BASE ? buildBase(process.env.BENCH_BASE) : undefined;
if (BASE) process.env.BENCH_BASE_DIST = BASE.dist; // read by each child (bench/child.mjs)
const only = (name) => (process.env[name] ? process.env[name].split(",").map((x) => x.trim()) : undefined);
const PICKED_SCENARIOS = only("BENCH_SCENARIOS");
const PICKED_CONTENDERS = only("BENCH_CONTENDERS");
const CONTENDERS = ["inferloop", ...(BASE ? ["base"] : []), "openai", "floor"].filter(
  (c) => !PICKED_CONTENDERS || PICKED_CONTENDERS.includes(c),
);
const supports = {
  inferloop: ["chat", "stream", "query", "train", "rollout"],
  base: ["chat", "stream", "query", "train", "rollout"],
  openai: ["chat", "stream", "rollout"],
  floor: ["chat", "stream", "query", "train", "rollout"],
};
const partial = Boolean(PICKED_SCENARIOS || PICKED_CONTENDERS);

const started = Date.now();
const server = await startBenchServer();
const samples = {}; // scenario -> contender -> [{ ms, cpuMs, maxRssKB }]
const errors = [];
try {
  for (let round = 0; round < Math.max(ROUNDS, FLAT_ROUNDS); round++) {
    const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length]);
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      if (PICKED_SCENARIOS && !PICKED_SCENARIOS.includes(name)) continue;
      if (round >= (name === "query-1m-1page" ? FLAT_ROUNDS : ROUNDS)) continue;
      for (const contender of order) {
        if (!supports[contender].includes(scenario.needs)) continue;
        if (name === "query-1m-1page" && contender === "openai") continue;
        await measureInto(samples, errors, round, contender, name, server.url);
      }
    }
  }
} finally {
  await server.close();
}

let imports = {};
let bundles;
if (!partial) {
  process.stderr.write("cold import...\n");
  imports = coldImport(Number(process.env.BENCH_IMPORT_SAMPLES ?? 15));
  process.stderr.write("bundle size...\n");
  bundles = await bundleSizes();
}

const results = {
  machine: machine(),
  date: new Date().toISOString(),
  rounds: ROUNDS,
  base: BASE?.sha,
  flatRounds: FLAT_ROUNDS,
  samples,
  imports,
  bundles,
  errors,
  totalSeconds: (Date.now() - started) / 1000,
};
const raw = join(tmpdir(), "inferloop-bench-results.json");
writeFileSync(raw, JSON.stringify(results, null, 2));
printReport(results);
if (!partial) writeDoc(results);
process.stderr.write(`raw results: ${raw}\n`);
if (errors.length) {
  process.stderr.write(`${errors.length} measurement(s) failed:\n${errors.join("\n")}\n`);
  process.exitCode = 1;
}
