// Cold import time: a fresh `node` process per sample that times its own `await import(...)`
// of the package (nothing cached in the process; the OS file cache is warm after the first
// sample, as it is for any real app start). Samples of the contenders alternate.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median } from "./stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const IMPORTS = {
  inferloop: new URL("../dist/index.js", import.meta.url).href,
  openai: "openai",
};

function sample(specifier) {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 30_000,
  });
  return Number(out.trim());
}

/** Median import ms per contender over `n` alternating samples. */
export function coldImport(n = 15) {
  const samples = Object.fromEntries(Object.keys(IMPORTS).map((k) => [k, []]));
  for (let i = 0; i < n; i++) for (const [name, spec] of Object.entries(IMPORTS)) samples[name].push(sample(spec));
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, { medianMs: median(v), samples: v }]));
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(JSON.stringify(coldImport(Number(process.argv[2] ?? 15)), null, 2));
