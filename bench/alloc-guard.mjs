// The performance guard of `.ci/run`: what the stream hot path allocates and keeps, which,
// unlike time, does not move with the machine's load. bench/hot-path.mjs runs each workload
// once between two full GCs under `--trace-gc-nvp`; the `allocated=` fields of the GCs between
// them add up to every byte the run allocated, the `promoted=` fields to what outlived the
// young generation (what grows the heap and peak RSS). The same workloads read by the floor
// (bench/contenders/floor.mjs) are the yardstick, so the check is a ratio and survives a
// change of Node version.
//
//   npm run build && node bench/alloc-guard.mjs            # check against bench/alloc-baseline.json
//   npm run build && node bench/alloc-guard.mjs --update   # after a change that is meant to move it
//
// Repeat runs of the same build agree closely, the rollouts (whose interleaved streams meet the
// GC at different points) less than the stream (docs/performance.md); the tolerances are above that.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { median } from "./stats.mjs";

const HOT = fileURLToPath(new URL("./hot-path.mjs", import.meta.url));
const BASELINE = fileURLToPath(new URL("./alloc-baseline.json", import.meta.url));
const DIST = new URL("../dist/index.js", import.meta.url).href;
const RUNS = 3;
// Allocated bytes: ratio to the floor may grow by 3%. Promoted bytes: by 10% plus 0.5 MB (the
// stream's are a fraction of a MB, where a few objects more are noise, not a regression).
const ALLOC_TOLERANCE = 1.03;
const PROMOTED_TOLERANCE = 1.1;
const PROMOTED_SLACK_MB = 0.5;

/** { workload: { allocMB, promotedMB } } for one reader, median of RUNS processes. */
function measure(reader) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, ["--expose-gc", "--trace-gc-nvp", HOT, reader, "0"], {
      env: { ...process.env, BENCH_ALLOC: "1" },
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    const result = {};
    let name;
    for (const line of out.split("\n")) {
      if (line.startsWith("ALLOC-START ")) {
        name = line.slice(12);
        result[name] = { allocMB: 0, promotedMB: 0 };
      } else if (line.startsWith("ALLOC-END ")) name = undefined;
      else if (name !== undefined) {
        const a = / allocated=(\d+)/.exec(line);
        const p = / promoted=(\d+)/.exec(line);
        if (a) result[name].allocMB += Number(a[1]) / 1e6;
        if (p) result[name].promotedMB += Number(p[1]) / 1e6;
      }
    }
    runs.push(result);
  }
  const out = {};
  for (const name of Object.keys(runs[0]))
    out[name] = {
      allocMB: round(median(runs.map((r) => r[name].allocMB))),
      promotedMB: round(median(runs.map((r) => r[name].promotedMB))),
    };
  return out;
}

const round = (x) => Math.round(x * 1000) / 1000;

const sdk = measure(DIST);
const floor = measure("floor");
const now = {};
for (const name of Object.keys(sdk))
  now[name] = {
    allocMB: sdk[name].allocMB,
    floorAllocMB: floor[name].allocMB,
    allocRatio: round(sdk[name].allocMB / floor[name].allocMB),
    promotedMB: sdk[name].promotedMB,
  };

if (process.argv.includes("--update")) {
  writeFileSync(BASELINE, `${JSON.stringify({ node: process.version, workloads: now }, null, 2)}\n`);
  process.stdout.write(`baseline written: ${BASELINE}\n${JSON.stringify(now, null, 2)}\n`);
  process.exit(0);
}

const base = JSON.parse(readFileSync(BASELINE, "utf8"));
let failed = false;
for (const [name, b] of Object.entries(base.workloads)) {
  const m = now[name];
  if (!m) {
    process.stdout.write(`${name}: missing from this run\n`);
    failed = true;
    continue;
  }
  const allocOk = m.allocRatio <= b.allocRatio * ALLOC_TOLERANCE;
  const promotedOk = m.promotedMB <= b.promotedMB * PROMOTED_TOLERANCE + PROMOTED_SLACK_MB;
  failed ||= !allocOk || !promotedOk;
  process.stdout.write(
    `${name}: allocated ${m.allocMB} MB = ${m.allocRatio}x the floor's (baseline ${b.allocRatio}x, limit ${round(b.allocRatio * ALLOC_TOLERANCE)}x) ${allocOk ? "ok" : "TOO MUCH"}; ` +
      `promoted ${m.promotedMB} MB (baseline ${b.promotedMB}, limit ${round(b.promotedMB * PROMOTED_TOLERANCE + PROMOTED_SLACK_MB)}) ${promotedOk ? "ok" : "TOO MUCH"}\n`,
  );
}
if (failed) {
  process.stdout.write(
    "The stream hot path allocates or keeps more than its baseline. If that is intended, say why in the commit and run `npm run build && node bench/alloc-guard.mjs --update`; else see docs/performance.md (Guard).\n",
  );
  process.exitCode = 1;
}
