import { join } from "node:path";
import { defineConfig, type Options } from "tsup";

// The browser build swaps the undici transport for the fetch one, so no Node module ever
// reaches a browser bundle.
const browserTransport = {
  name: "browser-transport",
  setup(build: { onResolve: (o: { filter: RegExp }, cb: (a: { path: string; resolveDir: string }) => { path: string }) => void }) {
    build.onResolve({ filter: /\/transport\/default\.js$/ }, (args) => ({
      path: join(args.resolveDir, args.path.replace(/default\.js$/, "default.browser.ts")),
    }));
  },
};

const shared: Options = {
  target: "es2022",
  sourcemap: true,
  splitting: false,
  treeshake: true,
  // eventsource-parser is ESM-only; bundling its 3 KB lets `require("inferloop")` work on
  // every Node 22, including the minors without require(esm).
  noExternal: ["eventsource-parser"],
  external: ["undici", "zod", "msw", "msw/node"],
};

export default defineConfig([
  {
    ...shared,
    entry: { index: "src/index.ts", testing: "src/testing/index.ts" },
    format: ["esm", "cjs"],
    platform: "node",
    clean: true,
  },
  {
    ...shared,
    entry: { browser: "src/index.ts" },
    format: ["esm"],
    platform: "browser",
    esbuildPlugins: [browserTransport as never],
  },
]);
