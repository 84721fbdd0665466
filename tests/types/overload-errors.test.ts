/**
 * The compiler's message for a request that fits no `create` overload names the field that is
 * wrong, not a missing `stream` (the last overload takes the base params, not the union). Runs
 * the TypeScript 6 compiler API (TypeScript 7 has none) on snippets that use the SDK's source.
 */
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const ts = require("@typescript/typescript6") as typeof import("@typescript/typescript6");

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const SNIPPETS = {
  widenedPart: `
    const p = { model: "m", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] };
    void client.chat.completions.create(p);`,
  widenedEffort: `
    const p = { messages: [{ role: "user" as const, content: "hi" }], reasoning_effort: "low" };
    void client.chat.completions.create(p);`,
  misspeltField: `
    void client.chat.completions.create({ messages: [{ role: "user", content: "hi" }], max_completion_token: 5 });`,
};

let messages: Record<keyof typeof SNIPPETS, string>;

beforeAll(() => {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
  const files = new Map(
    Object.entries(SNIPPETS).map(([name, body]) => [
      join(root, "tests", "types", `__${name}.ts`),
      `import type { Inferloop } from "../../src/index.js";\ndeclare const client: Inferloop;\n${body}\n`,
    ]),
  );
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (f) => files.has(f) || ts.sys.fileExists(f);
  host.readFile = (f) => files.get(f) ?? readFile(f);
  host.getSourceFile = (f, lang) =>
    files.has(f) ? ts.createSourceFile(f, files.get(f)!, lang) : getSourceFile(f, lang);
  const program = ts.createProgram([...files.keys()], { ...options, noEmit: true }, host);
  messages = Object.fromEntries(
    [...files.keys()].map((f) => [
      f.replace(/^.*__(\w+)\.ts$/, "$1"),
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(f))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))
        .join("\n"),
    ]),
  ) as typeof messages;
}, 120_000);

describe("create: the compiler error names the real mistake", () => {
  it.each([
    // The widened `type` of a `{ type, text }` part, named against one of the parts of that
    // shape (`text`, or a custom role's `input_text` / `output_text`).
    ["widenedPart", /'string' is not assignable to type '"(input_|output_)?text"'|"text"/],
    ["widenedEffort", /reasoning_effort|ReasoningEffort/],
    ["misspeltField", /max_completion_token/],
  ] as const)("%s", (name, cause) => {
    // The compiler lists every overload's error; the last one is the overload meant for
    // requests that are neither literally streaming nor literally not.
    const last = messages[name].split(/Overload \d+ of \d+/).at(-1) ?? "";
    expect(last).toMatch(cause);
    expect(last).not.toMatch(/'stream'/);
  });
});
