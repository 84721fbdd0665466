// Type-checks every TypeScript sample in README.md and docs/*.md, and every `@example` in the
// TSDoc of src/**/*.ts, with `tsc --strict`, in one program, as a user would paste them:
// `inferloop`, `inferloop/testing`, `inferloop/testing/msw`, `inferloop/ai-sdk`,
// `inferloop/ai-sdk/v3` and `inferloop/progress` resolve to the sources, and top-level `await`
// works (each sample is an ES module). The second check (`initDefaults`) is a user's own
// project as docs/getting-started.md makes it, with nothing that page does not tell the user to
// add.
//
// The pages create a client (and the fake service, a stream...) once and then use it in later
// samples: those conventional names are declared for every sample (PRELUDE below); a sample
// that defines its own shadows them. Anything else a sample uses it must import or define.
//
// Fences: ```ts and ```typescript are checked; ```ts no-check marks a fragment that is not
// meant to compile on its own (use it sparingly: a checked sample is a sample that works).
// A sample that uses values the reader supplies may declare them in an HTML comment right
// above the fence, which the page does not show:
//
//   <!-- sample-setup: declare const queueId: string; -->
//
// An `@example` in the source is always a ```ts fence and always checked (no `no-check`, no
// setup comment: the hover and the API reference show all of it). It is read where its symbol
// is documented, so it may use without importing them:
// - the exports of the four entries (an API reference page says where to import them from) and
//   the exports of its own file (an internal helper's example shows that helper);
// - the PRELUDE's names, and the reader's own values (EXAMPLE_PRELUDE: the ids queueId, itemId,
//   jobId, modelId, callId, traceId and feedbackId; `groups`, gathered trajectory groups; and
//   `trajectory` and `trainable`, a Trajectory and a TrainableModel for their methods' examples).
// Anything else it defines, visibly. An `@example` without a ```ts fence is an error.
//
// Usage: node scripts/check-doc-samples.mjs [file.md|file.ts ...]   (default: README.md,
// docs/*.md and src/**/*.ts)
// Prints `path:line:column: error TSxxxx: message` with the Markdown or source file and line, exit 1.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "@typescript/typescript6";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The files to check, relative to the repository: the Markdown pages, then the sources. */
function defaultPages() {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  const sources = readdirSync(join(root, "src"), { recursive: true })
    .map((f) => `src/${String(f).split("\\").join("/")}`)
    .filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && readFileSync(join(root, f), "utf8").includes("@example"),
    )
    .sort();
  return ["README.md", ...docs, ...sources];
}

/** Names the pages define once and reuse, declared for every sample. */
const PRELUDE = `import type { ChatCompletionMessageParam, ChatCompletionStream, Inferloop } from "inferloop";
import type { FakeService } from "inferloop/testing";
declare global {
  /** The client, as created at the top of each page. */
  const client: Inferloop;
  /** A model id, e.g. from \`client.models.list()\`. */
  const model: string;
  const messages: ChatCompletionMessageParam[];
  const stream: ChatCompletionStream;
  /** The fake service of \`inferloop/testing\`, as started in docs/testing.md. */
  const svc: FakeService;
  const signal: AbortSignal;
  /** vitest's, in the samples that are tests. */
  const expect: typeof import("vitest").expect;
}
`;

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$/;
const SETUP = /<!--\s*sample-setup:([\s\S]*?)-->\s*$/;

/**
 * The TypeScript samples of one page: `{ line, code, setup }`, `line` being the 1-based line of
 * the sample's first code line.
 */
export function extractSamples(markdown) {
  const lines = markdown.split(/\r?\n/);
  const samples = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open;
    const close = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end])) end++;
    const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l));
    const flags = rest.trim().split(/\s+/);
    if ((lang === "ts" || lang === "typescript") && !flags.includes("no-check")) {
      // A setup comment ends on the line just above the fence (blank lines between are allowed).
      let above = i - 1;
      while (above >= 0 && lines[above].trim() === "") above--;
      let setup = "";
      if (above >= 0 && /-->\s*$/.test(lines[above])) {
        let start = above;
        while (start > 0 && !lines[start].includes("<!--")) start--;
        const m = SETUP.exec(lines.slice(start, above + 1).join("\n"));
        if (m) setup = m[1].trim();
      }
      samples.push({ line: i + 2, code: body.join("\n"), setup });
    }
    i = end;
  }
  return samples;
}

/**
 * The values a source example may use as the reader's own, declared when it uses them and does
 * not define them: ids they have at hand, the trajectory groups they gathered, and the object a
 * method's example is called on where the pages' PRELUDE has no name for it (as `stream` is).
 */
const EXAMPLE_PRELUDE = {
  queueId: "string",
  itemId: "string",
  jobId: "string",
  modelId: "string",
  callId: "string",
  traceId: "string",
  feedbackId: "string",
  groups: 'import("inferloop").GatheredTrajectoryGroup[]',
  trajectory: 'import("inferloop").Trajectory',
  trainable: 'import("inferloop").TrainableModel',
};

/**
 * The `@example` blocks of one source file: `{ samples, unfenced }`, each sample
 * `{ line, code }` (`line`: the 1-based line of its first code line), each unfenced `{ line }`
 * (an `@example` whose next line is not a ```ts or ```typescript fence).
 */
export function extractExamples(source) {
  const lines = source.split(/\r?\n/);
  const samples = [];
  const unfenced = [];
  const star = (l) => l.replace(/^\s*\*(?: |$)/, "");
  for (let i = 0; i < lines.length; i++) {
    if (!/(^|\s)@example\b/.test(lines[i]) || !/^\s*\*|\/\*\*/.test(lines[i])) continue;
    const open = /^\s*\*\s*@example\s*$/.test(lines[i]) && /^\s*\*\s*```(ts|typescript)\s*$/.test(lines[i + 1] ?? "");
    if (!open) {
      unfenced.push({ line: i + 1 });
      continue;
    }
    let end = i + 2;
    while (end < lines.length && !/^\s*\*\s*```\s*$/.test(lines[end]) && !/\*\//.test(lines[end])) end++;
    samples.push({
      line: i + 3,
      code: lines
        .slice(i + 2, end)
        .map(star)
        .join("\n"),
    });
    i = end;
  }
  return { samples, unfenced };
}

/** The public entries, by specifier, and the folder whose files prefer each one. */
const ENTRIES = [
  { specifier: "inferloop/testing/msw", file: "src/testing/msw.ts", area: "src/testing/msw.ts" },
  { specifier: "inferloop/testing", file: "src/testing/index.ts", area: "src/testing/" },
  { specifier: "inferloop/ai-sdk", file: "src/ai-sdk/index.ts", area: "src/ai-sdk/" },
  { specifier: "inferloop/progress", file: "src/progress/index.ts", area: "src/progress/" },
  { specifier: "inferloop", file: "src/index.ts", area: "src/" },
];

/**
 * What a source example may use without importing it: for each source file, a function of a
 * name to `{ from, typeOnly }` (its own file's exports first, then its area's entry, then the
 * others).
 */
function exampleScope(files, workDir) {
  const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, strict: true, noEmit: true };
  const program = ts.createProgram(
    [...ENTRIES.map((e) => join(root, e.file)), ...files.map((f) => join(root, f))],
    options,
  );
  const checker = program.getTypeChecker();
  const exportsOf = (file) => {
    const sf = program.getSourceFile(join(root, file));
    const symbol = sf && checker.getSymbolAtLocation(sf);
    const out = new Map();
    for (const e of symbol ? checker.getExportsOfModule(symbol) : []) {
      const target = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      out.set(e.name, { typeOnly: !(target.flags & ts.SymbolFlags.Value) });
    }
    return out;
  };
  const entries = ENTRIES.map((e) => ({ ...e, names: exportsOf(e.file) }));
  return (file) => {
    const own = exportsOf(file);
    const ownPath = `${relative(workDir, join(root, file)).split("\\").join("/").replace(/\.ts$/, ".js")}`;
    const order = [...entries].sort((a, b) => Number(file.startsWith(b.area)) - Number(file.startsWith(a.area)));
    return (name) => {
      const mine = own.get(name);
      if (mine) return { from: ownPath, typeOnly: mine.typeOnly };
      for (const e of order) {
        const found = e.names.get(name);
        if (found) return { from: e.specifier, typeOnly: found.typeOnly };
      }
      return undefined;
    };
  };
}

/**
 * The names a sample uses (identifiers other than property names) and those it declares at its
 * top level (imports, variables, functions, classes, types).
 */
function namesOf(code) {
  const sf = ts.createSourceFile("sample.ts", code, ts.ScriptTarget.Latest, true);
  const used = new Set();
  const declared = new Set();
  const bind = (name) => {
    if (ts.isIdentifier(name)) declared.add(name.text);
    else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bind(el.name);
  };
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && st.importClause) {
      const c = st.importClause;
      if (c.name) declared.add(c.name.text);
      if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) declared.add(c.namedBindings.name.text);
      else if (c.namedBindings) for (const el of c.namedBindings.elements) declared.add(el.name.text);
    } else if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) bind(d.name);
    else if (
      (ts.isFunctionDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st)) &&
      st.name
    )
      declared.add(st.name.text);
  }
  const visit = (node) => {
    if (ts.isIdentifier(node)) {
      const p = node.parent;
      const isProperty =
        (ts.isPropertyAccessExpression(p) && p.name === node) ||
        ((ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isMethodDeclaration(p)) && p.name === node) ||
        (ts.isQualifiedName(p) && p.right === node);
      if (!isProperty) used.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { used, declared };
}

/**
 * The line a source example is compiled with ahead of its code: imports of the names it uses
 * from the entries or its own file, and declarations of the reader's ids it uses.
 */
function exampleSetup(code, scope) {
  const { used, declared } = namesOf(code);
  const imports = new Map();
  const ids = [];
  for (const name of used) {
    if (declared.has(name)) continue;
    const found = scope(name);
    if (found) {
      if (!imports.has(found.from)) imports.set(found.from, []);
      imports.get(found.from).push(found.typeOnly ? `type ${name}` : name);
    } else if (Object.hasOwn(EXAMPLE_PRELUDE, name)) ids.push(`declare const ${name}: ${EXAMPLE_PRELUDE[name]};`);
  }
  return [...[...imports].map(([from, names]) => `import { ${names.join(", ")} } from "${from}";`), ...ids].join(" ");
}

/**
 * The compiler options `tsc --init` writes with the project's TypeScript (7 turns on
 * `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, `verbatimModuleSyntax`...), read
 * from a fresh run so the check follows whatever the installed version's defaults are.
 */
export function initCompilerOptions() {
  const dir = mkdtempSync(join(tmpdir(), "inferloop-tsc-init-"));
  try {
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const run = spawnSync(process.execPath, [tsc, "--init"], { cwd: dir, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`tsc --init failed: ${run.stdout}${run.stderr}`);
    const text = readFileSync(join(dir, "tsconfig.json"), "utf8");
    // JSON with comments and trailing commas; no option value holds "//" or "/*".
    const json = text
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "")
      .replace(/,(\s*[}\]])/g, "$1");
    return JSON.parse(json).compilerOptions;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What docs/getting-started.md ("Your project") has the reader change in the `tsconfig.json`
 * that `tsc --init` wrote: Node's types (with `npm install -D @types/node`), for `process`.
 */
export const GETTING_STARTED_EDITS = { types: ["node"] };

/**
 * The reader's `package.json` as docs/getting-started.md makes it: `npm init -y`, then
 * `"type": "module"` (top-level `await` needs an ES module). `@types/node`, `ai` and the other
 * packages the pages install resolve from the repository's node_modules, above `dir`.
 */
function userProject(dir) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
  for (const args of [
    ["init", "-y"],
    ["pkg", "set", "type=module"],
  ]) {
    const run = spawnSync("npm", args, { cwd: dir, env, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed: ${run.stdout}${run.stderr}`);
  }
}

/**
 * Checks the samples of `pages` (paths relative to the repository) in one tsc program.
 * Returns `{ samples, errors }`, each error `{ file, line, column, message }` pointing into the
 * Markdown file.
 */
export function checkDocSamples(
  pages = defaultPages(),
  { workDir = join(root, ".tmp", "doc-samples"), initDefaults = false, examples = [] } = {},
) {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  // A module per sample; what the line numbers of the generated file mean, by file name.
  const origin = new Map();
  let count = 0;
  const errors = [];
  const sources = pages.filter((p) => p.endsWith(".ts"));
  const scopeOf = sources.length > 0 ? exampleScope(sources, workDir) : undefined;
  for (const page of pages) {
    const text = readFileSync(resolve(root, page), "utf8");
    let samples;
    if (page.endsWith(".ts")) {
      const found = extractExamples(text);
      // Reported once, by the --strict run.
      if (!initDefaults)
        for (const { line } of found.unfenced)
          errors.push({
            file: page,
            line,
            column: 1,
            message: "@example without a ```ts fence: fence it, so it is checked",
          });
      const scope = scopeOf(page);
      samples = found.samples.map((s) => ({ ...s, setup: exampleSetup(s.code, scope) }));
    } else samples = extractSamples(text);
    for (const sample of samples) {
      const name = `${page.replace(/[^\w]+/g, "_")}_L${sample.line}.ts`;
      // The setup goes on the first line (no line shift for the sample's own lines below it);
      // `export {}` makes a sample without imports a module, so top-level await is allowed.
      const code = `${sample.setup.replace(/\r?\n/g, " ")} export {};\n${sample.code}\n`;
      writeFileSync(join(workDir, name), code);
      origin.set(name, { page, line: sample.line });
      count++;
    }
  }
  const src = relative(workDir, join(root, "src")).split("\\").join("/");
  // Stands in for `npm install inferloop`: the package's entries resolve to the sources.
  const paths = {
    inferloop: [`${src}/index.ts`],
    "inferloop/testing": [`${src}/testing/index.ts`],
    "inferloop/testing/msw": [`${src}/testing/msw.ts`],
    "inferloop/ai-sdk": [`${src}/ai-sdk/index.ts`],
    "inferloop/ai-sdk/v3": [`${src}/ai-sdk/v3.ts`],
    "inferloop/progress": [`${src}/progress/index.ts`],
  };
  const shared = {
    noEmit: true,
    types: ["node"],
    typeRoots: [
      relative(workDir, join(root, "node_modules", "@types"))
        .split("\\")
        .join("/"),
    ],
    paths,
  };
  const strictOptions = {
    target: "es2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    lib: ["es2023", "dom", "dom.iterable", "esnext.disposable"],
    strict: true,
    skipLibCheck: true,
  };
  if (initDefaults) userProject(workDir);
  const tsconfig = {
    // Under `tsc --init` defaults, the project docs/getting-started.md has the reader make: what
    // `tsc --init` wrote, with the edits that page asks for, and nothing else (`paths` only
    // stands in for the installed package).
    compilerOptions: initDefaults
      ? { ...initCompilerOptions(), ...GETTING_STARTED_EDITS, paths }
      : { ...strictOptions, ...shared },
    include: ["*.ts"],
    ...(examples.length > 0
      ? { files: examples.map((file) => relative(workDir, resolve(root, file)).split("\\").join("/")) }
      : {}),
  };
  writeFileSync(join(workDir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
  writeFileSync(join(workDir, "prelude.d.ts"), PRELUDE);
  if (count === 0) return { samples: 0, errors };

  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  // `--noEmit` as getting-started runs it (the `tsc --init` project would emit beside the sources).
  const run = spawnSync(process.execPath, [tsc, "-p", workDir, "--noEmit", "--pretty", "false"], {
    cwd: workDir,
    encoding: "utf8",
  });
  const output = `${run.stdout}${run.stderr}`;
  let last;
  // Under a user's flags, the SDK's own sources may not compile (its tsconfig is not theirs);
  // a user checks its declarations with skipLibCheck, so only the samples' errors count.
  let skipping = false;
  for (const line of output.split(/\r?\n/)) {
    if (/^\S.*\(\d+,\d+\): error TS/.test(line)) {
      const file = resolve(workDir, line.slice(0, line.indexOf("(")));
      skipping = initDefaults && (file.startsWith(join(root, "src")) || file.includes(`${"node_modules"}`));
    }
    if (skipping) continue;
    const m = /^(.+?)\((\d+),(\d+)\): (error TS\d+: .*)$/.exec(line);
    if (m) {
      const file = m[1].split(/[\\/]/).pop();
      const from = origin.get(file);
      const sampleLine = Number(m[2]) - 1;
      last = from
        ? { file: from.page, line: from.line + sampleLine - 1, column: Number(m[3]), message: m[4] }
        : {
            file: relative(root, resolve(workDir, m[1])).split("\\").join("/"),
            line: Number(m[2]),
            column: Number(m[3]),
            message: m[4],
          };
      if (from && sampleLine < 1) last.message += " (in the sample-setup comment above the fence)";
      errors.push(last);
    } else if (last && /^\s+\S/.test(line)) {
      last.message += `\n${line}`;
    } else if (line.trim() !== "") {
      // Anything else tsc says (a config error) is reported as is.
      errors.push((last = { file: "tsc", line: 0, column: 0, message: line }));
    }
  }
  if (run.status !== 0 && errors.length === 0 && !initDefaults)
    errors.push({ file: "tsc", line: 0, column: 0, message: output });
  errors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  return { samples: count, errors };
}

/** The examples (examples/*.ts), checked with the samples under `tsc --init`'s defaults. */
function defaultExamples() {
  return readdirSync(join(root, "examples"))
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => `examples/${f}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const pages = args.length > 0 ? args : undefined;
  // Twice: with --strict (the project's baseline), then as a `tsc --init` project (TypeScript 7:
  // exactOptionalPropertyTypes and more), where the examples are checked too.
  const strict = checkDocSamples(pages);
  const init = checkDocSamples(pages, {
    workDir: join(root, ".tmp", "doc-samples-init"),
    initDefaults: true,
    examples: args.length > 0 ? [] : defaultExamples(),
  });
  const errors = [
    ...strict.errors,
    ...init.errors.map((e) => ({ ...e, message: `${e.message} (under tsc --init defaults)` })),
  ];
  for (const e of errors) console.log(`${e.file}:${e.line}:${e.column}: ${e.message}`);
  if (errors.length > 0) {
    console.log(
      `\n${errors.length} type error(s) in ${strict.samples} code samples and the examples. Fix the sample (or, for a fragment never meant to compile, fence it as \`\`\`ts no-check).`,
    );
    process.exit(1);
  }
  console.log(
    `${strict.samples} code samples in README.md and docs/*.md type-check (tsc --strict), and with the examples under tsc --init defaults.`,
  );
}
