/**
 * A user's test imports from `inferloop` and `inferloop/testing` side by side, so a name both
 * entries export would be two different types under one name (the fake's call record is not
 * the SDK's). The fake's own record types are named `Fake*`; this asks the TypeScript compiler
 * for every name, types included, that the two entries export.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const require = createRequire(import.meta.url);
const ts = require("@typescript/typescript6") as typeof import("@typescript/typescript6");

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function exportNames(program: import("@typescript/typescript6").Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker.getExportsOfModule(module).map((s) => s.name);
}

it("inferloop/testing shares no exported name, type or value, with the main entry", () => {
  const main = join(root, "src", "index.ts");
  const testing = join(root, "src", "testing", "index.ts");
  const program = ts.createProgram([main, testing], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  });
  const mainNames = new Set(exportNames(program, main));
  const testingNames = exportNames(program, testing);
  expect(testingNames).toEqual(expect.arrayContaining(["FakeCallRecord", "FakeAnnotationQueue", "FakeService"]));
  expect(testingNames.filter((name) => mainNames.has(name))).toEqual([]);
}, 60_000);
