// `npm run bench:evaluation`: a 10,000-row evaluation (`client.evaluations.run`, two scorers)
// against the fake service, which runs in a child process so that this process's memory is the
// SDK's alone. The rows are made before the baseline is taken (they are the caller's).
//
// Pass 1 measures the peak RSS growth over the run and the most predictions in flight at once.
// Goals: growth under 64 MB, and in-flight predictions exactly at the concurrency asked.
// Pass 2 (with --expose-gc) runs it again and, at each quarter of the rows, collects garbage and
// reads the live heap: what the run holds, which must not grow with the rows written.
// Exit code 1 when a goal is missed.
//
//   node --expose-gc --import tsx bench/evaluation-10k.ts [--rows=10000] [--concurrency=16] [--model-ms=10]
//
// `--model-ms` is how long each prediction takes (a fast model answers in tens of ms). RSS also
// counts garbage V8 has not collected yet, so the faster the rows go, the higher the peak.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Inferloop } from "../src/index.js";
import { startFakeService } from "../src/testing/index.js";

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const ROWS = arg("rows", 10_000);
const CONCURRENCY = arg("concurrency", 16);
const MODEL_MS = arg("model-ms", 10);
const GOAL_BYTES = 64 * 1024 * 1024;
const MB = 1024 * 1024;

interface Served {
  url: string;
  apiKey: string;
  username: string;
  password: string;
}

if (process.argv[2] === "serve") {
  const svc = await startFakeService({ seedCalls: false });
  process.send!({ url: svc.url, apiKey: svc.apiKey, username: svc.username, password: svc.password } satisfies Served);
  process.on("disconnect", () => void svc.close().then(() => process.exit(0)));
} else {
  const child = fork(fileURLToPath(import.meta.url), ["serve"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const served = await new Promise<Served>((resolve) => child.once("message", (m) => resolve(m as Served)));
  const { url, ...credentials } = served;
  const client = new Inferloop({ baseURL: url, ...credentials });
  const gc = (globalThis as { gc?: () => void }).gc;

  type Row = { prompt: string; answer: string };
  let inFlight = 0;
  let maxInFlight = 0;
  const model = async (row: Row) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, MODEL_MS));
    inFlight -= 1;
    return `answer ${Number(row.answer) % 10 === 0 ? "?" : row.answer}`;
  };
  const scorers = {
    exact: ({ row, output }: { row: Row; output: string }) => output === `answer ${row.answer}`,
    words: ({ output }: { output: string }) => output.split(" ").length,
  };
  const rowsOf = (n: number): Row[] =>
    Array.from({ length: n }, (_, i) => ({ prompt: `question ${i}`, answer: String(i % 100) }));
  const evaluate = (rows: Row[], onProgress?: (p: { done: number }) => void) =>
    client.evaluations.run({
      project_id: "bench/evals",
      name: "bench",
      dataset: rows,
      model,
      scorers,
      concurrency: CONCURRENCY,
      ...(onProgress ? { onProgress } : {}),
    });

  // Warm up (code loaded and compiled, connections open).
  await evaluate(rowsOf(200));

  // Pass 1: peak RSS over the run.
  const rows = rowsOf(ROWS);
  maxInFlight = 0;
  gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  const run = await evaluate(rows);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const growth = peak - baseline;

  // Pass 2: the live heap at each quarter of the rows.
  const live: string[] = [];
  if (gc) {
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    await evaluate(rows, ({ done }) => {
      if (done % (ROWS / 4) !== 0) return;
      gc();
      live.push(`${done}: ${((process.memoryUsage().heapUsed - heap0) / MB).toFixed(1)} MB`);
    });
  }
  child.disconnect();

  console.log(
    JSON.stringify(
      {
        rows: run.rows,
        failed: run.failed,
        summary: run.summary,
        modelMs: MODEL_MS,
        concurrency: CONCURRENCY,
        maxInFlight,
        rowsPerSecond: Math.round(run.rows / seconds),
        baselineRssMB: (baseline / MB).toFixed(1),
        peakRssMB: (peak / MB).toFixed(1),
        peakGrowthMB: (growth / MB).toFixed(1),
        liveHeapGrowthAfterGc: gc ? live : "run with --expose-gc",
      },
      null,
      2,
    ),
  );
  const ok = growth < GOAL_BYTES && maxInFlight === CONCURRENCY && run.rows === ROWS;
  console.log(
    ok
      ? `PASS: peak RSS growth ${(growth / MB).toFixed(1)} MB < 64 MB; at most ${maxInFlight} predictions in flight = concurrency ${CONCURRENCY}`
      : `FAIL: peak RSS growth ${(growth / MB).toFixed(1)} MB (goal < 64), ${maxInFlight} in flight (goal ${CONCURRENCY}), ${run.rows} rows`,
  );
  process.exitCode = ok ? 0 : 1;
}
