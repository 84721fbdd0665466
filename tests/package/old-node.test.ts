// On Node older than 22 the installed tarball imports (ESM and CJS), and the first use, the
// client's constructor, throws an InferloopError naming the running Node version and the one
// needed. Runs with a Node < 22 found on PATH outside node_modules (CI's machine has Node 20);
// skipped where there is none.
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const app = inject("app");

function oldNode(): { bin: string; version: string } | undefined {
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    const bin = join(dir, "node");
    if (dir.includes("node_modules") || !existsSync(bin)) continue;
    const version = spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim();
    if (/^v(1\d|2[01])\./.test(version)) return { bin, version };
  }
  return undefined;
}

const old = oldNode();

const scripts = {
  esm: ["old-node.mjs", `const { Inferloop, InferloopError } = await import("inferloop");`],
  cjs: ["old-node.cjs", `const { Inferloop, InferloopError } = require("inferloop");`],
} as const;

describe.skipIf(old === undefined)(`installed tarball on ${old?.version ?? "Node < 22 (none found)"}`, () => {
  it.each(Object.keys(scripts) as Array<keyof typeof scripts>)(
    "%s: imports, then the constructor names the running and the needed Node version",
    (kind) => {
      const [file, load] = scripts[kind];
      writeFileSync(
        join(app, file),
        `${load}
try {
  new Inferloop({ baseURL: "http://127.0.0.1:1", apiKey: "k" });
  console.log(JSON.stringify({ threw: false }));
} catch (e) {
  console.log(JSON.stringify({ threw: true, sdk: e instanceof InferloopError, message: e.message }));
}
`,
      );
      const run = spawnSync(old!.bin, [file], { cwd: app, encoding: "utf8", timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        threw: true,
        sdk: true,
        message: `inferloop needs Node 22 or newer, but this is Node ${old!.version.slice(1)}: upgrade Node to 22 or 24.`,
      });
    },
  );
});
