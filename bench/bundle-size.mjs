// Browser bundle size of one streaming chat call: the code an app ships to make it, bundled
// and minified by esbuild for the browser, then gzipped (level 9, as CDNs serve it).

import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BROWSER_BUILD = JSON.stringify(fileURLToPath(new URL("../dist/browser.js", import.meta.url)));

// The same app for each client: create the client, start a stream, print every delta.
export const APPS = {
  // `dist/browser.js` is what the package's "browser" export condition resolves to.
  inferloop: `
    import { Inferloop } from ${BROWSER_BUILD};
    const client = new Inferloop({ baseURL: "https://api.example.com", apiKey: "key" });
    const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
    for await (const chunk of stream) console.log(chunk.choices[0]?.delta?.content ?? "");
  `,
  // A page that only reads a stream relayed by its own server (docs/browser.md): no client,
  // so none of the request validation.
  inferloopRelay: `
    import { ChatCompletionStream } from ${BROWSER_BUILD};
    const res = await fetch("/api/chat", { method: "POST", body: JSON.stringify({ prompt: "hi" }) });
    for await (const text of ChatCompletionStream.fromReadableStream(res.body).textStream()) console.log(text);
  `,
  openai: `
    import OpenAI from "openai";
    const client = new OpenAI({ baseURL: "https://api.example.com/v1", apiKey: "key", dangerouslyAllowBrowser: true });
    const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
    for await (const chunk of stream) console.log(chunk.choices[0]?.delta?.content ?? "");
  `,
};

export async function bundleSize(name) {
  const result = await build({
    stdin: { contents: APPS[name], resolveDir: ROOT, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

export async function bundleSizes() {
  const out = {};
  for (const name of Object.keys(APPS)) out[name] = await bundleSize(name);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(await bundleSizes(), null, 2));
