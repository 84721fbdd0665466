// The loopback server of the framing scenarios in bench/hostile.mjs: it answers a streamed
// chat completion with a fixed SSE body, written in `size`-byte writes. With 1-byte writes it
// waits for each write to be handed to the socket before the next and turns Nagle off, so
// every byte leaves in its own TCP segment (and its own HTTP chunk), as from a server that
// flushes byte by byte; the client sees whatever the kernel has gathered when it reads.
import { once } from "node:events";
import { createServer } from "node:http";

/** `routes`: path prefix -> { body: Uint8Array, size: bytes per write }. */
export async function startFramingServer(routes) {
  const server = createServer({ noDelay: true }, async (req, res) => {
    for await (const _ of req);
    const route = Object.entries(routes).find(([prefix]) => req.url.startsWith(`${prefix}/`))?.[1];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    res.socket.setNoDelay(true);
    res.writeHead(200, { "content-type": "text/event-stream" });
    const { body, size } = route;
    for (let at = 0; at < body.length && !res.destroyed; at += size) {
      const piece = body.subarray(at, at + size);
      if (size === 1) await new Promise((resolve) => res.write(piece, resolve));
      else if (!res.write(piece)) await once(res, "drain");
    }
    res.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
