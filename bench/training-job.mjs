// `npm run build && node bench/training-job.mjs`: the training-job scenario alone, for
// inferloop and the floor (JSON.stringify + one undici POST of the same body), plus a baseline
// child that builds the job and sends nothing. Prints medians, the time ratio and the memory
// each adds over the baseline next to the body's size.
import { machine } from "./machine.mjs";
import { measure } from "./measure.mjs";
import { startBenchServer } from "./server.mjs";
import { median } from "./stats.mjs";
import { trainingJobParams } from "./training-fixture.mjs";

const SCENARIO = "training-64x8x4k";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONTENDERS = ["inferloop", "floor", "baseline"];

const bodyBytes = Buffer.byteLength(JSON.stringify(trainingJobParams(64, 8, 4000)));
const server = await startBenchServer();
const samples = Object.fromEntries(CONTENDERS.map((c) => [c, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < CONTENDERS.length; i++) {
      const contender = CONTENDERS[(i + round) % CONTENDERS.length];
      const r = await measure(contender, SCENARIO, server.url);
      if (r.error) throw new Error(`${contender}: ${r.error}`);
      samples[contender].push(r);
      process.stderr.write(
        `round ${round + 1} ${contender.padEnd(9)} ${r.ms.toFixed(0)} ms, ${(r.maxRssKB / 1024).toFixed(0)} MiB\n`,
      );
    }
  }
} finally {
  await server.close();
}

const med = (c, key) => median(samples[c].map((r) => r[key]));
const mib = (kb) => kb / 1024;
const bodyMiB = bodyBytes / 1024 / 1024;
const extra = (c) => mib(med(c, "maxRssKB") - med("baseline", "maxRssKB"));
const m = machine();
console.log(`${m.cpu}, ${m.cores} cores, Node ${m.node}, load ${m.loadAverage}; medians of ${ROUNDS} rounds`);
console.log(`body: ${bodyMiB.toFixed(0)} MiB (${bodyBytes} bytes)`);
console.log("| | inferloop | floor | inferloop/floor |");
console.log("| --- | --- | --- | --- |");
for (const [label, key] of [
  ["wall time (ms)", "ms"],
  ["CPU time (ms)", "cpuMs"],
]) {
  const a = med("inferloop", key);
  const b = med("floor", key);
  console.log(`| ${label} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(a / b).toFixed(2)} |`);
}
const ra = mib(med("inferloop", "maxRssKB"));
const rb = mib(med("floor", "maxRssKB"));
console.log(`| peak RSS (MiB) | ${ra.toFixed(0)} | ${rb.toFixed(0)} | ${(ra / rb).toFixed(2)} |`);
console.log(
  `| extra over the baseline's ${mib(med("baseline", "maxRssKB")).toFixed(0)} MiB (MiB) | ${extra("inferloop").toFixed(0)} | ${extra("floor").toFixed(0)} | ${(extra("inferloop") / extra("floor")).toFixed(2)} |`,
);
console.log(
  `| extra / body size | ${(extra("inferloop") / bodyMiB).toFixed(2)} | ${(extra("floor") / bodyMiB).toFixed(2)} | |`,
);
