/**
 * Request types are derived from their zod shapes (`interface X extends Fields<typeof x.shape>`),
 * with each field's doc written once, on the shape. This asks the TypeScript language service
 * (what an editor asks) that the docs still reach a user's hover, nested fields included, and
 * that the derived types stay exact.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const ts = require("@typescript/typescript6") as typeof import("@typescript/typescript6");

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const file = join(root, "tests", "types", "__hover__.ts");
const code = `import type { ChatCompletionContentPartImage, ChatCompletionCreateParams, TrajectoryChoice } from "../../src/index.js";
export const p: ChatCompletionCreateParams = { messages: [{ role: "user", content: "Hi" }], temperature: 0.2 };
export const i: ChatCompletionContentPartImage = { type: "image_url", image_url: { url: "https://x/y.png" } };
export const c: TrajectoryChoice = { finish_reason: "stop", index: 0, message: { role: "assistant", content: "4", extra: 1 } };
export const typo: ChatCompletionContentPartImage = { type: "image_url", image_url: { url: "u", detial: "low" } };
`;

let service: import("@typescript/typescript6").LanguageService;

beforeAll(() => {
  const options = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    types: [],
  };
  const read = (f: string) => (f === file ? code : ts.sys.readFile(f));
  service = ts.createLanguageService({
    getScriptFileNames: () => [file],
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => {
      const text = read(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => f === file || ts.sys.fileExists(f),
    readFile: read,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
});

// The hover at the first `marker` in the code, `offset` characters into it.
function hover(marker: string, offset = 0): { type: string; doc: string } {
  const info = service.getQuickInfoAtPosition(file, code.indexOf(marker) + offset);
  return {
    type: ts.displayPartsToString(info?.displayParts),
    doc: ts.displayPartsToString(info?.documentation),
  };
}

describe("field docs of derived request types", () => {
  it("reach the hover of a top-level field, with its type", { timeout: 60_000 }, () => {
    const t = hover("temperature");
    expect(t.type).toBe("(property) temperature?: number | null | undefined");
    expect(t.doc).toMatch(/^Sampling temperature/);
    expect(hover("messages").type).toBe("(property) messages: ChatCompletionMessageParam[]");
  });

  it("reach the hover of nested fields, exact and open objects alike", () => {
    expect(hover("{ url:", 2).doc).toMatch(/`data:image\/...;base64,` URL/);
    expect(hover('content: "4"').doc).toBe("Its text.");
  });

  it("keep the types exact: a misspelt key is a compile error, an open object takes any key", () => {
    const errors = service
      .getSemanticDiagnostics(file)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/'detial' does not exist/);
  });
});
