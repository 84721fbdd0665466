// Turn one run's samples into medians, ratios and target verdicts: a table on stdout and the
// generated section of docs/performance.md (the prose around it is kept as written).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SCENARIOS } from "./scenarios.mjs";
import { median } from "./stats.mjs";
import { checkTargets } from "./targets.mjs";

const DOC = fileURLToPath(new URL("../docs/performance.md", import.meta.url));
const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";
const C = ["inferloop", "openai", "floor"];

function tables(results) {
  const med = (s, c, key) => median((results.samples[s]?.[c] ?? []).map((r) => r[key]));
  return {
    scenarios: Object.keys(SCENARIOS).filter((s) => results.samples[s]),
    relayKB: (results.bundles?.inferloopRelay?.gzipBytes ?? Number.NaN) / 1024,
    time: (s, c, key) => med(s, c, key),
    rss: (s, c) => med(s, c, "maxRssKB") / 1024,
    importMs: (c) => results.imports[c]?.medianMs,
    bundleKB: results.bundles ? results.bundles.inferloop.gzipBytes / 1024 : NaN,
  };
}

/** Median over the rounds of a/b, each pair measured in the same round (so both ran under
 * the same load): steadier on a busy machine than the ratio of the two medians. */
function pairedRatio(results, s, a, b, key) {
  const byRound = new Map((results.samples[s]?.[b] ?? []).map((r) => [r.round, r[key]]));
  return median((results.samples[s]?.[a] ?? []).map((r) => r[key] / byRound.get(r.round)));
}

function abTable(results, lines) {
  const t = tables(results);
  const has = (c) => t.scenarios.some((s) => results.samples[s][c]);
  const pairs = [
    ...(has("base") ? [["inferloop", "base"]] : []),
    ...(has("floor") ? [["inferloop", "floor"]] : []),
    ...(has("base") && has("floor") ? [["base", "floor"]] : []),
    ...(has("openai") ? [["inferloop", "openai"]] : []),
  ];
  if (!has("base")) return;
  lines.push("");
  lines.push(
    `### A/B: the working tree (inferloop) against base ${results.base.slice(0, 7)}, the floor and openai (median of per-round ratios)`,
  );
  lines.push("");
  const keys = [
    ["ms", "wall"],
    ["cpuMs", "CPU"],
    ["maxRssKB", "RSS"],
  ];
  lines.push(row(["scenario", ...pairs.flatMap(([a, b]) => keys.map(([, k]) => `${k} ${a}/${b}`))]));
  lines.push(row(Array(1 + pairs.length * keys.length).fill("---")));
  for (const s of t.scenarios)
    lines.push(
      row([
        SCENARIOS[s].label,
        ...pairs.flatMap(([a, b]) => keys.map(([key]) => f2(pairedRatio(results, s, a, b, key)))),
      ]),
    );
}

const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : "–");
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "–");
const row = (cells) => `| ${cells.join(" | ")} |`;

function markdown(results) {
  const t = tables(results);
  const m = results.machine;
  const lines = [];
  lines.push(
    `Run of ${results.date.slice(0, 10)}: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}; load average at start ${m.loadAverage}.`,
  );
  lines.push(
    `openai ${m.versions.openai}, undici ${m.versions.undici}, zod ${m.versions.zod}. Medians of ${results.rounds} rounds (${results.flatRounds} for 1M records); whole run ${f0(results.totalSeconds)} s.${results.base ? ` Base: ${results.base.slice(0, 7)}.` : ""}`,
  );
  lines.push("");
  lines.push("### Time (ms, median; wall-clock, and CPU time of the client process)");
  lines.push("");
  lines.push(
    row([
      "scenario",
      "inferloop",
      "openai",
      "floor",
      "inferloop/openai",
      "inferloop/floor",
      "CPU inferloop",
      "CPU openai",
      "CPU floor",
      "CPU inferloop/openai",
      "CPU inferloop/floor",
    ]),
  );
  lines.push(row(Array(11).fill("---")));
  for (const s of t.scenarios) {
    const w = C.map((c) => t.time(s, c, "ms"));
    const u = C.map((c) => t.time(s, c, "cpuMs"));
    lines.push(
      row([
        SCENARIOS[s].label,
        ...w.map(f0),
        f2(w[0] / w[1]),
        f2(w[0] / w[2]),
        ...u.map(f0),
        f2(u[0] / u[1]),
        f2(u[0] / u[2]),
      ]),
    );
  }
  lines.push("");
  lines.push("### Peak RSS (MiB, median of `process.resourceUsage().maxRSS` in the child)");
  lines.push("");
  lines.push(row(["scenario", "inferloop", "openai", "floor", "inferloop/openai", "inferloop/floor"]));
  lines.push(row(Array(6).fill("---")));
  for (const s of t.scenarios) {
    const r = C.map((c) => t.rss(s, c));
    lines.push(row([SCENARIOS[s].label, ...r.map(f0), f2(r[0] / r[1]), f2(r[0] / r[2])]));
  }
  abTable(results, lines);
  if (!results.bundles) return lines.join("\n");
  lines.push("");
  lines.push("### Cold import and browser bundle");
  lines.push("");
  lines.push(row(["", "inferloop", "openai", "inferloop/openai"]));
  lines.push(row(Array(4).fill("---")));
  lines.push(
    row([
      "cold `await import()` (ms, median)",
      f0(t.importMs("inferloop")),
      f0(t.importMs("openai")),
      f2(t.importMs("inferloop") / t.importMs("openai")),
    ]),
  );
  const b = results.bundles;
  lines.push(
    row([
      "streaming chat call, loaded before it streams (Vite), minified (KB)",
      f2(b.inferloop.minBytes / 1024),
      f2(b.openai.minBytes / 1024),
      f2(b.inferloop.minBytes / b.openai.minBytes),
    ]),
  );
  lines.push(
    row([
      "streaming chat call, loaded before it streams (Vite), gzip (KB)",
      f2(b.inferloop.gzipBytes / 1024),
      f2(b.openai.gzipBytes / 1024),
      f2(b.inferloop.gzipBytes / b.openai.gzipBytes),
    ]),
  );
  if (b.inferloop.oneFile)
    lines.push(
      row([
        "streaming chat call, one file (esbuild), gzip (KB)",
        f2(b.inferloop.oneFile.gzipBytes / 1024),
        f2(b.openai.oneFile.gzipBytes / 1024),
        f2(b.inferloop.oneFile.gzipBytes / b.openai.oneFile.gzipBytes),
      ]),
    );
  if (b.inferloopRelay)
    lines.push(
      row([
        "relay page (`fromReadableStream` + `textStream`), gzip (KB)",
        f2(b.inferloopRelay.gzipBytes / 1024),
        "–",
        "–",
      ]),
    );
  lines.push("");
  lines.push("### Targets");
  lines.push("");
  lines.push(row(["target", "measured", "limit", "verdict"]));
  lines.push(row(Array(4).fill("---")));
  for (const x of checkTargets(t))
    lines.push(
      row([
        x.name,
        f2(x.value),
        x.met === "info" ? "–" : `<= ${x.limit}`,
        x.met === "info" ? "(reference)" : x.met === undefined ? "not measured" : x.met ? "met" : "**missed**",
      ]),
    );
  if (results.errors.length) {
    lines.push("");
    lines.push(`Failed measurements: ${results.errors.length} (see the run's output).`);
  }
  return lines.join("\n");
}

export function printReport(results) {
  process.stdout.write(`\n${markdown(results)}\n`);
}

/** Replace the generated section of docs/performance.md, or create the file around it. */
export function writeDoc(results) {
  const section = `${START}\n${markdown(results)}\n${END}`;
  const doc = existsSync(DOC) ? readFileSync(DOC, "utf8") : `# Performance\n\n## Results\n\n${START}\n${END}\n`;
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  const next =
    a !== -1 && b > a ? doc.slice(0, a) + section + doc.slice(b + END.length) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(DOC, next);
}

// `node bench/report.mjs <raw.json>` re-renders a saved run.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2]) {
  const results = JSON.parse(readFileSync(process.argv[2], "utf8"));
  printReport(results);
  writeDoc(results);
}
