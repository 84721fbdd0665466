/**
 * docs/structured-output.md's samples, run as written against the fake service: each fenced
 * sample is taken from the page (the extractor the doc-sample checker uses), its `inferloop`
 * import pointed at the sources, and imported as a module with the page's `client` bound to a
 * client of the fake (a sample that builds its own `new Inferloop()` finds the fake through
 * INFERLOOP_BASE_URL). Every request a sample makes must succeed, and every `parse` resolve:
 * the fake answers a `json_schema` format with JSON its schema accepts.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
// @ts-expect-error: a plain .mjs script without declarations.
import { extractSamples } from "../../scripts/check-doc-samples.mjs";
import { useFakeService } from "../integration/helpers.js";

const root = resolve(import.meta.dirname, "../..");
const page = "docs/structured-output.md";
const samples = extractSamples(readFileSync(join(root, page), "utf8")) as Array<{ line: number; code: string }>;
const dir = join(root, ".tmp", "structured-output-samples");
const fake = useFakeService({ seedCalls: false });
const globals = globalThis as { client?: unknown };

afterEach(() => {
  delete globals.client;
  vi.unstubAllEnvs();
});

describe(`${page} runs on the fake as written`, () => {
  it("has samples", () => expect(samples.length).toBeGreaterThanOrEqual(5));

  for (const sample of samples)
    it(`the sample at line ${sample.line}`, async () => {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `sample-${sample.line}.ts`);
      const source = pathToFileURL(join(root, "src/index.ts")).href;
      writeFileSync(file, sample.code.replaceAll('from "inferloop"', `from "${source}"`));
      globals.client = fake.client;
      vi.stubEnv("INFERLOOP_BASE_URL", fake.svc.url);
      vi.stubEnv("INFERLOOP_API_KEY", fake.svc.apiKey);
      const log = vi.spyOn(console, "log").mockImplementation(() => {});
      const sent = fake.svc.requests.length;
      let printed: unknown[][];
      try {
        await import(pathToFileURL(file).href);
      } finally {
        printed = [...log.mock.calls];
        log.mockRestore();
      }
      const chats = fake.svc.requests.slice(sent).filter((r) => r.path === "/v1/chat/completions");
      // Every chat request asked for a json_schema format (the samples' subject).
      for (const r of chats)
        expect((r.json as { response_format?: { type?: string } }).response_format?.type).toBe("json_schema");
      if (sample.code.includes("stream: true")) {
        // The streamed sample prints the validated forecast last: a list of numbers.
        const last = printed.at(-1)?.[0];
        expect(Array.isArray(last) && last.length > 0 && last.every((c) => typeof c === "number")).toBe(true);
      }
    });
});
