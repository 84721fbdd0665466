// Build another commit of the SDK beside the working tree, for an A/B run in one process tree
// (`BENCH_BASE=<commit> npm run bench`). The commit's files come from `git archive` (no
// worktree is registered, the repository is left as it is), its `node_modules` is a link to
// this checkout's (same undici, zod and eventsource-parser), and its own tsup config builds
// it. Builds are cached per commit hash in the temporary folder.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Returns `{ sha, dist }`: the full commit hash and the `file:` URL of its `dist/index.js`. */
export function buildBase(ref) {
  const sha = execFileSync("git", ["rev-parse", "--verify", `${ref}^{commit}`], { cwd: ROOT, encoding: "utf8" }).trim();
  const dir = join(tmpdir(), `inferloop-bench-base-${sha.slice(0, 12)}`);
  const entry = join(dir, "dist", "index.js");
  if (!existsSync(entry)) {
    process.stderr.write(`building base ${sha.slice(0, 12)} in ${dir}...\n`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync("git", ["archive", "--format=tar", sha], { cwd: ROOT, maxBuffer: 1 << 30 });
    execFileSync("tar", ["-x", "-C", dir], { input: archive });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    execFileSync(join(ROOT, "node_modules", ".bin", "tsup"), [], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    if (!existsSync(entry)) throw new Error(`the build of ${sha} made no dist/index.js`);
  }
  // A cached build made from another checkout links to that checkout's node_modules, which
  // may be gone: it is run with this one's (the build itself needs nothing from it again).
  const modules = join(dir, "node_modules");
  if (!existsSync(modules)) {
    rmSync(modules, { force: true });
    symlinkSync(join(ROOT, "node_modules"), modules, "dir");
  }
  return { sha, dist: new URL(`file://${entry}`).href };
}
