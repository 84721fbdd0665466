/**
 * What happens to the connection when a chat stream stops at `data: [DONE]` (undici transport,
 * real loopback HTTP). A server often writes `[DONE]` and its end of body separately: the
 * stream must end at `[DONE]` at once, and the connection must then serve the next request
 * rather than be closed under it; a server that never ends the body after `[DONE]` must not
 * hold the stream or the socket.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Inferloop } from "../../src/index.js";
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

/** How the server ends the body after `[DONE]`: a moment later, or never. */
type Ending = "later" | "never";

interface SseServer {
  url: string;
  /** Every connection the server accepted. */
  sockets: Socket[];
  /** Per response, once it closed: whether the server could write all of it. */
  finished: Promise<boolean>[];
  server: Server;
}

let open: SseServer | undefined;
afterEach(async () => {
  for (const s of open?.sockets ?? []) s.destroy();
  await new Promise((resolve) => open?.server.close(resolve) ?? resolve(undefined));
  open = undefined;
});

async function sseServer(ending: Ending): Promise<SseServer> {
  const sockets: Socket[] = [];
  const finished: Promise<boolean>[] = [];
  const server = createServer((req, res: ServerResponse) => {
    finished.push(new Promise((resolve) => res.on("close", () => resolve(res.writableFinished))));
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("Hello", null) + chunk(" there", "stop"));
      res.write("data: [DONE]\n\n");
      if (ending === "later") setTimeout(() => res.end(), 50);
    });
  });
  server.on("connection", (s: Socket) => sockets.push(s));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  open = { url: `http://127.0.0.1:${port}`, sockets, finished, server };
  return open;
}

async function readAll(client: Inferloop): Promise<string> {
  const stream = await client.chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "hi" }],
    stream: true,
  });
  let text = "";
  for await (const c of stream) text += c.choices[0]?.delta.content ?? "";
  return text;
}

describe("a stream that stops at [DONE]", () => {
  it("ends at [DONE] and keeps its connection open for the next request when the body ends a moment later", async () => {
    const srv = await sseServer("later");
    const client = new Inferloop({ baseURL: srv.url, apiKey: "k", maxRetries: 0 });
    for (let i = 0; i < 3; i++) {
      expect(await within(5_000, readAll(client), "stream")).toBe("Hello there");
      // The client did not close the connection under the rest of the response.
      expect(await within(5_000, srv.finished[i]!, "response end")).toBe(true);
    }
    expect(srv.sockets.filter((s) => s.destroyed)).toEqual([]);
  });

  it("ends at [DONE] even if the body never ends, and then closes the connection", async () => {
    const srv = await sseServer("never");
    const client = new Inferloop({ baseURL: srv.url, apiKey: "k", maxRetries: 0 });
    expect(await within(5_000, readAll(client), "stream")).toBe("Hello there");
    const socket = srv.sockets[0]!;
    await within(
      5_000,
      new Promise((resolve) => (socket.destroyed ? resolve(undefined) : socket.once("close", resolve))),
      "socket close",
    );
    expect(socket.destroyed).toBe(true);
  });
});
