/**
 * The generated API reference (`npm run docs`) shows the named request types with a line per
 * field, its doc and its deprecation, nested object fields included; its pages come from what
 * the code declares (an endpoint's operation names its page), it links by file and never by
 * line; every public export has its TSDoc, what users call (functions, classes) an example, and
 * no type or schema a filler one.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { APIResource } from "../../src/core/pipeline/resource.js";
import * as main from "../../src/index.js";
import { chatCompletionCreateParamsSchema } from "../../src/index.js";
import * as testing from "../../src/testing/index.js";
import * as msw from "../../src/testing/msw.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const pages: Record<string, string> = {};

/** The section of a page that documents `name`, up to the next export. */
function section(page: string, name: string): string {
  const text = pages[page]!;
  const start = text.indexOf(`### \`${name}\``);
  expect(start, `${name} is documented on ${page}`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf("\n### `", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

beforeAll(() => {
  const run = spawnSync(process.execPath, [join(root, "scripts", "api-docs.mjs")], { cwd: root, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  for (const file of readdirSync(join(root, "docs", "api")))
    if (file.endsWith(".md")) pages[file.slice(0, -3)] = readFileSync(join(root, "docs", "api", file), "utf8");
}, 120_000);

/** The `### \`name\`` sections of a page: name and text. */
function sections(page: string): [string, string][] {
  return pages[page]!.split(/\n(?=### `)/)
    .slice(1)
    .map((text) => [/^### `([^`]+)`/.exec(text)![1]!, text]);
}

/** Source files under a folder, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("API reference pages", () => {
  it("puts each declared endpoint on the page its operation's namespace names", () => {
    const operations = new Set<string>();
    for (const file of sourceFiles(join(root, "src")))
      for (const m of readFileSync(file, "utf8").matchAll(/^\s*operation: "([^"]+)",\s*$/gm)) operations.add(m[1]!);
    expect(operations.size).toBeGreaterThan(0);
    for (const operation of operations) {
      const page = operation.split(".")[0]!.replace(/_/g, "-");
      expect(pages[page], `docs/api/${page}.md for ${operation}`).toBeDefined();
      expect(pages[page]).toContain(`| \`${operation}\` |`);
    }
    // The namespace classes are on their operations' pages.
    expect(section("trainable-models", "TrainableModels")).toContain("*class*");
    expect(section("trainable-models", "Checkpoints")).toContain("*class*");
    expect(section("training-jobs", "TrainingJobEvents")).toContain("*class*");
    expect(section("chat", "Completions")).toContain("*class*");
  });

  it("documents every runtime export of each entry point on some page", () => {
    const documented = new Set(
      Object.keys(pages)
        .filter((p) => p !== "index")
        .flatMap((p) => sections(p).map(([name]) => name)),
    );
    for (const [entry, mod] of [
      ["inferloop", main],
      ["inferloop/testing", testing],
      ["inferloop/testing/msw", msw],
    ] as const)
      for (const name of Object.keys(mod))
        if (name !== "default") expect(documented.has(name), `${entry} ${name}`).toBe(true);
    expect(section("capture", "captureTrajectory")).toContain("*function*");
  });

  it("gives every public export its TSDoc, and every function and class users call an example", () => {
    const values: Record<string, unknown> = { ...msw, ...testing, ...main };
    // Error classes and namespace classes (reached as `client.<namespace>`) need none.
    const called = (name: string, kind: string): boolean => {
      if (kind === "function") return true;
      const value = values[name];
      if (kind !== "class" || typeof value !== "function") return false;
      return !(value.prototype instanceof Error) && !(value.prototype instanceof APIResource);
    };
    let checked = 0;
    for (const page of Object.keys(pages).filter((p) => p !== "index"))
      for (const [name, text] of sections(page)) {
        const kind = /\n\*(\w+)/.exec(text)![1]!;
        if (called(name, kind)) {
          expect(text, `${page}: ${name}`).toContain("**Example**");
          checked++;
        }
        expect(
          text
            .split("\n")
            .slice(1)
            .join("\n")
            .replace(/[*`#\s]/g, "").length,
          `${page}: ${name}`,
        ).toBeGreaterThan(0);
      }
    expect(checked).toBeGreaterThan(40);
  });

  it("carries no filler example: none on a schema, none that only writes a value of a type", () => {
    for (const [page, text] of Object.entries(pages)) {
      // An example that is nothing but `const x: T = { ... };`.
      expect(text, page).not.toMatch(/```ts\nconst \w+: [A-Z][^=\n]* = [{[][^`]*?[}\]];\n```/);
      for (const [name, section] of sections(page))
        if (name.endsWith("Schema")) expect(section, `${page}: ${name}`).not.toContain("**Example**");
    }
    expect(section("chat", "ChatCompletionContentPartText")).not.toContain("**Example**");
    expect(section("client", "RateLimitError")).not.toContain("**Example**");
  });

  it("links each export to its declaring file, never to a line", () => {
    for (const [page, text] of Object.entries(pages)) {
      expect(text, page).not.toMatch(/#L\d+/);
      for (const m of text.matchAll(/\]\(\.\.\/\.\.\/([^)#]+)\)/g))
        expect(existsSync(join(root, m[1]!)), `${page} links ${m[1]}`).toBe(true);
    }
    expect(section("chat", "ChatCompletionStream")).toContain(
      "`ChatCompletionStream` in [src/wire/chat/stream/stream.ts](../../src/wire/chat/stream/stream.ts)",
    );
  });
});

describe("guides", () => {
  it("link to code by file, never by line", () => {
    const guides = [
      "README.md",
      ...readdirSync(join(root, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    for (const guide of guides)
      expect(readFileSync(join(root, guide), "utf8"), relative(root, join(root, guide))).not.toMatch(/#L\d+/);
  });
});

describe("API reference of the request types", () => {
  it("lists every field of the chat request with its doc", () => {
    const base = section("chat", "ChatCompletionCreateParamsBase");
    expect(base).toContain("*interface*");
    expect(base).toContain("#### Fields");
    const fields = base.split("\n").filter((l) => l.startsWith("- `"));
    // The exported schema is typed by its interface; its object shape is still there at run time.
    const wire = Object.keys((chatCompletionCreateParamsSchema as unknown as { shape: object }).shape);
    for (const name of wire)
      expect(
        fields.some((l) => l.startsWith(`- \`${name}?:`) || l.startsWith(`- \`${name}:`)),
        name,
      ).toBe(true);
    for (const line of fields) expect(line, line).toMatch(/^- `[^`]+`: \S/);
    expect(base).toMatch(/- `max_tokens\?: number \| null`: \*\*Deprecated:\*\* Use `max_completion_tokens`/);
    expect(base).toMatch(/- `stop\?: string \| string\[\] \| null`: /);
  });

  it("shows the fields of inline objects one level down", () => {
    const image = section("chat", "ChatCompletionContentPartImage");
    expect(image).toMatch(/\n {2}- `url: string`: An `https:` URL/);
  });

  it("documents the other requests by name", () => {
    expect(section("calls", "CallsQueryParams")).toMatch(/- `project_id: string`: The project/);
    expect(section("calls", "CallsFilter")).toMatch(/- `svc_user_ids\?: string\[\] \| null`: .*ignores it/);
    expect(section("training-jobs", "TrainingJobCreateParams")).toMatch(/- `model_id: string`: UUID/);
    expect(section("training-jobs", "ExperimentalConfig")).toContain("kimi_k2_tau");
    expect(section("annotation-queues", "AnnotationQueueItemProgressParams")).toContain("- `annotation_state:");
  });

  it("names the schemas' types instead of inlining zod's", () => {
    expect(section("chat", "chatCompletionCreateParamsSchema")).toContain(
      "const chatCompletionCreateParamsSchema: SchemaOf<ChatCompletionCreateParamsBase>",
    );
  });
});
