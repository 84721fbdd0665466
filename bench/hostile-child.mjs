// One measurement of the hostile-server bench in a fresh process:
// `node bench/hostile-child.mjs <contender> <scenario> <url>`. Same rules as child.mjs.
import { performance } from "node:perf_hooks";
import { HOSTILE_SCENARIOS } from "./hostile-scenarios.mjs";

const [contenderName, scenarioName, url] = process.argv.slice(2);
const scenario = HOSTILE_SCENARIOS[scenarioName];
const { createContender } = await import(`./contenders/hostile-${contenderName}.mjs`);
const contender = await createContender();

await scenario.warm(contender, url);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const { units } = await scenario.run(contender, url);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
process.stdout.write(
  `${JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, units, maxRssKB: process.resourceUsage().maxRSS })}\n`,
);
process.exit(0);
