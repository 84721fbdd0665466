/**
 * What happens to the connection when a chat stream stops at `data: [DONE]` (real loopback
 * HTTP, on both transports: undici, the default in Node, and a standard `fetch`). A server
 * that ends its body with `[DONE]` leaves the connection to serve the next request; a server
 * that writes `[DONE]` and then holds the connection open must not hold it: the client closes
 * the request as soon as the stream has ended (as it does when the reader leaves early), so
 * a burst of short streams does not keep a pooled connection busy per stream.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ClientOptions, Inferloop } from "../../src/index.js";
import { within } from "../reliability/harness.js";
import { MODEL } from "./helpers.js";

const chunk = (content: string, finish: string | null) =>
  `data: ${JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model: MODEL,
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  })}\n\n`;

/** How long a holding server keeps the connection open after `[DONE]` unless the client closes it. */
const HOLD_MS = 5_000;

/**
 * How the server ends the body after `[DONE]`: in a write of its own right after it (as
 * uvicorn does), or not before {@link HOLD_MS} (a hostile or stuck server).
 */
type Ending = "at-once" | "hold";

interface SseServer {
  url: string;
  /** Every connection the server accepted. */
  sockets: Socket[];
  /** Per response, once it closed: whether the server could write all of it. */
  finished: Promise<boolean>[];
  /** What the server saw, in order: `request <n>` as a request arrives, `closed <n>` as its response closes. */
  seen: string[];
  server: Server;
}

let open: SseServer | undefined;
const holds: ReturnType<typeof setTimeout>[] = [];
afterEach(async () => {
  for (const t of holds.splice(0)) clearTimeout(t);
  for (const s of open?.sockets ?? []) s.destroy();
  await new Promise((resolve) => open?.server.close(resolve) ?? resolve(undefined));
  open = undefined;
});

async function sseServer(ending: Ending): Promise<SseServer> {
  const sockets: Socket[] = [];
  const finished: Promise<boolean>[] = [];
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const n = finished.length + 1;
    seen.push(`request ${n}`);
    finished.push(
      new Promise((resolve) =>
        res.on("close", () => {
          seen.push(`closed ${n}`);
          resolve(res.writableFinished);
        }),
      ),
    );
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("Hello", null) + chunk(" there", "stop"));
      res.write("data: [DONE]\n\n");
      if (ending === "at-once") res.end();
      else holds.push(setTimeout(() => res.end(), HOLD_MS));
    });
  });
  server.on("connection", (s: Socket) => sockets.push(s));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  open = { url: `http://127.0.0.1:${port}`, sockets, finished, seen, server };
  return open;
}

async function readAll(client: Inferloop, stopAfter?: number): Promise<string> {
  const stream = await client.chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "hi" }],
    stream: true,
  });
  let text = "";
  let n = 0;
  for await (const c of stream) {
    text += c.choices[0]?.delta.content ?? "";
    if (++n === stopAfter) break;
  }
  return text;
}

const transports: [string, ClientOptions][] = [
  ["undici (the default)", {}],
  ["fetch", { fetch: globalThis.fetch }],
];

describe.each(transports)("a stream that stops at [DONE], over %s", (_name, transport) => {
  const clientFor = (srv: SseServer) => new Inferloop({ baseURL: srv.url, apiKey: "k", maxRetries: 0, ...transport });

  it("ends at [DONE] and leaves the whole response read when the body ends right after it", async () => {
    const srv = await sseServer("at-once");
    const client = clientFor(srv);
    for (let i = 0; i < 3; i++) {
      expect(await within(HOLD_MS, readAll(client), "stream")).toBe("Hello there");
      // The client did not close the connection under the rest of the response.
      expect(await within(HOLD_MS, srv.finished[i]!, "response end")).toBe(true);
    }
    expect(srv.sockets.filter((s) => s.destroyed)).toEqual([]);
  });

  it("ends at [DONE] when the server then holds the connection, and closes the request at once", async () => {
    const srv = await sseServer("hold");
    const client = clientFor(srv);
    expect(await within(HOLD_MS, readAll(client), "stream")).toBe("Hello there");
    // Closed by the client long before the server would have ended it.
    expect(await within(HOLD_MS - 1_000, srv.finished[0]!, "request close")).toBe(false);
    const socket = srv.sockets[0]!;
    await within(
      HOLD_MS - 1_000,
      new Promise((resolve) => (socket.destroyed ? resolve(undefined) : socket.once("close", resolve))),
      "socket close",
    );
  });

  it("closes a held request before the next one is sent, so no pooled connection stays busy", async () => {
    const srv = await sseServer("hold");
    const client = clientFor(srv);
    expect(await readAll(client)).toBe("Hello there");
    expect(await readAll(client)).toBe("Hello there");
    await within(HOLD_MS - 1_000, srv.finished[1]!, "second request close");
    // A request left open until a timer fires would still be open when the next one arrives.
    expect(srv.seen).toEqual(["request 1", "closed 1", "request 2", "closed 2"]);
  });

  it("closes the request at once when the reader leaves before [DONE]", async () => {
    const srv = await sseServer("hold");
    const client = clientFor(srv);
    expect(await readAll(client, 1)).toBe("Hello");
    expect(await within(HOLD_MS - 1_000, srv.finished[0]!, "request close")).toBe(false);
  });
});
