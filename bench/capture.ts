/**
 * What a capture costs per chat call, and that calls outside a capture cost nothing extra.
 * In process, no network: the client's `fetch` answers every request with the same canned
 * completion at once, so the time measured is the SDK's own (validation, request building,
 * reply parsing) plus the capture's recording.
 *
 *   npm run bench:capture                      # this tree
 *   BENCH_BASE_SRC=/path/to/base/src npm run bench:capture   # also the base tree, for "outside"
 *
 * Rows (median of interleaved rounds, microseconds per chat call):
 *   outside        calls with no capture running anywhere
 *   outside, busy  the same while 100 captures are open in other async contexts
 *   captured       each call inside its own capture (a one-call rollout)
 *   captured x5    a 5-turn conversation per capture (each call continues the recorded one)
 *   base outside   the base tree, no capture code at all (with BENCH_BASE_SRC)
 */
import { performance } from "node:perf_hooks";

type Client = {
  chat: { completions: { create(p: unknown): Promise<{ choices: Array<{ message: unknown }> }> } };
};
type Module = {
  Inferloop: new (o: Record<string, unknown>) => Client;
  captureTrajectory?: (fn: () => unknown, o?: unknown) => Promise<unknown>;
};

const CALLS = Number(process.env.BENCH_CAPTURE_CALLS ?? 4000);
const ROUNDS = Number(process.env.BENCH_CAPTURE_ROUNDS ?? 5);

const completion = JSON.stringify({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "Qwen/Qwen3-8B",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: "Open settings and choose Reset password." },
      finish_reason: "stop",
      logprobs: { content: Array.from({ length: 8 }, (_, i) => ({ token: `t${i}`, logprob: -0.1, bytes: [116] })) },
      token_ids: [1, 2, 3, 4, 5, 6, 7, 8],
    },
  ],
  usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 },
});
const fetch = async () => new Response(completion, { headers: { "content-type": "application/json" } });
const messages = [
  { role: "system", content: "You are a concise support assistant." },
  { role: "user", content: "How do I reset my password?" },
];

function clientOf(m: Module): Client {
  return new m.Inferloop({ baseURL: "http://bench.invalid", apiKey: "k", fetch, maxRetries: 0 });
}

async function outside(client: Client): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await client.chat.completions.create({ model: "Qwen/Qwen3-8B", messages });
  return ((performance.now() - t0) * 1000) / CALLS;
}

async function busy(m: Module, client: Client): Promise<number> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const open = Array.from({ length: 100 }, () => m.captureTrajectory!(() => gate));
  const us = await outside(client);
  release();
  await Promise.all(open);
  return us;
}

async function captured(m: Module, client: Client, turns: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CALLS / turns; i++)
    await m.captureTrajectory!(async () => {
      const convo: unknown[] = [...messages];
      for (let turn = 0; turn < turns; turn++) {
        const reply = await client.chat.completions.create({ model: "Qwen/Qwen3-8B", messages: convo });
        convo.push(reply.choices[0]!.message, { role: "user", content: `And then ${turn}?` });
      }
      return 1;
    });
  return ((performance.now() - t0) * 1000) / CALLS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const self = (await import("../src/index.js")) as unknown as Module;
const base = process.env.BENCH_BASE_SRC
  ? ((await import(`${process.env.BENCH_BASE_SRC}/index.ts`)) as unknown as Module)
  : undefined;
const client = clientOf(self);
const baseClient = base ? clientOf(base) : undefined;

const rows: Record<string, number[]> = { outside: [], "outside, busy": [], captured: [], "captured x5": [] };
if (baseClient) rows["base outside"] = [];
// Warm-up, then interleaved rounds so drift hits every row alike.
await outside(client);
if (baseClient) await outside(baseClient);
await captured(self, client, 1);
const runs: Record<string, () => Promise<number>> = {
  outside: () => outside(client),
  "outside, busy": () => busy(self, client),
  captured: () => captured(self, client, 1),
  "captured x5": () => captured(self, client, 5),
};
if (baseClient) runs["base outside"] = () => outside(baseClient);
const names = Object.keys(runs);
for (let r = 0; r < ROUNDS; r++) {
  // A different row goes first each round: no row always pays for the round's start.
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + r) % names.length]!;
    rows[name]!.push(await runs[name]!());
  }
}
// The two pieces alone, without the SDK around them: the check every chat call makes outside
// a capture, and the recording of one reply into a 5-turn conversation.
const { activeChatCapture } = await import("../src/wire/chat/capture-slot.js");
const { TrajectoryRecorder } = await import("../src/lib/trajectories/recorder.js");
const { Trajectory } = await import("../src/index.js");
const CHECKS = 10_000_000;
let seen = 0;
let t0 = performance.now();
for (let i = 0; i < CHECKS; i++) if (activeChatCapture() !== undefined) seen++;
const checkNs = ((performance.now() - t0) * 1e6) / CHECKS;
const reply = JSON.parse(completion) as Parameters<InstanceType<typeof TrajectoryRecorder>["record"]>[1];
const RECORDS = 20_000;
t0 = performance.now();
for (let i = 0; i < RECORDS / 5; i++) {
  const recorder = new TrajectoryRecorder(new Trajectory(), true);
  const convo: unknown[] = [...messages];
  for (let turn = 0; turn < 5; turn++) {
    recorder.record({ model: "m", messages: [...convo] }, reply);
    convo.push(reply.choices[0]!.message, { role: "user", content: `And then ${turn}?` });
  }
}
const recordUs = ((performance.now() - t0) * 1000) / RECORDS;
if (seen !== 0) throw new Error("a capture was active outside every capture");

console.log(
  `hook check outside a capture: ${checkNs.toFixed(2)} ns per call; recording one reply: ${recordUs.toFixed(2)} µs`,
);
console.log(`${CALLS} chat calls per row and round, ${ROUNDS} rounds, median µs per call (Node ${process.version})`);
const ref = median(rows["outside"]!);
for (const [name, xs] of Object.entries(rows)) {
  const m = median(xs);
  const delta = name === "outside" ? "" : ` (${m - ref >= 0 ? "+" : ""}${(m - ref).toFixed(2)} vs outside)`;
  console.log(`  ${name.padEnd(14)} ${m.toFixed(2).padStart(8)} µs${delta}`);
}
