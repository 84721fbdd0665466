// publint and Are The Types Wrong on the packed tarball: both must report nothing.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const repo = inject("repo");
const tarball = inject("tarball");
const bin = (name: string): string => join(repo, "node_modules", ".bin", name);

describe("package lint", () => {
  it("publint --strict finds nothing", () => {
    const run = spawnSync(bin("publint"), ["run", tarball, "--strict"], { cwd: repo, encoding: "utf8" });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/All good!/);
  });

  it("attw (strict profile, every entry point and resolution mode) finds no problem", () => {
    const run = spawnSync(bin("attw"), [tarball, "--format", "json"], { cwd: repo, encoding: "utf8" });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const report = JSON.parse(run.stdout) as {
      analysis: {
        entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }>;
        problems: unknown[];
      };
    };
    expect(report.analysis.problems).toEqual([]);
    // Every public entry point was analysed, in all four resolution modes.
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual([
      ".",
      "./ai-sdk",
      "./ai-sdk/v3",
      "./package.json",
      "./progress",
      "./testing",
      "./testing/msw",
    ]);
    for (const entry of Object.values(report.analysis.entrypoints)) {
      expect(Object.keys(entry.resolutions).sort()).toEqual(["bundler", "node10", "node16-cjs", "node16-esm"]);
    }
  });
});
