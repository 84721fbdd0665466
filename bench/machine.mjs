// What the numbers were measured on: they mean little without it.

import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";

export function machine() {
  const version = (name) => {
    try {
      // Read directly: not every package exports its package.json.
      return JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), "utf8")).version;
    } catch {
      return "?";
    }
  };
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    // The load when the run started: other work on the machine makes wall times noisy.
    loadAverage: loadavg()
      .map((x) => x.toFixed(2))
      .join(" "),
    versions: { openai: version("openai"), undici: version("undici"), zod: version("zod") },
  };
}
