// A streamed chat reply in a real browser: Debian's Chromium, driven by playwright-core, loads
// a loopback page whose script is an esbuild bundle of the SDK's browser build, and streams a
// reply from the fake service (another loopback origin, so CORS preflights are exercised).
// The text on the page must equal the reply the fake service gives for the same request.
// A second page reads the same reply relayed by its own server (docs/browser.md, "Relaying a
// stream"), with nothing of the SDK but `ChatCompletionStream`; failures upstream and a cut relay
// connection fail in the page.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";

// The built package, by its own name (self-reference through the exports map); typed from the
// sources, since the type-check runs before the build.
const pkg = (name: string): Promise<unknown> => import(name);
const { Inferloop } = (await pkg("inferloop")) as typeof import("../../src/index.js");
const { startFakeService } = (await pkg("inferloop/testing")) as typeof import("../../src/testing/index.js");

// page.ts imports the SDK by its source path (for the type-check); in the bundle it is the
// package `inferloop` as a user's bundler resolves it.
const asPackage: Plugin = {
  name: "sdk-as-package",
  setup(b) {
    b.onResolve({ filter: /\/src\/index\.js$/ }, async (args) => {
      const resolved = await b.resolve("inferloop", { kind: args.kind, resolveDir: repo });
      return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path };
    });
  },
};

const repo = resolve(import.meta.dirname, "../..");
const executablePath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const PROMPT = "Tell me about streaming replies in the browser.";

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>inferloop browser check</title>
<link rel="icon" href="data:,">
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem; max-width: 46rem; color: #1b1f24; }
  h1 { font-size: 1.3rem; margin: 0 0 1rem; }
  .label { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: #57606a; margin-top: 1rem; }
  #prompt, #reply { padding: .6rem .8rem; border-radius: 6px; white-space: pre-wrap; }
  #prompt { background: #eef2f6; }
  #reply { background: #e8f5e9; min-height: 3rem; }
  #status { margin-top: 1rem; font-family: ui-monospace, monospace; font-size: .85rem; color: #57606a; }
</style>
</head>
<body data-state="loading">
<h1>inferloop: streamed chat in the browser</h1>
<div class="label">prompt</div><div id="prompt"></div>
<div class="label">reply (streamed)</div><div id="reply"></div>
<div id="status">loading…</div>
<script type="module" src="/app.js"></script>
</body>
</html>
`;

let svc: FakeService;
let page: Server;
let pageURL: string;
let context: BrowserContext;
let userDataDir: string;
let bundleInputs: string[];
let relayInputs: string[];
let model: string;

beforeAll(async () => {
  if (!existsSync(executablePath))
    throw new Error(`${executablePath} not found: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  svc = await startFakeService();

  model = (await new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey }).models.list()).data[0]!.id;

  const bundlePage = async (entry: string) => {
    const bundle = await build({
      absWorkingDir: repo,
      entryPoints: [entry],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      metafile: true,
      write: false,
      logLevel: "silent",
      plugins: [asPackage],
      // The package as a user's bundler resolves it, not through the repository's tsconfig `paths`
      // (which point `inferloop` at the sources, for the examples).
      tsconfigRaw: "{}",
    });
    // Every file read, and the files with code in the bundle (the others were dropped whole).
    const withCode = Object.entries(Object.values(bundle.metafile.outputs)[0]!.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([path]) => path);
    return { inputs: Object.keys(bundle.metafile.inputs), withCode, script: bundle.outputFiles[0]!.contents };
  };
  const app = await bundlePage("tests/browser/page.ts");
  const relay = await bundlePage("tests/browser/relay-page.ts");
  bundleInputs = app.inputs;
  relayInputs = relay.withCode;

  // The relay's server side, as in docs/browser.md: the Node build calls the fake service and
  // returns `toReadableStream()`; a failure upstream becomes the stream's last line.
  const server = new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey, maxRetries: 0 });
  // `cutAfter`: the relay's own response ends after that many lines, as a dropped connection.
  const relayChat = async (req: IncomingMessage, res: ServerResponse, cutAfter = Number.POSITIVE_INFINITY) => {
    let body = "";
    for await (const piece of req) body += String(piece);
    const { prompt } = JSON.parse(body) as { prompt: string };
    const stream = await server.chat.completions.create({
      model,
      messages: [{ role: "user", content: prompt }],
      stream: true,
    });
    res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
    let lines = 0;
    for await (const bytes of stream.toReadableStream()) {
      if (lines++ >= cutAfter) break;
      res.write(bytes);
    }
    res.end();
  };

  const js = { "content-type": "text/javascript; charset=utf-8" };
  page = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    else if (path === "/relay")
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html.replace("/app.js", "/relay.js"));
    else if (path === "/app.js") res.writeHead(200, js).end(app.script);
    else if (path === "/relay.js") res.writeHead(200, js).end(relay.script);
    else if (path === "/api/chat" && req.method === "POST")
      relayChat(req, res).catch((err: unknown) => res.writeHead(502).end(String(err)));
    else if (path === "/api/chat-cut" && req.method === "POST")
      relayChat(req, res, 3).catch((err: unknown) => res.writeHead(502).end(String(err)));
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => page.listen(0, "127.0.0.1", done));
  pageURL = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;

  userDataDir = mkdtempSync(join(tmpdir(), "inferloop-chromium-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    viewport: { width: 900, height: 520 },
  });
});

afterAll(async () => {
  await context?.close();
  if (userDataDir !== undefined) rmSync(userDataDir, { recursive: true, force: true });
  await new Promise<void>((done) => (page ? page.close(() => done()) : done()));
  await svc?.close();
});

describe("browser build in Chromium", () => {
  it("the page bundle is the SDK's browser build, without Node modules", () => {
    expect(bundleInputs).toContain("dist/browser.js");
    expect(
      bundleInputs.filter(
        (p) => p.startsWith("node:") || p.startsWith("src/") || /undici|dist\/(index|testing)/.test(p),
      ),
    ).toEqual([]);
  });

  it("streams a chat reply from the fake service into the page", async () => {
    // The reply the fake service gives to the same request, not streamed (Node build).
    const expected = (
      await new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey }).chat.completions.create({
        model,
        messages: [{ role: "user", content: PROMPT }],
      })
    ).choices[0]!.message.content;
    expect(expected).toBeTruthy();
    // The same streamed request's logprobs as the Node build accumulates them.
    const nodeStream = await new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey }).chat.completions.create({
      model,
      messages: [{ role: "user", content: PROMPT }],
      stream: true,
      logprobs: true,
      top_logprobs: 2,
    });
    const expectedLogprobs = JSON.stringify((await nodeStream.finalCompletion()).choices[0]!.logprobs);
    expect(JSON.parse(expectedLogprobs).content.length).toBeGreaterThanOrEqual(16);
    svc.requests.length = 0;

    const tab = await context.newPage();
    const problems: string[] = [];
    tab.on("console", (msg) => {
      if (msg.type() === "error") problems.push(msg.text());
    });
    tab.on("pageerror", (error) => problems.push(String(error)));

    const query = new URLSearchParams({ baseURL: svc.url, apiKey: svc.apiKey, model, prompt: PROMPT });
    await tab.goto(`${pageURL}?${query}`);
    await tab.waitForSelector("body[data-state=done], body[data-state=error]");
    const status = await tab.textContent("#status");
    const shown = await tab.textContent("#reply");
    const deltas = Number(await tab.getAttribute("body", "data-deltas"));

    mkdirSync(join(repo, "test-output"), { recursive: true });
    await tab.screenshot({ path: join(repo, "test-output", "browser-chat-stream.png"), fullPage: true });

    expect(problems).toEqual([]);
    expect(await tab.getAttribute("body", "data-state"), status ?? "").toBe("done");
    expect(shown).toBe(expected);
    expect(deltas).toBeGreaterThan(1);
    expect(await tab.getAttribute("body", "data-logprobs")).toBe(expectedLogprobs);

    // The browser really made the calls: a CORS preflight, then the streamed POST from the
    // page's origin, with the Bearer key and `stream: true`.
    const chat = svc.requests.filter((r) => r.path === "/v1/chat/completions");
    expect(chat.map((r) => r.method)).toEqual(["OPTIONS", "POST"]);
    const post = chat[1]!;
    expect(post.headers["origin"]).toBe(pageURL.replace(/\/$/, ""));
    expect(post.headers["authorization"]).toBe(`Bearer ${svc.apiKey}`);
    expect(post.headers["user-agent"]).toMatch(/Chrome/);
    expect(post.json).toMatchObject({
      model,
      stream: true,
      logprobs: true,
      messages: [{ role: "user", content: PROMPT }],
    });
    await tab.close();
  });

  it("the relay page's bundle holds the stream reader only: no client, no request validation", () => {
    const fromSdk = relayInputs.filter((p) => p.startsWith("dist/"));
    expect(fromSdk.length).toBeGreaterThan(0);
    expect(fromSdk.filter((p) => !/^dist\/browser(-[A-Z0-9]+)?\.js$/.test(p))).toEqual([]);
    expect(relayInputs.filter((p) => /node_modules\/zod\/|undici|src\//.test(p))).toEqual([]);
  });

  /** Opens the relay page for `prompt`; resolves with what it shows once it is done or failed. */
  async function openRelayPage(prompt: string, path = "/api/chat") {
    const tab = await context.newPage();
    const problems: string[] = [];
    tab.on("pageerror", (error) => problems.push(String(error)));
    await tab.goto(`${pageURL}relay?${new URLSearchParams({ prompt, path })}`);
    await tab.waitForSelector("body[data-state=done], body[data-state=error]");
    const shown = {
      problems,
      state: await tab.getAttribute("body", "data-state"),
      status: await tab.textContent("#status"),
      reply: await tab.textContent("#reply"),
      errorStatus: await tab.getAttribute("body", "data-status"),
    };
    await tab.close();
    return shown;
  }

  it("reads a reply relayed by its own server into the page, the same text as the service's", async () => {
    const expected = (
      await new Inferloop({ baseURL: svc.url, apiKey: svc.apiKey }).chat.completions.create({
        model,
        messages: [{ role: "user", content: PROMPT }],
      })
    ).choices[0]!.message.content;
    const shown = await openRelayPage(PROMPT);
    expect(shown.problems).toEqual([]);
    expect(shown.state, shown.status ?? "").toBe("done");
    expect(shown.reply).toBe(expected);
    expect(shown.status).toMatch(/finish_reason stop$/);
  });

  it.each([
    // Upstream cut before [DONE]: the server's reader fails, the relay writes an error line.
    ["cut off upstream", { kind: "cutStream", afterChunks: 3 } as const, 500, "InternalServerError"],
    // An error event upstream: its code reaches the page and picks the error class there.
    [
      "with an error event upstream",
      {
        kind: "insert",
        afterChunks: 3,
        data: 'data: {"error":{"message":"slow down","code":429}}\n\n',
        end: true,
      } as const,
      429,
      "RateLimitError",
    ],
  ])(
    "a relayed stream %s fails in the page with the error, after the text that came before",
    async (_, fault, status, name) => {
      svc.inject({ ...fault, path: "/v1/chat/completions" });
      const shown = await openRelayPage(PROMPT);
      expect(shown.problems).toEqual([]);
      expect(shown.state).toBe("error");
      expect(shown.errorStatus).toBe(String(status));
      expect(shown.status).toMatch(new RegExp(`^error: ${name}: ${status} `));
      expect(shown.reply).not.toBe("");
    },
  );

  it("a relay response cut between two lines fails in the page instead of ending as if complete", async () => {
    const shown = await openRelayPage(PROMPT, "/api/chat-cut");
    expect(shown.problems).toEqual([]);
    expect(shown.state).toBe("error");
    expect(shown.status).toMatch(/^error: APIConnectionError: The relayed stream ended before the last chunk/);
    expect(shown.reply).not.toBe("");
  });
});
