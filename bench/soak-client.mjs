// The soak's client process: `node --expose-gc soak-client.mjs <url> <apiKey> <calls>
// <concurrency> <maxSeconds>`. Prints one JSON line of results.
import { Inferloop } from "../dist/index.js";

const [url, apiKey, callsArg, concArg, maxArg] = process.argv.slice(2);
const CALLS = Number(callsArg);
const CONCURRENCY = Number(concArg);
const deadline = Date.now() + Number(maxArg) * 1000;
const client = new Inferloop({ baseURL: url, apiKey });
const messages = [{ role: "user", content: "Say something short." }];

let started = 0;
let done = 0;
let streamed = 0;
let errors = 0;
let firstError;
let stoppedByTime = false;

async function oneCall(i) {
  if (i % 10 === 9) {
    const stream = await client.chat.completions.create({
      model: "Qwen/Qwen3-8B",
      messages,
      max_completion_tokens: 16,
      stream: true,
    });
    for await (const _ of stream);
    streamed++;
  } else {
    const c = await client.chat.completions.create({ model: "Qwen/Qwen3-8B", messages, max_completion_tokens: 16 });
    if (!c.choices?.length) throw new Error("empty completion");
  }
}

// RSS after a full GC, so the samples show what is retained, not what is merely not yet
// collected. One sample per 1% of the calls.
const samples = [];
const sampleEvery = Math.max(1, Math.floor(CALLS / 100));
const rssKB = () => {
  globalThis.gc?.();
  return process.memoryUsage.rss() / 1024;
};

async function worker() {
  while (started < CALLS) {
    if (Date.now() > deadline) {
      stoppedByTime = true;
      return;
    }
    const i = started++;
    try {
      await oneCall(i);
    } catch (err) {
      errors++;
      firstError ??= `${err?.name}: ${err?.message}`.slice(0, 200);
    }
    done++;
    if (done % sampleEvery === 0) samples.push(rssKB());
  }
}

const t0 = Date.now();
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const seconds = (Date.now() - t0) / 1000;
samples.push(rssKB());

// Baseline: the median of the samples from 10% to 20% of the run (pool, JIT and heap have
// settled by then); end: the median of the last 10%.
const med = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v[v.length >> 1] ?? NaN;
};
const n = samples.length;
const rssStartKB = med(samples.slice(Math.floor(n * 0.1), Math.max(Math.floor(n * 0.2), Math.floor(n * 0.1) + 1)));
const rssEndKB = med(samples.slice(Math.floor(n * 0.9)));
process.stdout.write(
  `${JSON.stringify({
    done,
    streamed,
    errors,
    firstError,
    seconds,
    stoppedByTime,
    rssStartKB,
    rssEndKB,
    rssPeakKB: process.resourceUsage().maxRSS,
    rssGrowthPct: ((rssEndKB - rssStartKB) / rssStartKB) * 100,
    // What is still open once every call has finished: keep-alive sockets of the pool are
    // expected; a pile of timers would be a leak.
    activeResources: Object.entries(
      process.getActiveResourcesInfo().reduce((acc, k) => {
        acc[k] = (acc[k] ?? 0) + 1;
        return acc;
      }, {}),
    ),
  })}\n`,
);
process.exit(0);
