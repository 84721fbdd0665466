// Size budget of the SDK in a browser app: a streaming chat call, bundled by esbuild from the
// installed tarball exactly as a user's bundler would (exports map, `browser` condition),
// minified, gzipped. The metafile goes to test-output/ for a look at what the bytes are.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { describe, expect, inject, it } from "vitest";

const repo = inject("repo");
const app = inject("app");

/**
 * 34 KB, gzipped. The target is 25 KB (issue 15), which the bundle met before the hardening
 * work (real-server validation, header and option checks, response-shape checks, read limits,
 * redirects, the trajectory API) added about 8 KB: measured 33,335 B. Getting back to 25 KB
 * needs request validators in the browser path that do not pull zod's schema classes (see
 * docs/performance.md, "Browser bundle"); until then this budget stops further growth.
 * Raised from 34,000 for issue 25 (measured 33,337 -> 34,351 B): the messages users act on
 * (abort reasons and timeout signals, the credential behind a 401, why a create was not retried,
 * empty training groups, misspelt filter keys, bare op names) are in every client.
 */
const BUDGET = 34_500;

const entry = `import { Inferloop } from "inferloop";

export async function streamReply(baseURL, apiKey, prompt, onText) {
  const client = new Inferloop({ baseURL, apiKey });
  const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: prompt }], stream: true });
  for await (const text of stream.textStream()) onText(text);
}
`;

/** Output bytes per input file, largest first, grouped by package. */
function contributors(metafile: Metafile): Array<[string, number]> {
  const byInput = Object.values(metafile.outputs)[0]!.inputs;
  const groups = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(byInput)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
    const key = m === null ? path : m[1] === "zod" ? `zod/${m[2]!.split("/").slice(0, 3).join("/")}` : m[1]!;
    groups.set(key, (groups.get(key) ?? 0) + bytesInOutput);
  }
  return [...groups].sort((a, b) => b[1] - a[1]);
}

describe("browser bundle of a streaming chat call", () => {
  it(`stays within ${BUDGET / 1000} KB gzipped and carries nothing Node-only or test-only`, async () => {
    writeFileSync(join(app, "browser-entry.js"), entry);
    const result = await build({
      absWorkingDir: app,
      entryPoints: ["browser-entry.js"],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      metafile: true,
      write: false,
      logLevel: "silent",
    });
    const code = result.outputFiles[0]!.contents;
    const text = new TextDecoder().decode(code);
    const gzipped = gzipSync(code).length;
    const metafile = result.metafile;
    const inputs = Object.keys(metafile.inputs);

    const out = join(repo, "test-output");
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "browser-bundle.meta.json"), JSON.stringify(metafile, null, 2));
    const top = contributors(metafile);
    const summary = [
      `minified ${code.length} B, gzipped ${gzipped} B (budget ${BUDGET} B)`,
      ...top.slice(0, 12).map(([name, bytes]) => `  ${String(bytes).padStart(7)} B  ${name}`),
    ].join("\n");
    writeFileSync(join(out, "browser-bundle.txt"), `${summary}\n`);
    console.log(summary);

    // Resolved through the exports map to the browser build of the installed package.
    expect(inputs.filter((p) => p.includes("node_modules/inferloop/"))).toEqual([
      "node_modules/inferloop/dist/browser.js",
    ]);
    // Nothing Node-only, nothing from `inferloop/testing`.
    expect(inputs.filter((p) => p.startsWith("node:") || /undici|msw/.test(p))).toEqual([]);
    expect(text).not.toMatch(/["'`]node:[a-z]/);
    expect(text).not.toMatch(/undici/i);
    expect(text).not.toMatch(/startFakeService|createFakeState|FakeState/);
    // The budget.
    expect(gzipped, summary).toBeLessThanOrEqual(BUDGET);
  });
});
