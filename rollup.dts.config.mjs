// Type declarations are bundled by rollup-plugin-dts rather than tsup: tsup's own dts step
// needs TypeScript's JS compiler API, which TypeScript 7 no longer ships.
import { dts } from "rollup-plugin-dts";
import { dropTypeExamples, flattenShapes } from "./scripts/flatten-shapes.mjs";

const input = { index: "src/index.ts", testing: "src/testing/index.ts", "testing-msw": "src/testing/msw.ts" };
const packages = [/^node:/, "undici", "zod", "eventsource-parser", "msw"];
const mswEntry = /src[\\/]testing[\\/]msw\.ts$/;
const testingModule = /src[\\/]testing[\\/]/;

// `testing-msw` takes `FakeState` (a class with private members, so compared by identity) and
// the option types from `inferloop/testing`: its declarations import them from there instead of
// carrying a second, incompatible copy.
const external = (id, importer) =>
  packages.some((p) => (typeof p === "string" ? p === id : p.test(id))) ||
  (importer !== undefined && mswEntry.test(importer) && id.startsWith("."));

// msw ships only ESM. A CommonJS declaration file may still take types from it, with
// `resolution-mode: "import"` (the runtime `require` of it works on Node >= 22.12, which has
// require(esm)); without the attribute TypeScript refuses the import under module node16.
const esmOnly = ["msw", "eventsource-parser"];
const typesFromEsm = {
  name: "types-from-esm-only-packages",
  renderChunk(code) {
    return code.replace(/^import (?:type )?(\{[^}]*\}) from '([^']+)';$/gm, (line, names, spec) =>
      esmOnly.includes(spec) ? `import type ${names} from '${spec}' with { 'resolution-mode': 'import' };` : line,
    );
  },
};

// Request types are derived from their zod shapes in the source; the declarations spell them out
// (see scripts/flatten-shapes.mjs), so users get plain named interfaces with field docs.
const shippedTypes = {
  name: "shipped-types",
  renderChunk(code) {
    return dropTypeExamples(flattenShapes(code));
  },
};

export default ["d.ts", "d.cts"].map((ext) => ({
  input,
  output: {
    dir: "dist",
    format: "es",
    entryFileNames: `[name].${ext}`,
    paths: (id) => (testingModule.test(id) ? (ext === "d.ts" ? "./testing.js" : "./testing.cjs") : id),
  },
  plugins: [dts({ tsconfig: "tsconfig.build.json" }), shippedTypes, ...(ext === "d.cts" ? [typesFromEsm] : [])],
  external,
}));
