// The benchmark's loopback server: node:http with pre-rendered bodies, so its cost per request
// is a JSON.parse of the small request body and one write. It speaks just enough of the
// interface for the benchmark: chat completions (plain and SSE) and the JSONL call query.

import { once } from "node:events";
import { createServer } from "node:http";
import { createGzip } from "node:zlib";
import { callLines, chatCompletionBody, rolloutSseBody, sseBody } from "./fixtures.mjs";

const BLOCK = 1000; // distinct call-record lines, repeated to any count

/**
 * Start the server on 127.0.0.1 (a free port). The call store's size is read from the query's
 * `project_id`, `bench/calls-<N>`, so one server serves every record count. `limit` and
 * `offset` in the JSON body are honoured, as a real trace server does. With `compress`, a call
 * query that accepts gzip is answered gzip-compressed on the fly (level 6, zlib's default, as
 * nginx or a Python server's gzip middleware would), the way a server or proxy does it.
 */
export async function startBenchServer({ compress = false } = {}) {
  const completion = chatCompletionBody();
  const sseCache = new Map();
  const lines = callLines(BLOCK);
  const block = Buffer.concat(lines);
  // offsets[i] = byte offset of line i in `block`; offsets[BLOCK] = block.length.
  const offsets = [0];
  for (const l of lines) offsets.push(offsets[offsets.length - 1] + l.length);
  let requests = 0;

  const server = createServer(async (req, res) => {
    requests++;
    if (req.url === "/v1/preview/training-jobs") {
      // Counted, not parsed: the body is over 100 MB and only the client's cost is measured.
      let bytes = 0;
      for await (const c of req) bytes += c.length;
      if (!(req.headers.authorization ?? "").startsWith("Bearer ")) return deny(res);
      res.writeHead(200, { "content-type": "application/json", "x-request-id": `req-${requests}` });
      res.end(JSON.stringify({ id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01", bytes }));
      return;
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {};
    const auth = req.headers.authorization ?? "";

    if (req.url === "/v1/chat/completions") {
      if (!auth.startsWith("Bearer ")) return deny(res);
      if (body.stream === true) {
        const n = Math.max(2, body.max_completion_tokens ?? body.max_tokens ?? 16);
        // With logprobs (a rollout), every token chunk carries its logprob entry and token id.
        const top = body.logprobs === true ? (body.top_logprobs ?? 0) : -1;
        const key = `${n}/${top}`;
        let sse = sseCache.get(key);
        if (!sse) sseCache.set(key, (sse = top >= 0 ? rolloutSseBody(n, top) : sseBody(n)));
        res.writeHead(200, { "content-type": "text/event-stream", "x-request-id": `req-${requests}` });
        res.end(sse);
        return;
      }
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": completion.length,
        "x-request-id": `req-${requests}`,
      });
      res.end(completion);
      return;
    }

    if (req.url === "/calls/stream_query") {
      if (!auth.startsWith("Basic ")) return deny(res);
      const total = Number(/calls-(\d+)$/.exec(body.project_id ?? "")?.[1] ?? 0);
      const offset = body.offset ?? 0;
      const end = Math.min(total, offset + (body.limit ?? total));
      const gzip = compress && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
      res.writeHead(200, {
        "content-type": "application/jsonl",
        "x-request-id": `req-${requests}`,
        ...(gzip ? { "content-encoding": "gzip" } : {}),
      });
      const out = gzip ? createGzip() : res;
      if (gzip) out.pipe(res);
      // Write whole runs of the pre-rendered block; wait for 'drain' so a 1M-record answer
      // never sits in the server's memory (the client's RSS is what is measured).
      for (let p = offset; p < end; ) {
        const i = p % BLOCK;
        const j = Math.min(BLOCK, i + (end - p));
        if (!out.write(block.subarray(offsets[i], offsets[j]))) await once(out, "drain");
        p += j - i;
      }
      out.end();
      return;
    }

    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":{"message":"not found","type":"NotFoundError","code":404}}');
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function deny(res) {
  res.writeHead(401, { "content-type": "application/json" });
  res.end('{"error":{"message":"missing credentials","type":"AuthenticationError","code":401}}');
}
