/**
 * The checker of the code samples (scripts/check-doc-samples.mjs, run by `.ci/run` over
 * README.md, docs/*.md and the TSDoc `@example`s of src/): on a fixture page, a sample with a
 * type error is reported at its line in the Markdown file, and the others pass; in a fixture
 * source file, likewise at its line in the source, and an unfenced `@example` is reported.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without declarations.
import { checkDocSamples, extractExamples, extractSamples } from "../../scripts/check-doc-samples.mjs";

type Found = { samples: number; errors: Array<{ file: string; line: number; column: number; message: string }> };
const root = resolve(import.meta.dirname, "../..");
const page = "tests/fixtures/doc-samples/page.md";
const lineOf = (text: string): number =>
  readFileSync(join(root, page), "utf8")
    .split("\n")
    .findIndex((l) => l.includes(text)) + 1;

describe("doc sample checker", () => {
  it("extracts ts and typescript fences, skips `no-check` and other languages, keeps the setup comment", () => {
    const samples = extractSamples(readFileSync(join(root, page), "utf8")) as Array<{ line: number; setup: string }>;
    expect(samples.map((s) => s.line)).toEqual([
      lineOf("const { data }"),
      lineOf('import { Inferloop } from "inferloop";'),
      lineOf("const { item }"),
      lineOf("const query = {"),
    ]);
    expect(samples[2]!.setup).toBe("declare const queueId: string; declare const itemId: string;");
  });

  it("reports each type error at its file and line in the page, and only those", () => {
    const { samples, errors } = checkDocSamples([page], { workDir: join(root, ".tmp", "doc-samples-test") }) as Found;
    expect(samples).toBe(4);
    const at = errors.map((e) => `${e.file}:${e.line}`);
    expect(at).toEqual([
      `${page}:${lineOf("max_token: 5")}`,
      `${page}:${lineOf('client.calls.query({ project_id: "p"')}`,
    ]);
    expect(errors[0]!.message).toMatch(/^error TS\d+: [\s\S]*max_token[\s\S]*max_tokens/);
    // The hand-written query without `as const`: the operands widen to an array.
    expect(errors[1]!.message).toMatch(/\[Operand, Operand\]/);
  }, 120_000);

  it("checks as a `tsc --init` project too (TypeScript 7's defaults), examples included, reporting only theirs", () => {
    const init = "tests/fixtures/doc-samples/init-defaults.md";
    const initLine = (text: string): number =>
      readFileSync(join(root, init), "utf8")
        .split("\n")
        .findIndex((l) => l.includes(text)) + 1;
    const strict = checkDocSamples([init], { workDir: join(root, ".tmp", "doc-samples-test-strict") }) as Found;
    expect(strict).toEqual({ samples: 2, errors: [] });
    const found = checkDocSamples([init], {
      workDir: join(root, ".tmp", "doc-samples-test-init"),
      initDefaults: true,
      examples: ["examples/rl-loop.ts"],
    }) as Found;
    expect(found.errors.map((e) => `${e.file}:${e.line}`)).toEqual([
      `${init}:${initLine("prompt_tokens_details: undefined")}`,
    ]);
    expect(found.errors[0]!.message).toMatch(/exactOptionalPropertyTypes/);
  }, 120_000);

  it("checks a source file's @example blocks where TSDoc readers see them, and refuses an unfenced one", () => {
    const source = "tests/fixtures/doc-samples/source.ts";
    const text = readFileSync(join(root, source), "utf8");
    const sourceLine = (needle: string): number => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
    const found = extractExamples(text) as { samples: Array<{ line: number }>; unfenced: Array<{ line: number }> };
    expect(found.samples.map((s) => s.line)).toEqual([
      sourceLine("const ids ="),
      sourceLine("const n: Promise<number>"),
    ]);
    expect(found.unfenced).toEqual([{ line: sourceLine(" * firstModel(client);") - 1 }]);
    // The first example uses its own file's export, an entry's and the prelude's client without
    // importing them, and compiles; the second does not; the unfenced one is an error.
    const { samples, errors } = checkDocSamples([source], {
      workDir: join(root, ".tmp", "doc-samples-test-source"),
    }) as Found;
    expect(samples).toBe(2);
    expect(errors.map((e) => `${e.file}:${e.line}`)).toEqual([
      `${source}:${sourceLine("const n: Promise<number>")}`,
      `${source}:${sourceLine(" * firstModel(client);") - 1}`,
    ]);
    expect(errors[0]!.message).toMatch(/^error TS2554: Expected 1 arguments, but got 2/);
    expect(errors[1]!.message).toMatch(/without a ```ts fence/);
  }, 120_000);
});
