// Installs the runtimes pinned in tests/runtimes/package.json (Bun, Deno, miniflare with
// workerd, each from its npm package) into .tmp/runtimes, unless they are there already.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..");
const dir = join(repo, ".tmp", "runtimes");
const wanted = readFileSync(join(repo, "tests", "runtimes", "package.json"), "utf8");
const manifest = join(dir, "package.json");
const current = existsSync(manifest) ? readFileSync(manifest, "utf8") : "";
if (current === wanted && existsSync(join(dir, "node_modules", ".bin", "bun"))) process.exit(0);

mkdirSync(dir, { recursive: true });
writeFileSync(manifest, wanted);
console.log("installing Bun, Deno and miniflare into .tmp/runtimes");
execFileSync("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock"], { cwd: dir, stdio: "inherit" });
