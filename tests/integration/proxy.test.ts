// What docs/connections-and-logging.md promises about proxies, over real sockets: a
// `dispatcher: new ProxyAgent(url)` routes every request through the proxy;
// HTTP_PROXY is honoured only through `EnvHttpProxyAgent`, not by the default transport.
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { EnvHttpProxyAgent, ProxyAgent } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Inferloop } from "../../src/index.js";
import { clientFor, useFakeService } from "./helpers.js";

/** A minimal forwarding HTTP proxy (undici proxies http:// targets by forwarding, without
 * CONNECT); records the host of every request it forwards. */
function startProxy(): Promise<{ server: Server; url: string; targets: string[] }> {
  const targets: string[] = [];
  const server = createServer((req, res) => {
    // The request line carries the absolute URL.
    const target = new URL(req.url ?? "/");
    targets.push(target.host);
    const upstream = connect(Number(target.port), target.hostname, () => {
      const headers = Object.entries(req.headers)
        .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v}`)
        .join("\r\n");
      upstream.write(
        `${req.method} ${target.pathname}${target.search} HTTP/1.1\r\n${headers}\r\nconnection: close\r\n\r\n`,
      );
      req.pipe(upstream);
      upstream.pipe(res.socket!);
    });
    upstream.on("error", () => res.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}`, targets });
    }),
  );
}

describe("proxies", () => {
  const fake = useFakeService();
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  const agents: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    proxy = await startProxy();
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.close()));
    proxy.targets.length = 0;
  });
  afterAll(async () => {
    proxy.server.closeAllConnections();
    await new Promise((r) => proxy.server.close(r));
  });
  const serviceHost = (): string => new URL(fake.svc.url).host;

  it("dispatcher: new ProxyAgent(url) sends the requests through the proxy", async () => {
    const dispatcher = new ProxyAgent(proxy.url);
    agents.push(dispatcher);
    const client = clientFor(fake.svc, { dispatcher });
    const { data } = await client.models.list();
    expect(data.length).toBeGreaterThan(0);
    expect(proxy.targets).toContain(serviceHost());
    expect(fake.svc.requests.map((r) => r.path)).toEqual(["/v1/models"]);
  });

  it("HTTP_PROXY alone is not used by the default transport; EnvHttpProxyAgent honours it", async () => {
    const saved = { HTTP_PROXY: process.env["HTTP_PROXY"], NO_PROXY: process.env["NO_PROXY"] };
    process.env["HTTP_PROXY"] = proxy.url;
    process.env["NO_PROXY"] = "";
    try {
      await clientFor(fake.svc).models.list();
      expect(proxy.targets).toEqual([]);

      const dispatcher = new EnvHttpProxyAgent();
      agents.push(dispatcher);
      await new Inferloop({ baseURL: fake.svc.url, apiKey: fake.svc.apiKey, dispatcher }).models.list();
      expect(proxy.targets).toContain(serviceHost());
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
