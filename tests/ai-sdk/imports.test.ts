/**
 * Where the AI SDK may be loaded: only `src/ai-sdk/` imports `@ai-sdk/*`, and only its types
 * (the package declares no dependency on it, so the main entry and the browser bundle must never
 * need it), and `src/ai-sdk/`
 * takes everything of the SDK from the main entry (`../index.js`), which its build turns into
 * `import ... from "inferloop"`: one copy of the client, its error classes and capture scope.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";

const src = join(import.meta.dirname, "..", "..", "src");
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
// Code only: TSDoc examples import from "ai" and "inferloop/ai-sdk" as a user would.
const code = (file: string): string =>
  readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
const specifiers = (file: string): string[] =>
  [...code(file).matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);

it("nothing outside src/ai-sdk imports the AI SDK", () => {
  const offenders = files(src)
    .filter((f) => !relative(src, f).startsWith("ai-sdk"))
    .filter((f) => specifiers(f).some((s) => s.startsWith("@ai-sdk/") || s === "ai"))
    .map((f) => relative(src, f));
  expect(offenders).toEqual([]);
});

it("src/ai-sdk imports the SDK through the main entry only, and the AI SDK's types only", () => {
  const seen = new Set<string>();
  for (const file of files(join(src, "ai-sdk"))) {
    const text = code(file);
    for (const spec of specifiers(file)) {
      if (spec.startsWith("./")) continue;
      seen.add(spec);
      if (spec === "@ai-sdk/provider")
        expect(text, `${relative(src, file)} loads @ai-sdk/provider at run time`).not.toMatch(
          /(?:import|export)\s+(?!type\b)[^;]*from\s*"@ai-sdk\/provider"/,
        );
    }
  }
  expect([...seen].sort()).toEqual(["../index.js", "@ai-sdk/provider"]);
});
