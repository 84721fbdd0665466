// Cold import of two builds of the package, alternating fresh `node` processes, to compare a
// change with its base: `node bench/cold-import-compare.mjs <base>/dist/index.js dist/index.js [samples]`.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { median } from "./stats.mjs";

const [a, b, n = "25"] = process.argv.slice(2);
if (!a || !b) throw new Error("usage: node bench/cold-import-compare.mjs <a/index.js> <b/index.js> [samples]");
const specs = [resolve(a), resolve(b)];
const samples = specs.map(() => []);
for (let i = 0; i < Number(n); i++)
  specs.forEach((spec, k) => {
    const code = `const t = performance.now(); await import(${JSON.stringify(spec)}); console.log(performance.now() - t);`;
    samples[k].push(Number(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" })));
  });
specs.forEach((spec, k) => console.log(`${spec}: median ${median(samples[k]).toFixed(2)} ms over ${n} samples`));
