// `npm run soak`: many calls through one client, watching for leaks. The server runs in this
// process and the client in a child, so the child's RSS is the client's alone (the fake
// service keeps a log of every request, which would otherwise look like a client leak).
// Bounded: a call budget, a time budget, and a hard kill of the child after that.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startBenchServer } from "./server.mjs";

const CALLS = Number(process.env.SOAK_CALLS ?? 100_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 64);
const MAX_SECONDS = Number(process.env.SOAK_MAX_SECONDS ?? 300);

/** The project's own fake service when its build is there; the bench server otherwise. */
async function startServer() {
  try {
    const { startFakeService } = await import("../dist/testing.js");
    if (typeof startFakeService === "function") {
      const svc = await startFakeService({ seedCalls: false });
      return { kind: "inferloop/testing startFakeService", url: svc.url, apiKey: svc.apiKey, close: () => svc.close() };
    }
  } catch {
    // Not built yet: fall through.
  }
  const s = await startBenchServer();
  return { kind: "bench/server.mjs", url: s.url, apiKey: "bench-key", close: () => s.close() };
}

const server = await startServer();
console.log(
  `soak: ${CALLS} calls at concurrency ${CONCURRENCY} (1 in 10 streamed) against ${server.kind}, at most ${MAX_SECONDS} s`,
);
const child = fileURLToPath(new URL("./soak-client.mjs", import.meta.url));
const result = await new Promise((resolve) => {
  execFile(
    process.execPath,
    ["--expose-gc", child, server.url, server.apiKey, String(CALLS), String(CONCURRENCY), String(MAX_SECONDS)],
    { timeout: (MAX_SECONDS + 60) * 1000, maxBuffer: 1 << 20 },
    (err, stdout, stderr) =>
      resolve(err ? { error: (stderr || err.message).trim() } : JSON.parse(stdout.trim().split("\n").pop())),
  );
});
await server.close();

if (result.error) {
  console.error(`soak failed: ${result.error}`);
  process.exit(1);
}
const mb = (kb) => `${(kb / 1024).toFixed(1)} MiB`;
console.log(
  `calls done:   ${result.done} (${result.streamed} streamed) in ${result.seconds.toFixed(1)} s${result.stoppedByTime ? " (stopped by the time budget)" : ""}`,
);
console.log(`errors:       ${result.errors}${result.firstError ? ` (first: ${result.firstError})` : ""}   target 0`);
console.log(
  `RSS:          ${mb(result.rssStartKB)} after warm-up -> ${mb(result.rssEndKB)} at the end; peak ${mb(result.rssPeakKB)}`,
);
console.log(`RSS growth:   ${result.rssGrowthPct.toFixed(1)} %   target < 10 %`);
console.log(`left behind:  ${JSON.stringify(result.activeResources)}`);
const ok = result.errors === 0 && result.rssGrowthPct < 10;
console.log(ok ? "soak: targets met" : "soak: TARGET MISSED");
process.exitCode = ok ? 0 : 1;
