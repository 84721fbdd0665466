/**
 * Streamed chat generation over real HTTP (SSE) against the fake service: chunks in order,
 * accumulation equal to the non-streamed reply, text and NDJSON relays, closing the request on
 * break/abort, and every way a stream can fail (error event, cut, stall, malformed line).
 */
import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BadRequestError,
  type ChatCompletionChunk,
  type ChatCompletionCreateParamsNonStreaming,
  ChatCompletionStream,
  type Inferloop,
  InternalServerError,
  ResponseParseError,
} from "../../src/index.js";
import { type FakeService, faults, startFakeService } from "../../src/testing/index.js";
import { caught, clientFor, eventually, MODEL, openSockets, settledSockets, useFakeService } from "./helpers.js";

const CHAT = "/v1/chat/completions";
const ECHO = "The quick brown fox jumps over the lazy dog, twice.";

const fake = useFakeService({ seedCalls: false });

const base = (extra: Partial<ChatCompletionCreateParamsNonStreaming> = {}): ChatCompletionCreateParamsNonStreaming => ({
  model: MODEL,
  messages: [{ role: "user", content: `echo ${ECHO}` }],
  ...extra,
});

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const out: ChatCompletionChunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

describe("iterating a stream", () => {
  it("yields typed chunks in order until [DONE]", async () => {
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true });
    expect(stream).toBeInstanceOf(ChatCompletionStream);
    const chunks = await collect(stream);
    expect(chunks.length).toBeGreaterThan(3);
    const ids = new Set(chunks.map((c) => c.id));
    expect(ids.size).toBe(1);
    for (const c of chunks) expect(c.object).toBe("chat.completion.chunk");
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe(ECHO);
    // The finish reason arrives on the last content chunk; nothing is yielded after it.
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason == null)).toBe(true);
    // The request asked for SSE.
    expect(fake.svc.requests[0]!.headers.accept).toBe("text/event-stream");
    expect((fake.svc.requests[0]!.json as { stream: boolean }).stream).toBe(true);
  });

  it("exposes requestId and the response status and headers", async () => {
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true });
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toContain("text/event-stream");
    expect(stream.requestId).toMatch(/^req-/);
    expect(stream.requestId).toBe(stream.response.headers.get("x-request-id"));
    await stream.finalCompletion();
  });

  it("a stream can be iterated only once", async () => {
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true });
    await collect(stream);
    await expect(collect(stream)).rejects.toThrow(/iterated once/);
  });
});

describe("finalCompletion()", () => {
  it("equals the non-streamed completion of the same request (include_usage)", async () => {
    const plain = await fake.client.chat.completions.create(base({ max_completion_tokens: 5 }));
    const stream = await fake.client.chat.completions.create({
      ...base({ max_completion_tokens: 5 }),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(stream);
    // The usage chunk comes last, with no choices.
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toBeTruthy();
    const final = await stream.finalCompletion();
    expect(final.object).toBe("chat.completion");
    expect(final.id).toBe(chunks[0]!.id);
    expect(final.model).toBe(MODEL);
    expect(final.choices).toHaveLength(1);
    expect(final.choices[0]!.message.role).toBe("assistant");
    expect(final.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
    expect(final.choices[0]!.finish_reason).toBe("length");
    expect(final.choices[0]!.finish_reason).toBe(plain.choices[0]!.finish_reason);
    const { prompt_tokens, completion_tokens, total_tokens } = plain.usage!;
    expect(final.usage).toMatchObject({ prompt_tokens, completion_tokens, total_tokens });
  });

  it("reads the rest of the stream itself when nobody iterated", async () => {
    const plain = await fake.client.chat.completions.create(base());
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true });
    const final = await stream.finalCompletion();
    expect(final.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
    expect(final.choices[0]!.finish_reason).toBe("stop");
    // Asking twice gives the same result.
    expect(await stream.finalCompletion()).toBe(final);
  });

  it("with continuous_usage_stats every chunk carries usage and the final usage matches", async () => {
    const plain = await fake.client.chat.completions.create(base());
    const stream = await fake.client.chat.completions.create({
      ...base(),
      stream: true,
      stream_options: { include_usage: true, continuous_usage_stats: true },
    });
    const chunks = await collect(stream);
    expect(chunks.every((c) => c.usage != null)).toBe(true);
    const final = await stream.finalCompletion();
    expect(final.usage!.completion_tokens).toBe(plain.usage!.completion_tokens);
    expect(final.usage!.prompt_tokens).toBe(plain.usage!.prompt_tokens);
    expect(final.usage!.total_tokens).toBe(plain.usage!.total_tokens);
  });

  it("return_token_ids: prompt_token_ids on the first chunk only, ids accumulated", async () => {
    const plain = await fake.client.chat.completions.create(base({ return_token_ids: true }));
    const stream = await fake.client.chat.completions.create({ ...base({ return_token_ids: true }), stream: true });
    const chunks = await collect(stream);
    expect(chunks[0]!.prompt_token_ids).toEqual(plain.prompt_token_ids);
    expect(chunks.slice(1).every((c) => c.prompt_token_ids == null)).toBe(true);
    const final = await stream.finalCompletion();
    expect(final.prompt_token_ids).toEqual(plain.prompt_token_ids);
    expect(final.choices[0]!.token_ids).toEqual(plain.choices[0]!.token_ids);
  });

  it("logprobs are accumulated per token", async () => {
    const plain = await fake.client.chat.completions.create(base({ logprobs: true, top_logprobs: 2 }));
    const stream = await fake.client.chat.completions.create({
      ...base({ logprobs: true, top_logprobs: 2 }),
      stream: true,
    });
    const final = await stream.finalCompletion();
    expect(final.choices[0]!.logprobs!.content).toEqual(plain.choices[0]!.logprobs!.content);
  });

  it("n=2: interleaved chunks accumulate both choices", async () => {
    const plain = await fake.client.chat.completions.create(base({ n: 2 }));
    const stream = await fake.client.chat.completions.create({ ...base({ n: 2 }), stream: true });
    const chunks = await collect(stream);
    // Interleaved: choice 1 shows up before choice 0 has finished.
    const indexes = chunks.flatMap((c) => c.choices.map((ch) => ch.index));
    const lastZero = indexes.lastIndexOf(0);
    const firstOne = indexes.indexOf(1);
    expect(firstOne).toBeGreaterThanOrEqual(0);
    expect(firstOne).toBeLessThan(lastZero);
    const final = await stream.finalCompletion();
    expect(final.choices.map((c) => c.index)).toEqual([0, 1]);
    for (const i of [0, 1]) {
      expect(final.choices[i]!.message.content).toBe(ECHO);
      expect(final.choices[i]!.message.content).toBe(plain.choices[i]!.message.content);
      expect(final.choices[i]!.finish_reason).toBe("stop");
    }
  });

  it("merges tool-call fragments into whole calls", async () => {
    const params = base({
      messages: [{ role: "user", content: "Use lookup_order for order Alpha" }],
      tools: [
        {
          type: "function",
          function: {
            name: "lookup_order",
            parameters: {
              type: "object",
              properties: { order: { type: "string" }, qty: { type: "integer" }, gift: { type: "boolean" } },
            },
          },
        },
      ],
    });
    // Without tool_choice, vLLM (and the fake) read a request with tools as tool_choice "auto".
    const plain = await fake.client.chat.completions.create(params);
    const stream = await fake.client.chat.completions.create({ ...params, stream: true });
    const chunks = await collect(stream);
    const argFragments = chunks.filter((c) => c.choices[0]?.delta.tool_calls?.[0]?.function?.arguments !== undefined);
    expect(argFragments.length).toBeGreaterThan(1);
    const final = await stream.finalCompletion();
    const call = final.choices[0]!.message.tool_calls![0]!;
    const expected = plain.choices[0]!.message.tool_calls![0]!;
    expect(call.id).toBe(expected.id);
    expect(call.type).toBe("function");
    expect(call.function.name).toBe("lookup_order");
    expect(call.function.arguments).toBe(expected.function.arguments);
    expect(JSON.parse(call.function.arguments)).toEqual({ order: "Alpha", qty: 42, gift: true });
    expect(final.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("accumulates reasoning from a reasoning model", async () => {
    const params = base({ model: "deepseek-ai/DeepSeek-R1-reasoning" });
    const plain = await fake.client.chat.completions.create(params);
    const stream = await fake.client.chat.completions.create({ ...params, stream: true });
    const final = await stream.finalCompletion();
    expect(final.choices[0]!.message.reasoning).toBe(plain.choices[0]!.message.reasoning);
    expect(final.choices[0]!.message.reasoning!.length).toBeGreaterThan(0);
    expect(final.choices[0]!.message.content).toBe(ECHO);
  });
});

describe("relays", () => {
  it("textStream() concatenates to the echo text", async () => {
    const stream = await fake.client.chat.completions.create({ ...base({ n: 2 }), stream: true });
    let text = "";
    for await (const piece of stream.textStream()) text += piece;
    expect(text).toBe(ECHO);
  });

  it("toReadableStream() → fromReadableStream() gives the same chunks", async () => {
    const params = {
      ...base({ request_id: "relay-1" }),
      stream: true as const,
      stream_options: { include_usage: true },
    };
    const direct = await collect(await fake.client.chat.completions.create(params));
    const source = await fake.client.chat.completions.create(params);
    const relayed = ChatCompletionStream.fromReadableStream(source.toReadableStream());
    const chunks = await collect(relayed);
    // `created` is a clock reading in seconds; everything else is deterministic.
    const strip = (cs: ChatCompletionChunk[]) => cs.map(({ created: _created, ...rest }) => rest);
    expect(strip(chunks)).toEqual(strip(direct));
    const final = await ChatCompletionStream.fromReadableStream(
      (await fake.client.chat.completions.create(params)).toReadableStream(),
    ).finalCompletion();
    expect(final.choices[0]!.message.content).toBe(ECHO);
  });

  /** The relayed NDJSON of a real stream, as a page would get it if the relay's connection
   * dropped after `lines` whole lines (no error line: the relay itself was cut). */
  async function cutRelay(params: Parameters<typeof fake.client.chat.completions.create>[0], lines: number) {
    const source = await fake.client.chat.completions.create({ ...params, stream: true });
    const all = (await new Response(source.toReadableStream()).text()).split("\n").filter(Boolean);
    expect(all.length).toBeGreaterThan(lines);
    const body = all
      .slice(0, lines)
      .map((l) => `${l}\n`)
      .join("");
    return { all, relayed: ChatCompletionStream.fromReadableStream(new Response(body).body!) };
  }

  it("a relay cut between two lines rejects with APIConnectionError after the chunks before", async () => {
    const { relayed } = await cutRelay(base(), 3);
    const seen: ChatCompletionChunk[] = [];
    const err = await caught(async () => {
      for await (const chunk of relayed) seen.push(chunk);
    });
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/relayed stream ended before the last chunk/);
    expect(seen).toHaveLength(3);
    await expect(relayed.finalCompletion()).rejects.toBe(err);
  });

  it("a relay cut before the last choice finished rejects; cut after every finish_reason it does not", async () => {
    // n: 2 and usage: every choice ends with its own finish_reason chunk, then a usage chunk.
    const params = { ...base({ n: 2 }), stream_options: { include_usage: true } };
    const { all } = await cutRelay(params, 1);
    const finishes = all.map((l, i) => [i, JSON.parse(l) as ChatCompletionChunk] as const);
    const lastFinish = Math.max(...finishes.filter(([, c]) => c.choices.some((x) => x.finish_reason)).map(([i]) => i));
    // One line short of the last finish_reason: a choice is still open.
    const short = await cutRelay(params, lastFinish);
    expect(await caught(() => short.relayed.finalCompletion())).toBeInstanceOf(APIConnectionError);
    // Through the last finish_reason (the usage line lost): the text is whole, no error.
    const whole = await cutRelay(params, lastFinish + 1);
    const final = await whole.relayed.finalCompletion();
    expect(final.choices.map((c) => [c.message.content, c.finish_reason])).toEqual([
      [ECHO, "stop"],
      [ECHO, "stop"],
    ]);
  });

  it("an empty relayed body rejects with APIConnectionError", async () => {
    const relayed = ChatCompletionStream.fromReadableStream(new Response("").body!);
    expect(await caught(() => collect(relayed))).toBeInstanceOf(APIConnectionError);
  });

  it("a failure crosses the relay as the same error class", async () => {
    fake.svc.inject(faults.streamError({ afterChunks: 2, code: 400, message: "bad thing", path: CHAT }));
    const source = await fake.client.chat.completions.create({ ...base(), stream: true });
    const relayed = ChatCompletionStream.fromReadableStream(source.toReadableStream());
    const err = await caught(() => collect(relayed));
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).status).toBe(400);
  });
});

describe("ending a stream early", () => {
  // A service and client of their own, so that no keep-alive connection of other tests is
  // reused or counted: the stream opens one new connection (a socket at each end).
  async function fresh(): Promise<{ own: FakeService; ownClient: Inferloop; idle: number }> {
    const own = await startFakeService({ seedCalls: false });
    return { own, ownClient: clientFor(own), idle: await settledSockets() };
  }

  it("break closes the HTTP request, and the client keeps working", async () => {
    const { own, ownClient, idle } = await fresh();
    try {
      // The server stalls after two events, holding the response open until the client leaves.
      own.inject(faults.stall({ afterChunks: 2, path: CHAT }));
      const stream = await ownClient.chat.completions.create({ ...base(), stream: true });
      let seen = 0;
      for await (const _chunk of stream) {
        seen++;
        expect(openSockets()).toBeGreaterThan(idle);
        break;
      }
      expect(seen).toBe(1);
      // The break threw nothing (we got here); the unread rest makes a later finalCompletion() reject.
      await expect(stream.finalCompletion()).rejects.toBeInstanceOf(APIUserAbortError);
      // Both ends close: the client destroyed the request, the server saw it go.
      expect(await eventually(() => openSockets() <= idle)).toBe(true);
      const after = await ownClient.chat.completions.create(base());
      expect(after.choices[0]!.message.content).toBe(ECHO);
    } finally {
      await own.close();
    }
  });

  it("abort() rejects a pending read with APIUserAbortError and closes the request", async () => {
    const { own, ownClient, idle } = await fresh();
    try {
      own.inject(faults.stall({ afterChunks: 1, path: CHAT }));
      const stream = await ownClient.chat.completions.create({ ...base(), stream: true });
      const it = stream[Symbol.asyncIterator]();
      expect((await it.next()).done).toBe(false);
      expect(openSockets()).toBeGreaterThan(idle);
      const pending = it.next();
      stream.abort();
      await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
      await expect(stream.finalCompletion()).rejects.toBeInstanceOf(APIUserAbortError);
      expect(await eventually(() => openSockets() <= idle)).toBe(true);
    } finally {
      await own.close();
    }
  });

  it("cancelling the relayed ReadableStream closes the HTTP request", async () => {
    const { own, ownClient, idle } = await fresh();
    try {
      own.inject(faults.stall({ afterChunks: 2, path: CHAT }));
      const stream = await ownClient.chat.completions.create({ ...base(), stream: true });
      const reader = stream.toReadableStream().getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      expect(JSON.parse(new TextDecoder().decode(first.value)).object).toBe("chat.completion.chunk");
      expect(openSockets()).toBeGreaterThan(idle);
      await reader.cancel();
      expect(await eventually(() => openSockets() <= idle)).toBe(true);
    } finally {
      await own.close();
    }
  });

  it("break out of textStream() closes the HTTP request", async () => {
    const { own, ownClient, idle } = await fresh();
    try {
      own.inject(faults.stall({ afterChunks: 3, path: CHAT }));
      const stream = await ownClient.chat.completions.create({ ...base(), stream: true });
      for await (const text of stream.textStream()) {
        expect(text.length).toBeGreaterThan(0);
        break;
      }
      expect(await eventually(() => openSockets() <= idle)).toBe(true);
    } finally {
      await own.close();
    }
  });

  it("the caller's signal aborts a stream in progress", async () => {
    fake.svc.inject(faults.stall({ afterChunks: 1, path: CHAT }));
    const ac = new AbortController();
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true }, { signal: ac.signal });
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    const pending = it.next();
    ac.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });
});

describe("stream failures are never quiet", () => {
  it("an in-stream error event with code 500 rejects with InternalServerError after the earlier chunks", async () => {
    fake.svc.inject(faults.streamError({ afterChunks: 3, path: CHAT, message: "engine crashed" }));
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true });
    const got: ChatCompletionChunk[] = [];
    const err = await caught(async () => {
      for await (const c of stream) got.push(c);
    });
    expect(got).toHaveLength(3);
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as InternalServerError).status).toBe(500);
    expect((err as Error).message).toContain("engine crashed");
    expect((err as InternalServerError).requestId).toBe(stream.requestId);
  });

  it("an in-stream error event with code 400 rejects with BadRequestError", async () => {
    fake.svc.inject(faults.streamError({ afterChunks: 1, code: 400, message: "bad input", path: CHAT }));
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true });
    const err = await caught(() => stream.finalCompletion());
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).status).toBe(400);
  });

  it("a stream cut without [DONE] rejects with APIConnectionError", async () => {
    fake.svc.inject(faults.cutStream(3, { path: CHAT }));
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true });
    const got: ChatCompletionChunk[] = [];
    const err = await caught(async () => {
      for await (const c of stream) got.push(c);
    });
    expect(got).toHaveLength(3);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).not.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("a connection reset mid-stream rejects with APIConnectionError", async () => {
    fake.svc.inject(faults.reset({ afterChunks: 2, path: CHAT }));
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true }, { maxRetries: 2 });
    await expect(stream.finalCompletion()).rejects.toBeInstanceOf(APIConnectionError);
    // The stream had reached the caller: it is not retried.
    expect(fake.svc.requests).toHaveLength(1);
  });

  it("a stall mid-stream longer than idleTimeout rejects with APIConnectionTimeoutError", async () => {
    fake.svc.inject(faults.stall({ afterChunks: 2, path: CHAT }));
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true }, { idleTimeout: 300 });
    const got: ChatCompletionChunk[] = [];
    const err = await caught(async () => {
      for await (const c of stream) got.push(c);
    });
    expect(got).toHaveLength(2);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("a malformed SSE data line rejects with ResponseParseError without quoting it", async () => {
    fake.svc.inject(faults.malformedSseLine({ afterChunks: 2, path: CHAT }));
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true });
    const got: ChatCompletionChunk[] = [];
    const err = await caught(async () => {
      for await (const c of stream) got.push(c);
    });
    expect(got).toHaveLength(2);
    expect(err).toBeInstanceOf(ResponseParseError);
    expect((err as ResponseParseError).line).toBe(3);
    expect((err as Error).message).not.toContain("chatcmpl-broken");
  });

  it("an error status before the stream starts rejects create() itself", async () => {
    fake.svc.inject(faults.serviceUnavailable({ path: CHAT }));
    const err = await caught(() => fake.client.chat.completions.create({ ...base(), stream: true }));
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as InternalServerError).status).toBe(503);
  });

  it("a retryable status before the first byte is retried for a stream", async () => {
    fake.svc.inject(faults.status(503, { headers: { "retry-after-ms": "10" }, path: CHAT }));
    const stream = await fake.client.chat.completions.create({ ...base(), stream: true }, { maxRetries: 1 });
    const final = await stream.finalCompletion();
    expect(final.choices[0]!.message.content).toBe(ECHO);
    expect(fake.svc.requests).toHaveLength(2);
  });
});
