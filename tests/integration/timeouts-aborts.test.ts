/**
 * Timeouts and aborts over real HTTP: `timeout` until headers (with and without retries), the
 * caller's signal at every stage, and no abort listeners or warnings left behind after many
 * requests sharing one long-lived signal.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { APIConnectionTimeoutError, APIUserAbortError } from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { caught, clientFor, eventually, MODEL, useFakeService } from "./helpers.js";

const CHAT = "/v1/chat/completions";
const MODELS = "/v1/models";

const fake = useFakeService();

const echo = (text: string) => ({ model: MODEL, messages: [{ role: "user" as const, content: `echo ${text}` }] });

describe("timeout until headers", () => {
  it("a stall before headers with timeout 200 and no retries rejects with APIConnectionTimeoutError", async () => {
    fake.svc.inject(faults.stall({ path: MODELS }));
    const err = await caught(() => fake.client.models.list({ timeout: 200, maxRetries: 0 }));
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect((err as Error).message).toContain("200 ms");
    expect(fake.svc.requests).toHaveLength(1);
  });

  it("the client-level timeout applies too", async () => {
    fake.svc.inject(faults.stall({ path: CHAT }));
    const err = await caught(() => clientFor(fake.svc, { timeout: 200 }).chat.completions.create(echo("hi")));
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("a timeout is retried when maxRetries > 0, and succeeds once the stall is used up", async () => {
    fake.svc.inject(faults.stall({ path: CHAT, times: 1 }));
    const completion = await fake.client.chat.completions.create(echo("after the stall"), {
      timeout: 200,
      maxRetries: 1,
    });
    expect(completion.choices[0]!.message.content).toBe("after the stall");
    expect(fake.svc.requests).toHaveLength(2);
  });

  it("a streamed request is retried after a timeout before headers", async () => {
    fake.svc.inject(faults.stall({ path: CHAT, times: 1 }));
    const stream = await fake.client.chat.completions.create(
      { ...echo("streamed"), stream: true },
      { timeout: 200, maxRetries: 1 },
    );
    expect((await stream.finalCompletion()).choices[0]!.message.content).toBe("streamed");
    expect(fake.svc.requests).toHaveLength(2);
  });

  it("a call query page is retried after a timeout before headers", async () => {
    fake.svc.inject(faults.stall({ path: "/calls/stream_query", times: 1 }));
    const got = await fake.client.calls
      .query({ project_id: "acme/support-bot", limit: 10 }, { timeout: 200, maxRetries: 1 })
      .toArray();
    expect(got).toHaveLength(10);
    expect(fake.svc.requests).toHaveLength(2);
  });
});

describe("the caller's signal", () => {
  it("already aborted: rejects with APIUserAbortError and sends nothing", async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await caught(() => fake.client.models.list({ signal: ac.signal }));
    expect(err).toBeInstanceOf(APIUserAbortError);
    const streamErr = await caught(() =>
      fake.client.chat.completions.create({ ...echo("x"), stream: true }, { signal: ac.signal }),
    );
    expect(streamErr).toBeInstanceOf(APIUserAbortError);
    const queryErr = await caught(() =>
      fake.client.calls.query({ project_id: "acme/support-bot" }, { signal: ac.signal }).toArray(),
    );
    expect(queryErr).toBeInstanceOf(APIUserAbortError);
    expect(fake.svc.requests).toHaveLength(0);
  });

  it("aborted while waiting for headers: rejects with APIUserAbortError at once, not at the timeout", async () => {
    fake.svc.inject(faults.stall({ path: CHAT }));
    const ac = new AbortController();
    // The default timeout is 10 minutes: only the abort can end this within the test's time.
    const pending = fake.client.chat.completions.create(echo("never"), { signal: ac.signal, maxRetries: 2 });
    expect(await eventually(() => fake.svc.requests.length === 1)).toBe(true);
    ac.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    // An abort is never retried.
    expect(fake.svc.requests).toHaveLength(1);
  });

  it("aborted during a retry wait: rejects with APIUserAbortError without waiting the delay out", async () => {
    // The server asks for a 30 s pause before the retry; the client's warn line tells when it waits.
    fake.svc.inject(faults.status(503, { path: MODELS, headers: { "retry-after-ms": "30000" } }));
    const lines: string[] = [];
    const logger = { error: () => {}, info: () => {}, debug: () => {}, warn: (m: string) => void lines.push(m) };
    const waiting = clientFor(fake.svc, { logger, logLevel: "warn" });
    const ac = new AbortController();
    const pending = waiting.models.list({ signal: ac.signal, maxRetries: 2 });
    expect(await eventually(() => lines.some((l) => l.includes("retrying in 30000 ms")))).toBe(true);
    ac.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(fake.svc.requests).toHaveLength(1);
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
  });

  it("aborting after a request finished changes nothing", async () => {
    const ac = new AbortController();
    const list = await fake.client.models.list({ signal: ac.signal });
    ac.abort();
    expect(list.data.length).toBeGreaterThan(0);
  });
});

describe("one long-lived signal over many requests", () => {
  it("leaves no abort listener and no MaxListenersExceededWarning after 500 requests", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      const ac = new AbortController();
      const signal = ac.signal;
      const options = { signal };
      let done = 0;
      // 50 at a time, mixing every kind of operation that reads a body differently.
      for (let batch = 0; batch < 10; batch++) {
        const work: Promise<unknown>[] = [];
        for (let i = 0; i < 50; i++) {
          const k = batch * 50 + i;
          switch (k % 5) {
            case 0:
              work.push(fake.client.models.list(options));
              break;
            case 1:
              work.push(fake.client.chat.completions.create(echo(`n ${k}`), options));
              break;
            case 2:
              work.push(
                fake.client.chat.completions
                  .create({ ...echo(`s ${k}`), stream: true }, options)
                  .then((s) => s.finalCompletion()),
              );
              break;
            case 3:
              work.push(fake.client.calls.query({ project_id: "acme/support-bot", limit: 5 }, options).toArray());
              break;
            case 4:
              // Refused by the server: the error path must clean up too.
              work.push(
                fake.client.chat.completions
                  .create({ ...echo("x"), model: "no/such-model" }, options)
                  .catch(() => null),
              );
              break;
          }
        }
        await Promise.all(work);
        done += work.length;
      }
      expect(done).toBe(500);
      // Streams broken off early must clean up as well.
      for (let i = 0; i < 20; i++) {
        const stream = await fake.client.chat.completions.create({ ...echo("a b c d e f"), stream: true }, options);
        for await (const _c of stream) break;
      }
      for (let i = 0; i < 20; i++) {
        for await (const _r of fake.client.calls.query(
          { project_id: "acme/support-bot" },
          { ...options, pageSize: 100 },
        ))
          break;
      }
      // Give the event loop a turn for any deferred cleanup.
      await new Promise((r) => setTimeout(r, 20));
      expect(getEventListeners(signal, "abort")).toHaveLength(0);
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
      expect(signal.aborted).toBe(false);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
