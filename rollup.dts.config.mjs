// Type declarations are bundled by rollup-plugin-dts rather than tsup: tsup's own dts step
// needs TypeScript's JS compiler API, which TypeScript 7 no longer ships.
import { dts } from "rollup-plugin-dts";
import { flattenShapes, twoSpaceIndent } from "./scripts/flatten-shapes.mjs";

const input = {
  index: "src/index.ts",
  testing: "src/testing/index.ts",
  "testing-msw": "src/testing/msw.ts",
  "ai-sdk": "src/ai-sdk/index.ts",
  progress: "src/progress/index.ts",
};
const packages = [/^node:/, "undici", "zod", "eventsource-parser", "msw", "@ai-sdk/provider"];
const mswEntry = /src[\\/]testing[\\/]msw\.ts$/;
const testingModule = /src[\\/]testing[\\/]/;
const aiSdkEntry = /src[\\/]ai-sdk[\\/]/;
const progressEntry = /src[\\/]progress[\\/]/;
const mainEntry = /src[\\/]index(\.[jt]s)?$/;

// `testing-msw` takes `FakeState` (a class with private members, so compared by identity) and
// the option types from `inferloop/testing`: its declarations import them from there instead of
// carrying a second, incompatible copy.
// Likewise `ai-sdk` and `progress` take every type of the SDK from `inferloop` (their builds
// import the main entry from the package, see tsup.config.ts).
const external = (id, importer) =>
  packages.some((p) => (typeof p === "string" ? p === id : p.test(id))) ||
  (importer !== undefined && mswEntry.test(importer) && id.startsWith(".")) ||
  (importer !== undefined && (aiSdkEntry.test(importer) || progressEntry.test(importer)) && id === "../index.js");

// msw ships only ESM. A CommonJS declaration file may still take types from it, with
// `resolution-mode: "import"` (the runtime `require` of it works on Node >= 22.12, which has
// require(esm)); without the attribute TypeScript refuses the import under module node16.
const esmOnly = ["msw", "eventsource-parser", "@ai-sdk/provider"];
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
    return twoSpaceIndent(flattenShapes(code));
  },
};

// rollup renders a path given for an absolute external id relative to the output ("./inferloop"):
// the main entry is the package itself, imported by its name.
const mainEntryByName = {
  name: "main-entry-by-name",
  renderChunk(code) {
    return code.replace(/ from '\.\/inferloop';$/gm, " from 'inferloop';");
  },
};

// `ai-sdk-v3` is bundled on its own, so its declarations are whole (no chunk shared with
// `ai-sdk`) and carry inferloop's own v3 types (src/ai-sdk/spec-v3.ts): no `@ai-sdk/provider`,
// whose top-level major need not be the one `ai` 6 uses.
const inputs = [input, { "ai-sdk-v3": "src/ai-sdk/v3.ts" }];

export default inputs.flatMap((input) =>
  ["d.ts", "d.cts"].map((ext) => ({
    input,
    output: {
      dir: "dist",
      format: "es",
      entryFileNames: `[name].${ext}`,
      paths: (id) =>
        testingModule.test(id)
          ? ext === "d.ts"
            ? "./testing.js"
            : "./testing.cjs"
          : mainEntry.test(id)
            ? "inferloop"
            : id,
    },
    plugins: [
      dts({ tsconfig: "tsconfig.build.json" }),
      shippedTypes,
      mainEntryByName,
      ...(ext === "d.cts" ? [typesFromEsm] : []),
    ],
    external,
  })),
);
