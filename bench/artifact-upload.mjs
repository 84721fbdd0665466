// `npm run build && node bench/artifact-upload.mjs`: memory of a large dataset upload. A child
// process uploads 200 MiB from an async iterable (64 KiB chunks, each a fresh buffer, as a
// stream hands them over) to the fake service, which runs in another child so its copy of the
// upload is not counted. The figure is how much the uploader's peak RSS rises over its peak
// after a warm-up upload: W&B needs each file's MD5 before it hands out the URL, so the SDK
// spools the iterable to a temp file while hashing it, then streams the file; the rise must
// stay under 64 MiB. A second child only makes and hashes the same chunks: its rise is the
// share of the generator itself (fresh buffers are freed when V8 gets round to it).
import { fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { machine } from "./machine.mjs";

const MIB = 1024 * 1024;
const CHUNK = 64 * 1024;
const TOTAL_MIB = Number(process.env.UPLOAD_MIB ?? 200);
const LIMIT_MIB = 64;
const self = fileURLToPath(import.meta.url);

if (process.argv[2] === "serve") {
  const { startFakeService } = await import("../dist/testing.js");
  const svc = await startFakeService({ seedCalls: false });
  process.send({ url: svc.url, apiKey: svc.apiKey });
  process.on("message", async () => {
    await svc.close();
    process.exit(0);
  });
} else if (process.argv[2] === "upload" || process.argv[2] === "generate") {
  const line = new TextEncoder().encode(
    `${JSON.stringify({ messages: [{ role: "user", content: "x".repeat(200) }] })}\n`,
  );
  async function* chunks(mib) {
    for (let i = 0; i < (mib * MIB) / CHUNK; i++) {
      const chunk = new Uint8Array(CHUNK);
      for (let o = 0; o + line.length <= CHUNK; o += line.length) chunk.set(line, o);
      chunk[CHUNK - 1] = i & 0xff; // chunks differ
      yield chunk;
    }
  }
  if (process.argv[2] === "generate") {
    const { createHash } = await import("node:crypto");
    for await (const c of chunks(4)) createHash("md5").update(c);
    const before = process.resourceUsage().maxRSS;
    const h = createHash("md5");
    for await (const c of chunks(TOTAL_MIB)) h.update(c);
    process.stdout.write(`${JSON.stringify({ before, after: process.resourceUsage().maxRSS })}\n`);
    process.exit(0);
  }
  const { Inferloop } = await import("../dist/index.js");
  const [url, apiKey] = process.argv.slice(3);
  const client = new Inferloop({ baseURL: url, apiKey });
  const upload = (name, mib) =>
    client.artifacts.upload({
      entity: "acme",
      project: "bench",
      name,
      type: "dataset",
      files: [{ name: "train.jsonl", data: chunks(mib) }],
    });
  await upload("warm-up", 4);
  const before = process.resourceUsage().maxRSS;
  const started = Date.now();
  const result = await upload("dataset", TOTAL_MIB);
  const after = process.resourceUsage().maxRSS;
  process.stdout.write(`${JSON.stringify({ before, after, ms: Date.now() - started, version: result.version })}\n`);
} else {
  const server = fork(self, ["serve"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const [{ url, apiKey }] = await once(server, "message");
  const run = async (args) => {
    const child = fork(self, args, { stdio: ["ignore", "pipe", "inherit", "ipc"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const [code] = await once(child, "exit");
    if (code !== 0) throw new Error(`${args[0]} exited with ${code}`);
    return JSON.parse(out);
  };
  try {
    const r = await run(["upload", url, apiKey]);
    const g = await run(["generate"]);
    const rise = (r.after - r.before) / 1024;
    const m = machine();
    console.log(`${m.cpu}, ${m.cores} cores, Node ${m.node}, load ${m.loadAverage}`);
    console.log(
      `upload of ${TOTAL_MIB} MiB from an async iterable: peak RSS ${(r.before / 1024).toFixed(0)} MiB after warm-up -> ${(r.after / 1024).toFixed(0)} MiB (rise ${rise.toFixed(1)} MiB, limit ${LIMIT_MIB}); ${r.ms} ms; ${r.version}`,
    );
    console.log(
      `making and hashing the same chunks alone: peak RSS rise ${((g.after - g.before) / 1024).toFixed(1)} MiB`,
    );
    if (rise >= LIMIT_MIB) process.exitCode = 1;
  } finally {
    server.send("close");
    await once(server, "exit");
  }
}
