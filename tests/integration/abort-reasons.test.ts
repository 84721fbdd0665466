/**
 * What an abort tells the caller, on both transports (undici, and `fetch`): the reason given to
 * `abort(reason)` is the error's `cause`, requests and streams say it in the same words, and a
 * signal from `AbortSignal.timeout()` is reported as a timeout, not as the caller's abort.
 */
import { describe, expect, it } from "vitest";
import { APIConnectionTimeoutError, APIUserAbortError, type Inferloop } from "../../src/index.js";
import { faults } from "../../src/testing/index.js";
import { caught, clientFor, eventually, MODEL, useFakeService } from "./helpers.js";

const fake = useFakeService();

const CHAT = "/v1/chat/completions";
const params = { model: MODEL, messages: [{ role: "user" as const, content: "echo one two three four five" }] };

/** The caller's abort, in the one wording of requests and streams, with its reason as cause. */
function expectAbortedBy(err: unknown, reason: unknown): void {
  expect(err).toBeInstanceOf(APIUserAbortError);
  expect((err as Error).message).toBe("Request was aborted.");
  expect((err as Error).cause).toBe(reason);
}

const transports: [string, () => Inferloop][] = [
  ["undici", () => clientFor(fake.svc)],
  ["fetch", () => clientFor(fake.svc, { fetch: (url, init) => globalThis.fetch(url, init) })],
];

describe.each(transports)("on the %s transport", (_name, makeClient) => {
  const stop = () => new Error("user pressed stop");

  it("a request aborted while waiting for headers keeps the reason as cause", async () => {
    fake.svc.inject(faults.stall({ path: CHAT }));
    const ac = new AbortController();
    const pending = makeClient().chat.completions.create(params, { signal: ac.signal, maxRetries: 2 });
    expect(await eventually(() => fake.svc.requests.length === 1)).toBe(true);
    const reason = stop();
    ac.abort(reason);
    const err = await caught(() => pending);
    expectAbortedBy(err, reason);
    expect(fake.svc.requests).toHaveLength(1);
  });

  it("an already aborted signal: the reason is the cause and nothing is sent", async () => {
    const reason = stop();
    const err = await caught(() => makeClient().models.list({ signal: AbortSignal.abort(reason) }));
    expectAbortedBy(err, reason);
    expect(fake.svc.requests).toHaveLength(0);
  });

  it("a stream aborted by its signal mid-body says the same, with the reason as cause", async () => {
    fake.svc.inject(faults.stall({ afterChunks: 1, path: CHAT }));
    const ac = new AbortController();
    const stream = await makeClient().chat.completions.create({ ...params, stream: true }, { signal: ac.signal });
    const it = stream[Symbol.asyncIterator]();
    expect((await it.next()).done).toBe(false);
    const pending = it.next();
    const reason = stop();
    ac.abort(reason);
    const err = await caught(() => pending);
    expectAbortedBy(err, reason);
  });

  it("stream.abort(reason) rejects the pending read and finalCompletion() with the reason as cause", async () => {
    fake.svc.inject(faults.stall({ afterChunks: 1, path: CHAT }));
    const stream = await makeClient().chat.completions.create({ ...params, stream: true });
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    const pending = it.next();
    const reason = stop();
    stream.abort(reason);
    for (const err of [await caught(() => pending), await caught(() => stream.finalCompletion())]) {
      expect(err).toBeInstanceOf(APIUserAbortError);
      expect((err as Error).message).toBe("Request was aborted.");
      expect((err as Error).cause).toBe(reason);
    }
  });

  it("stream.abort() between reads: the next read rejects with the reason", async () => {
    const stream = await makeClient().chat.completions.create({ ...params, stream: true });
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    const reason = stop();
    stream.abort(reason);
    const err = await caught(() => it.next());
    expectAbortedBy(err, reason);
  });

  it("AbortSignal.timeout() before headers is a timeout, with the TimeoutError as cause, not retried", async () => {
    fake.svc.inject(faults.stall({ path: CHAT }));
    const err = await caught(() =>
      makeClient().chat.completions.create(params, { signal: AbortSignal.timeout(150), maxRetries: 2 }),
    );
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(err).not.toBeInstanceOf(APIUserAbortError);
    expect((err as Error).message).toBe("Request timed out: the request's `signal` timed out (AbortSignal.timeout()).");
    expect(((err as Error).cause as Error).name).toBe("TimeoutError");
    // The signal stays aborted: another attempt would end the same way at once.
    expect(fake.svc.requests).toHaveLength(1);
  });

  it("AbortSignal.timeout() during a stream is a timeout too", async () => {
    fake.svc.inject(faults.stall({ afterChunks: 1, path: CHAT }));
    const stream = await makeClient().chat.completions.create(
      { ...params, stream: true },
      { signal: AbortSignal.timeout(300) },
    );
    const err = await caught(() => stream.finalCompletion());
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(((err as Error).cause as Error).name).toBe("TimeoutError");
  });

  it("AbortSignal.timeout() during a retry wait is a timeout", async () => {
    fake.svc.inject(faults.status(503, { path: "/v1/models", headers: { "retry-after-ms": "30000" } }));
    const err = await caught(() => makeClient().models.list({ signal: AbortSignal.timeout(300), maxRetries: 2 }));
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(((err as Error).cause as Error).name).toBe("TimeoutError");
    expect(fake.svc.requests).toHaveLength(1);
  });
});
