/**
 * The generated API reference (`npm run docs`) shows the named request types with a line per
 * field, its doc and its deprecation, nested object fields included.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { chatCompletionCreateParamsSchema } from "../../src/index.js";

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
  for (const page of ["chat", "calls", "training-jobs", "annotation-queues"])
    pages[page] = readFileSync(join(root, "docs", "api", `${page}.md`), "utf8");
}, 120_000);

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
