import { rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { defineConfig, type Options } from "tsup";

// The browser build swaps the undici transport for the fetch one, so no Node module ever
// reaches a browser bundle, and the OpenTelemetry hook, the token entry copier and the compact
// JSON writer, the request fast path (quick-accept) and the logprob packing for stubs (no spans
// there; the generic copy; JSON.stringify's text; zod alone; lists kept as received), so the bundle
// budget carries none of them, and node:async_hooks for a global AsyncLocalStorage if any; the
// artifacts' MD5 and file system (no node:crypto, no node:fs there) and their multipart uploads (a
// page sends each file in one PUT), LoRA deploys (they read an adapter folder) and the training
// loop's state file (memory there). The Bun build swaps the transport only.
const swapForBrowser = (name: string, filter: RegExp) => ({
  name,
  setup(build: {
    onResolve: (o: { filter: RegExp }, cb: (a: { path: string; resolveDir: string }) => { path: string }) => void;
  }) {
    build.onResolve({ filter }, (args) => ({
      path: join(args.resolveDir, args.path.replace(/\.js$/, ".browser.ts")),
    }));
  },
});
const browserTransport = swapForBrowser(
  "browser-transport",
  /\/transport\/default\.js$|\/telemetry\.js$|\/token-entry-copy\.js$|\/compact-json-text\.js$|\/async-scope\.js$|\/quick-accept\.js$|\/packed-logprobs\.js$|\/md5\.js$|\/local-files\.js$|\/multipart\.js$|\/lora-deploy\.js$|\/loop-state-file\.js$/,
);
const bunTransport = swapForBrowser("bun-transport", /\/transport\/default\.js$/);

// `src/ai-sdk/` takes the client from the main entry (`../index.js`). Its build imports that from
// the package itself (`inferloop`), so the app's `inferloop` and `inferloop/ai-sdk` share one copy
// of the SDK: one `RateLimitError` class for `instanceof`, one capture scope for
// `captureTrajectory`, and on each runtime the build its conditions pick (browser, Bun, Node).
const mainEntryAsPackage = {
  name: "main-entry-as-package",
  setup(build: { onResolve: (o: { filter: RegExp }, cb: () => { path: string; external: boolean }) => void }) {
    build.onResolve({ filter: /^\.\.\/index\.js$/ }, () => ({ path: "inferloop", external: true }));
  },
};

// `src/cli/` (the `inferloop` command) imports the main entry and the fake service's entry; its
// build imports them from the package itself, so the command carries no second copy of the SDK
// (and its `instanceof` checks see the classes the SDK throws).
const entriesAsPackage = {
  name: "entries-as-package",
  setup(build: {
    onResolve: (
      o: { filter: RegExp },
      cb: (a: { path: string; resolveDir: string }) => { path: string; external: boolean } | undefined,
    ) => void;
  }) {
    const entries: Record<string, string> = {
      [join(import.meta.dirname, "src", "index.js")]: "inferloop",
      [join(import.meta.dirname, "src", "testing", "index.js")]: "inferloop/testing",
    };
    build.onResolve({ filter: /\/index\.js$/ }, (args) => {
      const target = entries[join(args.resolveDir, args.path)];
      return target === undefined ? undefined : { path: target, external: true };
    });
  },
};

const EXTERNAL = ["undici", "zod", "msw", "msw/node", "@opentelemetry/api"];

const shared: Options = {
  target: "es2022",
  sourcemap: true,
  splitting: false,
  treeshake: true,
  // eventsource-parser is ESM-only (and small); bundling it lets `require("inferloop")` work on
  // every Node 22, including the minors without require(esm).
  noExternal: ["eventsource-parser"],
  external: EXTERNAL,
};

// The builds run at once, so none of them may clean `dist`: it is emptied here, before
// any starts (hashed chunk names would otherwise pile up in the package).
export default defineConfig(async () => {
  rmSync("dist", { recursive: true, force: true });
  const modules = await browserModules();
  const scaffold = Object.fromEntries(
    modules.map((m) => [`${BROWSER_SCAFFOLD}/${m.replace(/^src\/(.*)\.ts$/, "$1")}`, m]),
  );
  return builds(scaffold);
});

const BROWSER_SCAFFOLD = "browser-modules";

/**
 * The source modules of the browser build (with its swaps), those behind `import()` included,
 * except the targets of `import()`: esbuild makes each its own entry already, and a scaffold
 * entry there would be the file the `import()` names.
 */
async function browserModules(): Promise<string[]> {
  const probe = await build({
    entryPoints: ["src/index.ts"],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "browser",
    external: EXTERNAL,
    plugins: [browserTransport as never],
    logLevel: "silent",
  });
  const inputs = Object.entries(probe.metafile!.inputs);
  const loaded = new Set(
    inputs.flatMap(([, i]) => i.imports.filter((r) => r.kind === "dynamic-import").map((r) => r.path)),
  );
  return inputs.map(([path]) => path).filter((path) => path.startsWith("src/") && !loaded.has(path));
}

const builds = (browserScaffold: Record<string, string>): Options[] => [
  {
    ...shared,
    entry: { index: "src/index.ts" },
    format: ["esm"],
    platform: "node",
  },
  {
    ...shared,
    // The CommonJS entry is left to esbuild alone: tsup's extra rollup pass would emit the same
    // `exports.default` beside the named exports, with a warning about mixing the two on every
    // build. (esbuild has already removed the unused code.) esbuild's list of export names for
    // Node's CommonJS lexer leaves out `default` (a reserved word); the footer names it, so tools
    // that read exports statically (attw) see the `default` the getters already provide.
    entry: { index: "src/index.ts" },
    format: ["cjs"],
    platform: "node",
    treeshake: false,
    footer: { js: "0 && (module.exports.default = module.exports.Inferloop);" },
  },
  {
    ...shared,
    // `inferloop/testing` and `inferloop/testing/msw` share one copy of the fake service's
    // state (chunks), so a `createFakeState()` from the one is a `FakeState` to the other.
    // Only `testing-msw` loads msw.
    entry: { testing: "src/testing/index.ts", "testing-msw": "src/testing/msw.ts" },
    format: ["esm", "cjs"],
    platform: "node",
    splitting: true,
  },
  {
    ...shared,
    // `browser.js` holds no code of its own, only re-exports from chunks, so a bundler drops
    // every chunk a page does not use (`"sideEffects": false`). The entries decide the chunks:
    // each module of the build is an entry of its own (scaffolding, removed after the build),
    // so each lands in a chunk of its own and an app's bundler sees the modules as they import
    // each other. A relay page (`ChatCompletionStream.fromReadableStream`) then bundles the
    // stream reader only (no request validation, no zod), and a bundler that splits code
    // leaves what the namespaces load at first use (`import()`) out of a chat page.
    entry: { browser: "src/index.ts", ...browserScaffold },
    format: ["esm"],
    platform: "browser",
    splitting: true,
    esbuildPlugins: [browserTransport as never],
    esbuildOptions(options) {
      options.chunkNames = "browser-[hash]";
    },
    async onSuccess() {
      rmSync(`dist/${BROWSER_SCAFFOLD}`, { recursive: true, force: true });
    },
  },
  {
    ...shared,
    // The AI SDK provider: no code of the SDK's own (see mainEntryAsPackage) and only types of
    // `@ai-sdk/provider`, so it loads without the AI SDK installed and runs on every runtime.
    // Its two entries (specification v4 and v3) share one chunk of the implementation.
    entry: { "ai-sdk": "src/ai-sdk/index.ts", "ai-sdk-v3": "src/ai-sdk/v3.ts" },
    format: ["esm", "cjs"],
    splitting: true,
    platform: "neutral",
    external: [...(shared.external ?? []), "inferloop", "@ai-sdk/provider"],
    esbuildPlugins: [mainEntryAsPackage as never],
    esbuildOptions(options) {
      options.chunkNames = "ai-sdk-[hash]";
    },
  },
  {
    ...shared,
    // The `inferloop` command (package.json `bin`): Node only, with the SDK and the fake service
    // from the package's own entries (see entriesAsPackage).
    entry: { cli: "src/cli/main.ts" },
    format: ["esm"],
    platform: "node",
    external: [...(shared.external ?? []), "inferloop", "inferloop/testing"],
    esbuildPlugins: [entriesAsPackage as never],
  },
  {
    ...shared,
    // `inferloop/progress`: the terminal view of a training loop and its Ctrl-C wiring. It takes
    // only types from the SDK, so it runs on its own, on every runtime, and the client never
    // carries it.
    entry: { progress: "src/progress/index.ts" },
    format: ["esm", "cjs"],
    platform: "neutral",
    external: [...(shared.external ?? []), "inferloop"],
    esbuildPlugins: [mainEntryAsPackage as never],
  },
  {
    ...shared,
    // Bun's built-in undici lacks `Agent#request`: the fetch transport, with OpenTelemetry spans.
    entry: { bun: "src/index.ts" },
    format: ["esm"],
    platform: "node",
    esbuildPlugins: [bunTransport as never],
  },
];
