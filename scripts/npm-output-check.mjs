// Reads the output of npm commands (a file, or stdin) and lists the `npm warn` / `npm error`
// lines this repository could prevent; exits 1 if there are any. Used by `.ci/run` on a fresh
// clone's `npm install && npm run demo` and `npm install && npm test`.
//
// Two kinds of warning are the machine's, not the repository's, and are let through:
// - "Unknown user/global/env config": a key in the machine's own npmrc files (or the
//   `npm_config_*` variables npm passes to its scripts), which no project file can unset.
// - EBADENGINE for a dependency: npm checks every package's `engines` against the Node running
//   npm itself (Node 20 here), not the Node 24 from the `node` package that runs them; npm 11 has
//   no setting for the version it checks against, and only the root package is exempt (through
//   `devEngines`). The root package's own EBADENGINE is therefore the project's to prevent.
import { readFileSync } from "node:fs";

const text = readFileSync(process.argv[2] ?? 0, "utf8");
const rootName = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).name;

const lines = text.split(/\r?\n/);
const preventable = [];
for (let i = 0; i < lines.length; i++) {
  const line = lines[i];
  if (!/^npm (warn|error|ERR!)/i.test(line)) continue;
  if (/^npm warn Unknown (user|global|env|builtin) config /.test(line)) continue;
  const engine = /^npm warn EBADENGINE /.exec(line);
  if (engine) {
    const pkg = /^npm warn EBADENGINE {3}package: '(.+)@[^@]*',?$/.exec(line);
    if (pkg && pkg[1] === rootName) preventable.push(`${i + 1}: ${line}`);
    continue;
  }
  preventable.push(`${i + 1}: ${line}`);
}
if (preventable.length > 0) {
  console.log(`npm printed ${preventable.length} warning/error line(s) the repository can prevent:`);
  for (const l of preventable) console.log(`  ${l}`);
  process.exit(1);
}
console.log("npm printed no warning or error the repository can prevent.");
