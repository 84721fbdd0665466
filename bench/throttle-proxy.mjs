// A loopback TCP proxy that limits bandwidth, for the compression scenario: 100 Mbit/s by
// default, in each direction, shared by every connection (one link). It listens on 127.0.0.1
// only and forwards to a loopback target only.
import { once } from "node:events";
import { createConnection, createServer } from "node:net";

/** A byte budget released at `bytesPerSecond`: `delay(n)` is how long to hold `n` more bytes
 * so that everything sent so far leaves no faster than the link. */
function link(bytesPerSecond) {
  let freeAt = 0; // ms when the link has sent everything scheduled so far
  return (n) => {
    const now = performance.now();
    freeAt = Math.max(freeAt, now) + (n / bytesPerSecond) * 1000;
    return freeAt - now;
  };
}

/** Pipe `from` into `to` through `delay`: each chunk is written when the link has room for it,
 * and reading pauses meanwhile, so backpressure reaches the sender as on a slow network. */
function throttle(from, to, delay) {
  from.on("data", (chunk) => {
    from.pause();
    const wait = delay(chunk.length);
    setTimeout(() => {
      if (to.destroyed) return;
      const ok = to.write(chunk);
      if (ok) from.resume();
      else to.once("drain", () => from.resume());
    }, wait);
  });
  from.on("end", () => to.end());
  from.on("error", () => to.destroy());
  to.on("error", () => from.destroy());
  from.on("close", () => to.destroy());
}

/**
 * Start the proxy in front of `targetUrl` (http://127.0.0.1:PORT). Returns its URL and `close`.
 *
 * @param {string} targetUrl
 * @param {number} [mbitPerSecond=100]
 */
export async function startThrottleProxy(targetUrl, mbitPerSecond = 100) {
  const target = new URL(targetUrl);
  if (target.hostname !== "127.0.0.1") throw new Error("the throttle proxy forwards to loopback only");
  const bytesPerSecond = (mbitPerSecond * 1_000_000) / 8;
  const down = link(bytesPerSecond);
  const up = link(bytesPerSecond);
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = createConnection({ host: "127.0.0.1", port: Number(target.port) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.setNoDelay(true);
    }
    throttle(client, upstream, up);
    throttle(upstream, client, down);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
