#!/usr/bin/env node
// Regenerates the fault × operation table and the hostile-case table of docs/reliability.md from
// the data the reliability suite runs (tests/reliability/fault-table.ts, hostile-table.ts).
// Needs Node 22.18+ / 24 (type stripping).
//   node scripts/reliability-table.mjs           rewrite the table between its markers
//   node scripts/reliability-table.mjs --check   exit 1 when the doc is out of date
//   node scripts/reliability-table.mjs --print   print the tables only
import { readFileSync, writeFileSync } from "node:fs";

const { OPERATIONS, FAULTS, TABLE } = await import("../tests/reliability/fault-table.ts");
const { HOSTILE_CASES } = await import("../tests/reliability/hostile-table.ts");
const { renderFaultTable, renderHostileTable, BEGIN_MARK, END_MARK, HOSTILE_BEGIN_MARK, HOSTILE_END_MARK } =
  await import("../tests/reliability/render-table.ts");

const tables = [
  { text: renderFaultTable(OPERATIONS, FAULTS, TABLE), begin: BEGIN_MARK, end: END_MARK, name: "fault-table" },
  { text: renderHostileTable(HOSTILE_CASES), begin: HOSTILE_BEGIN_MARK, end: HOSTILE_END_MARK, name: "hostile-table" },
];
if (process.argv.includes("--print")) {
  process.stdout.write(`${tables.map((t) => t.text).join("\n\n")}\n`);
  process.exit(0);
}

const docPath = new URL("../docs/reliability.md", import.meta.url);
const doc = readFileSync(docPath, "utf8");
let next = doc;
for (const t of tables) {
  const start = next.indexOf(t.begin);
  const end = next.indexOf(t.end);
  if (start < 0 || end < start) {
    console.error(`docs/reliability.md has no ${t.name} markers`);
    process.exit(1);
  }
  next = next.slice(0, start) + t.text + next.slice(end + t.end.length);
}
if (process.argv.includes("--check")) {
  if (next !== doc) {
    console.error("docs/reliability.md is out of date: run node scripts/reliability-table.mjs");
    process.exit(1);
  }
  process.exit(0);
}
if (next !== doc) writeFileSync(docPath, next);
console.log(next === doc ? "docs/reliability.md is up to date" : "docs/reliability.md updated");
