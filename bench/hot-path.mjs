// The stream hot path without a socket: pre-rendered SSE bodies (bench/fixtures.mjs) cut into
// 64 KiB reads, decoded by `ChatCompletionStream` with the checks a real response gets (event
// deadline, buffer cap, shape and index checks, accumulation), in this one process. No server
// shares the CPU, so it is the steadiest view of the client's own work per chunk.
//
//   node bench/hot-path.mjs [dist/index.js URL | floor] [reps]
//
// `floor` reads the same bytes as the bench's floor contender does (bench/contenders/floor.mjs):
// a plain splitter and JSON.parse for the stream, eventsource-parser for the rollouts.
//
// Prints one JSON line: per workload, the median CPU ms of `reps` runs (after one warm-up run).
import { performance } from "node:perf_hooks";
import { readRollout, sseJSON } from "./contenders/floor.mjs";
import { rolloutContentLength, rolloutSseBody, sseBody, sseContentLength } from "./fixtures.mjs";

const dist = process.argv[2] ?? new URL("../dist/index.js", import.meta.url).href;
const reps = Number(process.argv[3] ?? 5);
const isFloor = dist === "floor";
const { ChatCompletionStream, Redactor, Trajectory } = isFloor ? {} : await import(dist);
const READ = 64 * 1024;

function response(body) {
  const reads = [];
  for (let i = 0; i < body.length; i += READ) reads.push(body.subarray(i, i + READ));
  return {
    status: 200,
    headers: { "content-type": "text/event-stream" },
    requestId: undefined,
    limits: { eventTimeout: 60_000, maxBufferBytes: 8 * 1024 * 1024, since: Date.now() },
    body: {
      async *[Symbol.asyncIterator]() {
        for (const r of reads) yield r;
      },
    },
    cancel() {},
    text: async () => ({ text: "", complete: true }),
    info: () => ({}),
  };
}

const redactor = () =>
  Redactor ? new Redactor([]) : { value: (v) => v, text: (t) => t, error: (e) => e, headers: (h) => h };

export const WORKLOADS = {
  /** One stream of 50,000 plain content chunks, iterated. */
  "stream-50k": {
    body: sseBody(50_000),
    async run(body) {
      const stream = isFloor
        ? sseJSON(response(body).body)
        : ChatCompletionStream.fromResponse(response(body), redactor());
      let chars = 0;
      for await (const chunk of stream) chars += chunk.choices[0]?.delta?.content?.length ?? 0;
      if (chars !== sseContentLength(50_000)) throw new Error(`stream-50k: ${chars} chars`);
    },
  },
  /** 32 rollout streams of 512 tokens (top 5 logprobs, token ids), into trajectories. */
  "rollout-32x512": {
    body: rolloutSseBody(512, 5),
    async run(body) {
      const kept = [];
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          if (isFloor) {
            const r = await readRollout(response(body).body, []);
            if (r.content !== rolloutContentLength(512) || r.ids !== 512)
              throw new Error("rollout: wrong floor result");
            kept.push(r.keep);
            return;
          }
          const stream = ChatCompletionStream.fromResponse(response(body), redactor());
          const completion = await stream.finalCompletion();
          const choice = completion.choices[0];
          if (choice.message.content.length !== rolloutContentLength(512) || choice.token_ids.length !== 512)
            throw new Error("rollout: wrong completion");
          kept.push(Trajectory ? new Trajectory({}).record(completion) : completion);
        }),
      );
    },
  },
};

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
const out = {};
// With `--expose-gc --trace-gc-nvp` (see bench/alloc-guard.mjs): a full GC before and after one
// run of each workload, between two markers on stdout, so every byte the run allocated shows
// up in the `allocated=` fields of the GCs between the markers.
const markAlloc = typeof globalThis.gc === "function" && process.env.BENCH_ALLOC === "1";
const picked = process.env.BENCH_HOT?.split(",");
for (const [name, w] of Object.entries(WORKLOADS)) {
  if (picked && !picked.includes(name)) continue;
  await w.run(w.body);
  if (markAlloc) {
    globalThis.gc();
    process.stdout.write(`ALLOC-START ${name}\n`);
    await w.run(w.body);
    globalThis.gc();
    process.stdout.write(`ALLOC-END ${name}\n`);
  }
  const cpu = [];
  const wall = [];
  for (let i = 0; i < reps; i++) {
    const c0 = cpuMs();
    const t0 = performance.now();
    await w.run(w.body);
    cpu.push(cpuMs() - c0);
    wall.push(performance.now() - t0);
  }
  out[name] = { cpuMs: median(cpu), wallMs: median(wall) };
}
process.stdout.write(`${JSON.stringify(out)}\n`);
