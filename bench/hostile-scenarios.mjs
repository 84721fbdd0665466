// Scenarios of the hostile-server bench (`node bench/hostile.mjs`): compressed transfers over
// a slow link, and SSE framing that is legal but pathological. Each `run(contender, url)`
// checks what came back, so a contender that skips work fails instead of looking fast.
// Most framing scenarios feed bytes from memory through the SDK's own fetch transport (a
// `fetch` that answers from a buffer), so they time the decoding, not a socket: with 1-byte
// chunks that is one ReadableStream read per byte, a worst case no socket produces. The
// loopback ones read a real server (bench/framing-server.mjs) through the default transport.

const RECORDS = 100_000;

async function query(c, url) {
  let n = 0;
  let bytes = 0;
  await c.query(url, `bench/calls-${RECORDS}`, RECORDS, (call) => {
    n++;
    bytes += call.id.length;
  });
  if (n !== RECORDS || bytes !== RECORDS * 36) throw new Error(`check failed: got ${n} records`);
  return { units: RECORDS };
}

const CHUNK_JSON = (i) =>
  JSON.stringify({
    id: "chatcmpl-framing",
    object: "chat.completion.chunk",
    created: 1767000000,
    model: "Qwen/Qwen3-8B",
    choices: [{ index: 0, delta: { content: ` token${i % 97}` }, logprobs: null, finish_reason: null }],
  });

/** An SSE body of `events` chunk events and `[DONE]`, lines ended by `eol(i)`. */
function sseText(events, eol = () => "\n") {
  const parts = [];
  for (let i = 0; i < events; i++) {
    const a = eol(i);
    parts.push(`data: ${CHUNK_JSON(i)}${a}${a}`);
  }
  parts.push("data: [DONE]\n\n");
  return parts.join("");
}

/** A `fetch` that answers any request with `body`, cut into `chunkSize`-byte pieces. */
function memoryFetch(body, chunkSize) {
  return async () => {
    let offset = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (offset >= body.length) return controller.close();
        controller.enqueue(body.subarray(offset, offset + chunkSize));
        offset += chunkSize;
      },
    });
    return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

async function streamBody(c, body, chunkSize, expectChunks) {
  let n = 0;
  let chars = 0;
  await c.streamFrom(memoryFetch(body, chunkSize), (chunk) => {
    n++;
    chars += chunk.choices[0]?.delta?.content?.length ?? 0;
  });
  if (n !== expectChunks) throw new Error(`check failed: ${n} chunks, expected ${expectChunks}`);
  return { units: body.length, chars };
}

const enc = new TextEncoder();
const EOLS = ["\n", "\r", "\r\n"];
let cached;
let cachedBig;
function bodies() {
  cached ??= {
    wellFramed: enc.encode(sseText(20_000)),
    oneByte: enc.encode(sseText(1_000)),
    oneByteTwice: enc.encode(sseText(2_000)),
    mixed: enc.encode(sseText(20_000, (i) => EOLS[i % 3])),
  };
  return cached;
}
function bigBodies() {
  if (cachedBig) return cachedBig;
  const big = { content: "x".repeat(50 * 1024 * 1024) };
  const bigChunk = JSON.stringify({
    id: "chatcmpl-big",
    object: "chat.completion.chunk",
    created: 1767000000,
    model: "Qwen/Qwen3-8B",
    choices: [{ index: 0, delta: big, finish_reason: null }],
  });
  cachedBig = { bigText: bigChunk, big: enc.encode(`data: ${bigChunk}\n\ndata: [DONE]\n\n`) };
  return cachedBig;
}

/** What the framing server (bench/framing-server.mjs) serves under each path prefix. */
export function framingRoutes() {
  return {
    "/well-framed": { body: bodies().wellFramed, size: 65536 },
    "/one-byte": { body: bodies().oneByte, size: 1 },
  };
}

async function streamAt(c, url, body, expectChunks) {
  let n = 0;
  let chars = 0;
  await c.streamAt(url, (chunk) => {
    n++;
    chars += chunk.choices[0]?.delta?.content?.length ?? 0;
  });
  if (n !== expectChunks) throw new Error(`check failed: ${n} chunks, expected ${expectChunks}`);
  return { units: body.length, chars };
}

/** name -> { label, contenders, warm, run }: `run` returns `{ units }` (records or bytes). */
export const HOSTILE_SCENARIOS = {
  "query-100k-100mbit": {
    label: "call query, 100k records, 1 page, through a 100 Mbit/s proxy (server gzips when asked)",
    contenders: ["inferloop", "floor"],
    warm: async () => {},
    run: query,
  },
  "query-100k-plain": {
    label: "call query, 100k records, 1 page, plain loopback, server does not compress",
    contenders: ["head", "baseline"],
    warm: async (c, url) => {
      await c.query(url, "bench/calls-2000", 2000, () => {});
    },
    run: query,
  },
  "sse-well-framed": {
    label: "SSE, 20,000 events, LF, 64 KiB chunks",
    contenders: ["inferloop"],
    warm: (c) => streamBody(c, bodies().wellFramed, 65536, 20_000),
    run: (c) => streamBody(c, bodies().wellFramed, 65536, 20_000),
  },
  "sse-1-byte": {
    label: "SSE, 1,000 events, LF, 1-byte chunks",
    contenders: ["inferloop"],
    warm: (c) => streamBody(c, bodies().oneByte, 1, 1_000),
    run: (c) => streamBody(c, bodies().oneByte, 1, 1_000),
  },
  "sse-1-byte-2x": {
    label: "SSE, 2,000 events, LF, 1-byte chunks (twice the bytes: linear?)",
    contenders: ["inferloop"],
    warm: (c) => streamBody(c, bodies().oneByte, 1, 1_000),
    run: (c) => streamBody(c, bodies().oneByteTwice, 1, 2_000),
  },
  "sse-mixed-eol": {
    label: "SSE, 20,000 events, CR / LF / CRLF in turn, 64 KiB chunks",
    contenders: ["inferloop"],
    warm: (c) => streamBody(c, bodies().mixed, 65536, 20_000),
    run: (c) => streamBody(c, bodies().mixed, 65536, 20_000),
  },
  "sse-loopback-well-framed": {
    label: "SSE over loopback (default transport), 20,000 events, LF, 64 KiB writes",
    contenders: ["inferloop"],
    warm: (c, url) => streamAt(c, `${url}/one-byte`, bodies().oneByte, 1_000),
    run: (c, url) => streamAt(c, `${url}/well-framed`, bodies().wellFramed, 20_000),
  },
  "sse-loopback-1-byte": {
    label: "SSE over loopback (default transport), 1,000 events, LF, 1-byte writes, no Nagle",
    contenders: ["inferloop"],
    warm: (c, url) => streamAt(c, `${url}/one-byte`, bodies().oneByte, 1_000),
    run: (c, url) => streamAt(c, `${url}/one-byte`, bodies().oneByte, 1_000),
  },
  "sse-50mb-event": {
    label: "SSE, one 50 MB event, 64 KiB chunks",
    contenders: ["inferloop"],
    warm: (c) => {
      bigBodies();
      return streamBody(c, bodies().wellFramed, 65536, 20_000);
    },
    run: (c) => streamBody(c, bigBodies().big, 65536, 1),
  },
  "json-parse-50mb": {
    label: "JSON.parse of the same 50 MB event text (the reference)",
    contenders: ["inferloop"],
    warm: async () => {
      bigBodies();
    },
    run: async () => {
      const value = JSON.parse(bigBodies().bigText);
      if (value.choices[0].delta.content.length !== 50 * 1024 * 1024) throw new Error("check failed");
      return { units: bigBodies().big.length };
    },
  },
  "decode-parse-50mb": {
    label: "TextDecoder.decode + JSON.parse of the same 50 MB event, its bytes in one piece",
    contenders: ["inferloop"],
    warm: async () => {
      bigBodies();
    },
    run: async () => {
      const { big } = bigBodies();
      // The event's JSON, as bytes (after `data: `, before the blank line).
      const text = new TextDecoder().decode(big.subarray(6, big.indexOf(10)));
      const value = JSON.parse(text);
      if (value.choices[0].delta.content.length !== 50 * 1024 * 1024) throw new Error("check failed");
      return { units: big.length };
    },
  },
};
