/**
 * Relay a chat stream to a browser without giving the browser your API key.
 *
 * The server side is a node:http route, POST /api/chat, that calls the service with the SDK and
 * returns `stream.toReadableStream()` as NDJSON. The browser side reads the response back with
 * `ChatCompletionStream.fromReadableStream()`; it runs here in Node with `fetch`, exactly as it
 * would in a page. There, `import { ChatCompletionStream } from "inferloop"` bundles only the
 * stream reader (8.3 KB gzipped, no client, no request validation).
 *
 *   npx tsx browser-relay.ts          (needs: npm install inferloop tsx)
 */
import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { APIError, ChatCompletionStream, Inferloop } from "inferloop";
import { startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const model = process.env.INFERLOOP_MODEL ?? "Qwen/Qwen3-8B";

async function readJson(req: IncomingMessage): Promise<{ prompt?: unknown }> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text || "{}") as { prompt?: unknown };
}

/** The server side: your backend, holding the credentials. */
function startRelay(client: Inferloop, model: string) {
  return createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/api/chat") {
      res.writeHead(404).end();
      return;
    }
    try {
      const { prompt } = await readJson(req);
      if (typeof prompt !== "string") {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ error: "prompt must be a string" }));
        return;
      }
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: "user", content: prompt }],
        stream: true,
      });
      res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
      // A failure after this point arrives as a last {"error": ...} line, which the reader
      // turns back into the matching APIError.
      Readable.fromWeb(stream.toReadableStream() as import("node:stream/web").ReadableStream).pipe(res);
    } catch (err) {
      const status = err instanceof APIError ? 502 : 500;
      res
        .writeHead(status, { "content-type": "application/json" })
        .end(JSON.stringify({ error: "upstream request failed" }));
    }
  });
}

const relay = startRelay(client, model);
try {
  relay.listen(0, "127.0.0.1");
  await once(relay, "listening");
  const { port } = relay.address() as AddressInfo;
  console.log(`relay listening on http://127.0.0.1:${port}/api/chat`);

  // The browser side: no API key here, only the relay's URL.
  const prompt = fake ? "echo Relayed through your own server, chunk by chunk." : "Say hello in five words.";
  const response = await fetch(`http://127.0.0.1:${port}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ prompt }),
  });
  if (!response.ok || !response.body) throw new Error(`relay answered ${response.status}`);
  console.log(`content-type: ${response.headers.get("content-type")}`);

  const stream = ChatCompletionStream.fromReadableStream(response.body);
  let text = "";
  for await (const delta of stream.textStream()) text += delta;
  console.log(`browser received: ${text}`);
  const completion = await stream.finalCompletion();
  console.log(`finish_reason: ${completion.choices[0]?.finish_reason}`);
} finally {
  relay.closeAllConnections();
  relay.close();
  await fake?.close();
}
