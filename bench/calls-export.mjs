// `npm run bench:calls-export`: the peak memory of `inferloop calls export` as the count of calls
// grows. The fake service runs in this process with N call records of one project (generated one
// at a time as a query reads them, so the server holds none of them); the command runs in a child
// process, whose peak resident set (`process.resourceUsage().maxRSS`, printed as it exits) is the
// command's alone. Each count is exported twice: into a file (`--out`) and to stdout, read here
// through a pipe. Flat memory means the peak does not grow with the count.
//
//   CALLS_EXPORT_COUNTS=1,20000,200000 npm run bench:calls-export
import { spawn } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const counts = (process.env.CALLS_EXPORT_COUNTS ?? "1,20000,200000").split(",").map(Number);
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const { startFakeService } = await import("../dist/testing.js");
const PROJECT = "acme/synthetic";
// Prints the child's peak RSS (kB) on stderr as it exits, after everything else it wrote.
const reportRss = `data:text/javascript,process.on("exit",()=>process.stderr.write("maxRSS="+process.resourceUsage().maxRSS+"\\n"))`;

/** Runs the command; resolves to its exit code, peak RSS (MB), lines on stdout and seconds. */
function exportCalls(svc, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--import", reportRss, cli, "calls", "export", "-p", PROJECT, ...args], {
      env: { ...process.env, INFERLOOP_BASE_URL: svc.url, INFERLOOP_API_KEY: svc.apiKey },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let lines = 0;
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const rss = /maxRSS=(\d+)/.exec(stderr);
      if (code !== 0 || !rss) return reject(new Error(`exit ${code}: ${stderr}`));
      resolve({ rssMB: Number(rss[1]) / 1024, lines, seconds: (performance.now() - started) / 1000 });
    });
  });
}

async function countLines(file) {
  let lines = 0;
  for await (const chunk of createReadStream(file))
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  return lines;
}

const dir = mkdtempSync(join(tmpdir(), "inferloop-calls-export-"));
const rows = [];
try {
  for (const n of counts) {
    const svc = await startFakeService({ seedCalls: false, syntheticCalls: n, syntheticProjectId: PROJECT });
    try {
      const out = join(dir, `calls-${n}.jsonl`);
      const toFile = await exportCalls(svc, ["--out", out]);
      const written = await countLines(out);
      const mb = statSync(out).size / 1024 / 1024;
      rmSync(out);
      const toStdout = await exportCalls(svc, []);
      if (written !== n || toStdout.lines !== n)
        throw new Error(`${n} calls: ${written} lines in the file, ${toStdout.lines} on stdout`);
      rows.push({ n, mb, toFile, toStdout });
      console.log(
        `${String(n).padStart(7)} calls (${mb.toFixed(0).padStart(4)} MB of JSONL): peak RSS ` +
          `${toFile.rssMB.toFixed(0)} MB into a file (${toFile.seconds.toFixed(1)} s), ` +
          `${toStdout.rssMB.toFixed(0)} MB to stdout (${toStdout.seconds.toFixed(1)} s)`,
      );
    } finally {
      await svc.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
// The two largest counts: the growth that would show a leak (the smallest is Node and the SDK alone).
const [before, last] = [rows.at(-2), rows.at(-1)];
if (before && last)
  console.log(
    `peak RSS from ${before.n} to ${last.n} calls: ${(last.toFile.rssMB - before.toFile.rssMB).toFixed(0)} MB more into a file, ` +
      `${(last.toStdout.rssMB - before.toStdout.rssMB).toFixed(0)} MB more to stdout (node ${process.version})`,
  );
