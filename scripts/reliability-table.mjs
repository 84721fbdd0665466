#!/usr/bin/env node
// Regenerates the fault × operation table of docs/reliability.md from the data the reliability
// suite runs (tests/reliability/fault-table.ts). Needs Node 22.18+ / 24 (type stripping).
//   node scripts/reliability-table.mjs           rewrite the table between its markers
//   node scripts/reliability-table.mjs --check   exit 1 when the doc is out of date
//   node scripts/reliability-table.mjs --print   print the table only
import { readFileSync, writeFileSync } from "node:fs";

const { OPERATIONS, FAULTS, TABLE } = await import("../tests/reliability/fault-table.ts");
const { renderFaultTable, BEGIN_MARK, END_MARK } = await import("../tests/reliability/render-table.ts");

const table = renderFaultTable(OPERATIONS, FAULTS, TABLE);
if (process.argv.includes("--print")) {
  process.stdout.write(`${table}\n`);
  process.exit(0);
}

const docPath = new URL("../docs/reliability.md", import.meta.url);
const doc = readFileSync(docPath, "utf8");
const start = doc.indexOf(BEGIN_MARK);
const end = doc.indexOf(END_MARK);
if (start < 0 || end < start) {
  console.error("docs/reliability.md has no fault-table markers");
  process.exit(1);
}
const next = doc.slice(0, start) + table + doc.slice(end + END_MARK.length);
if (process.argv.includes("--check")) {
  if (next !== doc) {
    console.error("docs/reliability.md is out of date: run node scripts/reliability-table.mjs");
    process.exit(1);
  }
  process.exit(0);
}
if (next !== doc) writeFileSync(docPath, next);
console.log(next === doc ? "docs/reliability.md is up to date" : "docs/reliability.md updated");
