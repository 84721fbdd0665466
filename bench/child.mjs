// One measurement in a fresh process: `node bench/child.mjs <contender> <scenario> <url>`.
// A process per measurement keeps peak RSS per scenario honest (nothing left over from an
// earlier scenario) and stops one contender's JIT state from helping another.
import { performance } from "node:perf_hooks";
import { SCENARIOS } from "./scenarios.mjs";

const [contenderName, scenarioName, url] = process.argv.slice(2);
const scenario = SCENARIOS[scenarioName];
// "base" is the inferloop contender on the build of another commit (`BENCH_BASE`, see run.mjs).
const file = contenderName === "base" ? "inferloop" : contenderName;
const { createContender } = await import(`./contenders/${file}.mjs`);
const contender = await createContender(url, ...(contenderName === "base" ? [process.env.BENCH_BASE_DIST] : []));

await scenario.warm(contender);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await scenario.run(contender);
const ms = performance.now() - t0;
// CPU time of this process alone (user + system): the client's own work, which a loaded
// machine disturbs far less than wall time.
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;
// maxRSS is in KiB: the peak of the whole process, warm-up included.
process.stdout.write(`${JSON.stringify({ ms, cpuMs, maxRssKB: process.resourceUsage().maxRSS })}\n`);
// Keep-alive sockets would hold the process open for seconds.
process.exit(0);
