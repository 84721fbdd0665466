/**
 * Leaks and load: 1,000 streams broken off early (break, stream.abort() before and during the
 * read, a caller's AbortSignal, server resets and clean cuts) on one client with the default
 * undici transport. Afterwards: no abort listener left on the caller's shared signal, no
 * MaxListenersExceededWarning, no timer beyond the baseline, no socket beyond the keep-alive
 * pool, and the next requests still work.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { APIConnectionError, APIUserAbortError, type ChatCompletionStream } from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { useFakeService } from "../integration/helpers.js";
import { chatParams, guardProcess, PATHS, runOperation, within } from "./harness.js";

guardProcess();

const STREAMS = 1000;
const CONCURRENCY = 20;
const MODES = ["break", "abortMidRead", "abortBeforeRead", "signal", "serverReset", "serverCut"] as const;
type Mode = (typeof MODES)[number];

function resources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

/** Lets closed sockets and cleared timers drop out of the active-resource list. */
async function settleLoop(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 20));
}

const fake = useFakeService({ seedCalls: false }, { logLevel: "off" });

async function openStream(options: { signal?: AbortSignal }, tokens = 16): Promise<ChatCompletionStream> {
  return fake.client.chat.completions.create({ ...chatParams, max_completion_tokens: tokens, stream: true }, options);
}

/** One stream, broken off early the way `mode` says. Only the expected errors are tolerated. */
async function brokenStream(mode: Mode, shared: AbortSignal): Promise<void> {
  try {
    if (mode === "signal") {
      const own = new AbortController();
      // Long enough to span several reads: the abort lands mid-stream, with chunks still buffered.
      const stream = await openStream({ signal: own.signal }, 200);
      for await (const _ of stream) own.abort();
      throw new Error("signal: the stream ended normally after its signal aborted");
    }
    const stream = await openStream({ signal: shared });
    if (mode === "abortBeforeRead") {
      stream.abort();
      return;
    }
    let n = 0;
    for await (const _ of stream) {
      n++;
      if (mode === "break" && n === 2) break;
      if (mode === "abortMidRead" && n === 2) stream.abort();
    }
    if (mode !== "break") throw new Error(`${mode}: the stream ended normally`);
  } catch (err) {
    const expected =
      mode === "serverReset" || mode === "serverCut"
        ? err instanceof APIConnectionError
        : err instanceof APIUserAbortError;
    if (!expected) throw err;
  }
}

describe("1,000 streams broken off early", () => {
  it("leave no listener, timer or socket behind, and the client still works", async () => {
    // Warm-up: the pool, undici's timers and the lazy import exist before the baseline.
    await runOperation(fake.client, "chatStream");
    await runOperation(fake.client, "chat");
    await settleLoop();
    const baseline = resources();
    const shared = new AbortController();

    const modes: Mode[] = Array.from({ length: STREAMS }, (_, i) => MODES[i % MODES.length]!);
    const resets = modes.filter((m) => m === "serverReset").length;
    const cuts = modes.filter((m) => m === "serverCut").length;
    let next = 0;
    const started = Date.now();
    // The server faults go to whichever requests come first, so run the server-side modes as
    // their own batch: every request of that batch gets one.
    const batches: Mode[][] = [
      modes.filter((m) => m !== "serverReset" && m !== "serverCut"),
      modes.filter((m) => m === "serverReset"),
      modes.filter((m) => m === "serverCut"),
    ];
    for (const batch of batches) {
      if (batch[0] === "serverReset")
        fake.svc.inject(faults.reset({ path: PATHS.chatStream, afterChunks: 2, times: resets }));
      if (batch[0] === "serverCut") fake.svc.inject(faults.cutStream(2, { path: PATHS.chatStream, times: cuts }));
      next = 0;
      const worker = async () => {
        while (next < batch.length) {
          const mode = batch[next++]!;
          await brokenStream(mode, shared.signal);
        }
      };
      await within(60_000, Promise.all(Array.from({ length: CONCURRENCY }, worker)), "1,000 broken streams");
    }
    const elapsed = Date.now() - started;
    expect(fake.svc.state.faults.pending()).toEqual([]);
    expect(fake.svc.requests.filter((r) => r.path === PATHS.chatStream).length).toBe(STREAMS + 2);

    await settleLoop();
    const after = resources();
    expect(getEventListeners(shared.signal, "abort"), "abort listeners left on the shared signal").toHaveLength(0);
    // Timers: undici's own clock and the keep-alive timers are in the baseline already.
    expect(
      after.Timeout ?? 0,
      `timers after ${JSON.stringify(after)} vs ${JSON.stringify(baseline)}`,
    ).toBeLessThanOrEqual((baseline.Timeout ?? 0) + 1);
    // Sockets: both ends live in this process. Each end of the keep-alive pool may stay open
    // (at most one connection per concurrent worker), nothing more.
    expect(after.TCPSocketWrap ?? 0).toBeLessThanOrEqual((baseline.TCPSocketWrap ?? 0) + 2 * CONCURRENCY);

    // The next requests still work, streamed and plain, on the same signal.
    const again = await runOperation(fake.client, "chatStream", { signal: shared.signal });
    expect(again.chunks!.length).toBeGreaterThan(1);
    const plain = await runOperation(fake.client, "chat", { signal: shared.signal });
    expect(plain.text).toBeTruthy();
    // undici drops its listener when the body closes, a tick after the data was read.
    await settleLoop();
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    console.info(
      `1,000 broken streams in ${elapsed} ms; resources before ${JSON.stringify(baseline)}, after ${JSON.stringify(after)}`,
    );
  }, 90_000);

  it("a stream aborted before it is read raises nothing later (regression: uncaught RequestAbortedError)", async () => {
    const raised: unknown[] = [];
    const record = (err: unknown) => raised.push(err);
    process.on("unhandledRejection", record);
    process.on("uncaughtException", record);
    try {
      for (let i = 0; i < 20; i++) (await openStream({})).abort();
      // undici reports the destroyed body on a later tick: give it time to (not) surface.
      await settleLoop();
    } finally {
      process.off("unhandledRejection", record);
      process.off("uncaughtException", record);
    }
    expect(raised).toEqual([]);
  });

  it("thousands of plain requests on one signal leave no listener and no timer", async () => {
    const shared = new AbortController();
    await settleLoop();
    const baseline = resources();
    let next = 0;
    const worker = async () => {
      while (next++ < 1000)
        await fake.client.models.list({ signal: shared.signal, timeout: 5_000, idleTimeout: 5_000 });
    };
    await within(60_000, Promise.all(Array.from({ length: CONCURRENCY }, worker)), "1,000 requests");
    await settleLoop();
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    expect(resources().Timeout ?? 0).toBeLessThanOrEqual((baseline.Timeout ?? 0) + 1);
  }, 90_000);
});
