// Packs the built package once and installs the tarball into a fresh consumer project in a
// temporary directory, the way a user would. The test files receive both paths via `inject`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Root of this repository. */
    repo: string;
    /** Absolute path of the packed `inferloop-x.y.z.tgz`. */
    tarball: string;
    /** Consumer project with the tarball installed (`node_modules/inferloop`). */
    app: string;
  }
}

const repo = resolve(import.meta.dirname, "../..");

/** Version of a dev dependency as installed here, so the consumer gets the same (cached) one. */
export function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(repo, "node_modules", name, "package.json"), "utf8")) as { version: string })
    .version;
}

/** Runs npm without the `npm_*` variables of the surrounding `npm run` leaking into it. */
export function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, env: npmEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** The environment without the `npm_*` variables of the surrounding `npm run`. */
export function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
}

export default function setup(project: TestProject): () => void {
  for (const file of [
    "index.js",
    "index.cjs",
    "index.d.ts",
    "index.d.cts",
    "browser.js",
    "testing.js",
    "testing-msw.js",
    "ai-sdk.js",
    "ai-sdk.cjs",
    "ai-sdk.d.ts",
    "ai-sdk-v3.js",
    "ai-sdk-v3.cjs",
    "ai-sdk-v3.d.ts",
    "cli.js",
  ]) {
    if (!existsSync(join(repo, "dist", file)))
      throw new Error(`dist/${file} is missing: run \`npm run build\` first (npm run test:package does)`);
  }
  const root = mkdtempSync(join(tmpdir(), "inferloop-package-"));
  // `--ignore-scripts`: dist was just built (checked above), so `prepack` need not build again.
  const packed = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", root], repo)) as Array<{
    filename: string;
  }>;
  const tarball = join(root, packed[0]!.filename);

  const app = join(root, "app");
  mkdirSync(app);
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "inferloop-consumer", private: true, type: "module" }, null, 2),
  );
  // The consumer also gets what a typical user of `inferloop/testing` has: @types/node for the
  // type checks and msw (the optional peer of `inferloop/testing/msw`), and what a user of
  // `inferloop/ai-sdk` has: the `ai` package (which brings `@ai-sdk/provider`; inferloop itself
  // declares no dependency on it).
  npm(
    [
      "install",
      tarball,
      `@types/node@${installedVersion("@types/node")}`,
      `msw@${installedVersion("msw")}`,
      `ai@${installedVersion("ai")}`,
      `@ai-sdk/provider@${installedVersion("@ai-sdk/provider")}`,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
    ],
    app,
  );

  project.provide("repo", repo);
  project.provide("tarball", tarball);
  project.provide("app", app);
  return () => {
    if (process.env["KEEP_PACKAGE_TMP"] === undefined) rmSync(root, { recursive: true, force: true });
    else console.log(`kept ${root}`);
  };
}
