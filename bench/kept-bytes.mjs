// Retained heap per kept token of a training step's batch: `count` rollout streams of `tokens`
// tokens (logprobs with top-5 alternatives, token ids) read into trajectories and kept, the
// way a step keeps its batch until the job is created. Each contender runs in a fresh process
// with --expose-gc; the figure is (heap and array buffers used after a full collection with the
// batch kept - the same before the first rollout) / kept tokens.
//
//   npm run build && node bench/kept-bytes.mjs [--count=256] [--tokens=512] [--contenders=inferloop,floor]
//
// Contenders: "inferloop" (the built package: stream, finalCompletion, Trajectory.record) and
// "floor" (a naive client keeping JSON.parse's objects, bench/contenders/floor.mjs).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startBenchServer } from "./server.mjs";

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

if (process.argv[2] === "--child") {
  const [, , , contenderName, url, countText, tokensText] = process.argv;
  const count = Number(countText);
  const tokens = Number(tokensText);
  const { createContender } = await import(`./contenders/${contenderName}.mjs`);
  const contender = await createContender(url);
  const params = {
    model: "Qwen/Qwen3-8B",
    messages: [{ role: "user", content: "Roll out." }],
    max_completion_tokens: tokens,
    logprobs: true,
    top_logprobs: 5,
    return_token_ids: true,
  };
  // Warm: the same code paths, so what stays is the batch, not the JIT's or the pool's setup.
  for (let i = 0; i < 4; i++) await contender.rollout(params);
  globalThis.gc();
  globalThis.gc();
  // Typed arrays keep their data outside the JS heap: count both.
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = used();
  const kept = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const r = await contender.rollout(params);
      if (r.entries !== tokens || r.top !== 5) throw new Error(`rollout: ${r.entries} entries, top ${r.top}`);
      kept.push(r.keep);
    }
  };
  await Promise.all(Array.from({ length: Math.min(count, 64) }, worker));
  globalThis.gc();
  globalThis.gc();
  const after = used();
  process.stdout.write(
    `${JSON.stringify({ kept: kept.length, bytesPerToken: (after - before) / (count * tokens) })}\n`,
  );
  process.exit(0);
}

const count = Number(arg("count", "256"));
const tokens = Number(arg("tokens", "512"));
const contenders = arg("contenders", "inferloop,floor").split(",");
const server = await startBenchServer();
const { url } = server;
const self = fileURLToPath(import.meta.url);
console.log(`retained heap per kept token: ${count} rollouts x ${tokens} tokens, top_logprobs 5, token ids`);
try {
  for (const name of contenders) {
    // Asynchronously: the server answers from this process meanwhile.
    const { stdout: out } = await promisify(execFile)(
      process.execPath,
      ["--expose-gc", self, "--child", name, url, String(count), String(tokens)],
      { encoding: "utf8", maxBuffer: 1 << 20 },
    );
    const { bytesPerToken } = JSON.parse(out.trim().split("\n").at(-1));
    console.log(`  ${name.padEnd(10)} ${bytesPerToken.toFixed(0).padStart(6)} bytes per kept token`);
  }
} finally {
  await server.close();
}
