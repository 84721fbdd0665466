// The shipped declarations: request types are derived from zod shapes in the source, and the
// build writes them out (scripts/flatten-shapes.mjs). Users must get named interfaces with a doc
// per field, nested fields included, and none of the zod machinery they were derived with.
import { execFileSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";

const tarball = inject("tarball");
const fromTarball = (file: string): string =>
  execFileSync("tar", ["-xzOf", tarball, `package/${file}`], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });

// One interface's declaration, from its name to its closing brace at the start of a line.
const declaration = (dts: string, name: string): string => {
  const start = dts.indexOf(`\ninterface ${name} {`);
  expect(start, `interface ${name}`).toBeGreaterThan(-1);
  return dts.slice(start, dts.indexOf("\n}", start) + 2);
};

describe.each(["index.d.ts", "index.d.cts"])("dist/%s", (file) => {
  const dts = fromTarball(`dist/${file}`);

  it("spells request types out as named interfaces, each field with its doc", () => {
    const params = declaration(dts, "ChatCompletionCreateParamsBase");
    expect(params).toMatch(/\/\*\* Sampling temperature[^\n]*\*\/\n\s+temperature\?: number \| null \| undefined;/);
    expect(params).toMatch(/\n\s+messages: ChatCompletionMessageParam\[\];/);
    const image = declaration(dts, "ChatCompletionContentPartImage");
    expect(image).toMatch(/\/\*\* An `https:` URL[^\n]*\*\/\n\s+url: string;/);
    const choice = declaration(dts, "TrajectoryChoice");
    // An optional field keeps `| undefined`, as zod's input type has it (exactOptionalPropertyTypes).
    expect(choice).toMatch(/\/\*\* Its text\. \*\/\n\s+content\?: string \| null \| undefined;/);
  });

  it("carries none of the zod shapes the types are derived from", () => {
    expect(dts).not.toMatch(/extends Fields</);
    expect(dts).not.toMatch(/declare const \w+Shape\b/);
  });

  // A guard against growth nobody chose, just over today's size (the API of every namespace,
  // with each public function's example; docs/performance.md, "Declarations", has the figures).
  it("stays within 310 KB", () => {
    expect(Buffer.byteLength(dts)).toBeLessThanOrEqual(310_000);
  });
});
