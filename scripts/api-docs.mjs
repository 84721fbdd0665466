#!/usr/bin/env node
// `npm run docs`: the API reference, generated from the TSDoc of the public entry points.
//
//   node scripts/api-docs.mjs            write docs/api/, fail on gaps
//   node scripts/api-docs.mjs --no-fail  write docs/api/, report gaps, exit 0
//
// Why this script and not TypeDoc (with typedoc-plugin-markdown), tried on these entries:
// TypeDoc's peer range stops at TypeScript 6.0, so beside this project's TypeScript 7 it
// installs only as a workspace with a second TypeScript; it checks that comments exist but not
// `@example`s, and writes a page per symbol. The gate below, the pages by area and the endpoint
// tables would all be plugin code, the same as here. CONTRIBUTING.md ("The API reference") has
// the details. TypeScript 7 has no JavaScript compiler API, so this uses TypeScript 6's
// (`@typescript/typescript6`, a dev dependency).
//
// It writes one Markdown page per area into docs/api/ (committed; CI checks it is current) and
// exits 1 when a public export of an entry point has no TSDoc, or something users
// call has no `@example`: a function, a class (not an error class, nor a namespace class, an
// `APIResource` reached as `client.<namespace>`, which its methods show), a value that is a
// function or an object of functions (`q`, `faults`), and the public methods of those classes
// and objects (not constructors, which the class's example shows, nor `override`s, `@internal`
// members, and methods of an interface the class implements, which its caller calls: the AI
// SDK calls `doGenerate`). Types, interfaces, schemas and error classes need TSDoc only. The
// examples themselves are type-checked by scripts/check-doc-samples.mjs.
//
// Pages are derived from the code, never from a list of names, so files may move and
// namespaces may be added without touching this script (see `pageOf`): an endpoint's page is
// the first segment of its declared operation (`training_jobs.events.list` → training-jobs.md),
// and an export of the main entry lands there when its file or folder declares endpoints, or
// (a namespace class of `src/namespaces/`) when the wire modules it imports do; any other export lands on the page of its module folder
// (`src/lib/capture/…` → capture.md, `src/lib/ruler.ts` → ruler.md; `src/core/` and the top of
// `src/` → client.md); every other entry point has one page. Links name the file and the
// symbol, never a line, so an edit above a symbol changes nothing here.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const ts = require("@typescript/typescript6");

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "docs", "api");
const failOnGaps = !process.argv.includes("--no-fail");

/**
 * The package's entry points: import specifier and source file. `main` marks the entry whose
 * exports are spread over derived pages; each other entry gets one page, named after its
 * specifier (`inferloop/testing/msw` → testing-msw.md). Every export of every entry needs TSDoc,
 * and whatever of them users call an `@example`.
 */
const ENTRIES = [
  { specifier: "inferloop", file: "src/index.ts", main: true },
  { specifier: "inferloop/testing", file: "src/testing/index.ts" },
  { specifier: "inferloop/testing/msw", file: "src/testing/msw.ts" },
  { specifier: "inferloop/ai-sdk", file: "src/ai-sdk/index.ts" },
  { specifier: "inferloop/ai-sdk/v3", file: "src/ai-sdk/v3.ts" },
  { specifier: "inferloop/progress", file: "src/progress/index.ts" },
].map((e) => ({ ...e, slug: e.specifier.replace(/^inferloop\/?/, "").replaceAll("/", "-") }));

/** The page of the client, its options, its errors and the request pipeline (`src/core/`). */
const CLIENT_PAGE = "client";
const CLIENT_TITLE = "Client, options and errors";

// ---------------------------------------------------------------------------------------------
// Program

function loadProgram() {
  const configPath = join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, "\n"));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram(
    ENTRIES.map((e) => join(root, e.file)),
    { ...parsed.options, noEmit: true },
  );
}

const program = loadProgram();
const checker = program.getTypeChecker();

// ---------------------------------------------------------------------------------------------
// Reading symbols

/** Each kind of export, in page order, with its section title. */
const KIND_TITLE = {
  class: "Classes",
  function: "Functions",
  const: "Values",
  interface: "Interfaces",
  type: "Types",
  enum: "Enums",
};
const KIND_ORDER = Object.keys(KIND_TITLE);

function resolveAlias(symbol) {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** An expression without the `as`, `satisfies` and parentheses around it. */
function unwrap(node) {
  while (node && (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)))
    node = node.expression;
  return node;
}

/** The initializer of the variable a symbol names (through an import), if it has one. */
function initializerOf(symbol) {
  const decl = symbol && resolveAlias(symbol).valueDeclaration;
  return decl && ts.isVariableDeclaration(decl) ? decl.initializer : undefined;
}

/** The object literal a value is initialized with (through `as` and `satisfies`), if any. */
function objectInitializer(decl) {
  const init = unwrap(ts.isVariableDeclaration(decl) ? decl.initializer : undefined);
  return init && ts.isObjectLiteralExpression(init) ? init : undefined;
}

function kindOf(decl) {
  if (ts.isClassDeclaration(decl)) return "class";
  if (ts.isFunctionDeclaration(decl)) return "function";
  if (ts.isVariableDeclaration(decl)) return "const";
  if (ts.isInterfaceDeclaration(decl)) return "interface";
  if (ts.isTypeAliasDeclaration(decl)) return "type";
  if (ts.isEnumDeclaration(decl)) return "enum";
  return "const";
}

function text(parts) {
  return ts.displayPartsToString(parts ?? []).trim();
}

/** TSDoc of a symbol, its `@example`s, and whether it is marked `@internal`. */
function docsOf(symbol) {
  const tags = symbol.getJsDocTags(checker);
  return {
    summary: text(symbol.getDocumentationComment(checker)),
    examples: tags.filter((t) => t.name === "example").map((t) => text(t.text)),
    deprecated: text(tags.find((t) => t.name === "deprecated")?.text),
    internal: tags.some((t) => t.name === "internal"),
  };
}

/** Source text of a declaration from its start (after its comment) up to its body, if any. */
function headText(node, body) {
  const sf = node.getSourceFile();
  const end = body ? body.getStart(sf) : node.getEnd();
  return sf.text
    .slice(node.getStart(sf), end)
    .trim()
    .replace(/\s*[{=]$/, "")
    .trim();
}

function isPublicMember(member) {
  const name = member.name;
  if (!name) return ts.isConstructorDeclaration(member);
  if (ts.isPrivateIdentifier(name)) return false;
  const flags = ts.getCombinedModifierFlags(member);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  const id = name.getText();
  return !id.startsWith("_") && !id.startsWith("#");
}

function memberSignature(member) {
  if (ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member) || ts.isGetAccessor(member))
    return headText(member, member.body);
  if (ts.isPropertyDeclaration(member) || ts.isPropertySignature(member))
    return headText(member, member.initializer).replace(/;$/, "");
  return member.getText().split("\n")[0];
}

/** Source text without its comments, on one line: a field's type as a reference lists it. */
function withoutComments(node) {
  const sf = node.getSourceFile();
  return sf.text
    .slice(node.getStart(sf), node.getEnd())
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/[^\n]*/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s*;\s*}/g, " }")
    .replace(/{\s+/g, "{ ")
    .replace(/;$/, "")
    .trim();
}

/** The object type literal of a field's type, through `| null` and `[]`, if it has one. */
function typeLiteralIn(type) {
  if (ts.isTypeLiteralNode(type)) return type;
  if (ts.isArrayTypeNode(type)) return typeLiteralIn(type.elementType);
  if (ts.isParenthesizedTypeNode(type)) return typeLiteralIn(type.type);
  if (ts.isUnionTypeNode(type)) return type.types.map(typeLiteralIn).find(Boolean);
  return undefined;
}

/** Public members of a class, the fields of an interface, or the members of an object-literal
 * value such as `queryBuilder`. */
function membersOf(decl) {
  const out = [];
  const add = (node, symbol, signature) => {
    // An index signature has no symbol; its comment is read from the node.
    const own = ts.getTextOfJSDocComment(node.jsDoc?.[0]?.comment) ?? "";
    const d = symbol ? docsOf(symbol) : { summary: own, examples: [], internal: false };
    if (d.internal) return;
    // `override name = "..."` of every error class: noise in a reference.
    if (ts.isPropertyDeclaration(node) && ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Override && !d.summary)
      return;
    out.push({ name: node.name ? node.name.getText() : "constructor", signature, ...d });
  };
  if (ts.isClassDeclaration(decl)) {
    for (const member of decl.members) {
      if (!isPublicMember(member) || ts.isClassStaticBlockDeclaration(member) || ts.isSemicolonClassElement(member))
        continue;
      // The implementation of an overloaded method or constructor: its overloads are listed.
      const key = (m) => `${m.kind} ${m.name?.getText() ?? ""}`;
      if (
        (ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member)) &&
        member.body &&
        decl.members.some((m) => !m.body && key(m) === key(member))
      )
        continue;
      const symbol = member.name
        ? checker.getSymbolAtLocation(member.name)
        : checker.getSymbolAtLocation(decl.name)?.members?.get("__constructor");
      const first = symbol?.declarations?.[0] === member || !symbol;
      add(member, first ? symbol : undefined, memberSignature(member));
    }
  } else if (ts.isInterfaceDeclaration(decl) || ts.isTypeLiteralNode(decl)) {
    if (ts.isInterfaceDeclaration(decl)) out.push(...derivedFields(decl));
    for (const member of decl.members) {
      const symbol = member.name ? checker.getSymbolAtLocation(member.name) : undefined;
      add(member, symbol, withoutComments(member));
      // An inline object type (`image_url: { url; detail? }`): its fields, one level down.
      const literal = member.type && typeLiteralIn(member.type);
      if (literal) out.at(-1).fields = membersOf(literal);
    }
  } else if (ts.isVariableDeclaration(decl)) {
    for (const prop of objectInitializer(decl)?.properties ?? []) {
      const symbol = prop.name ? checker.getSymbolAtLocation(prop.name) : undefined;
      if (ts.isMethodDeclaration(prop)) add(prop, symbol, headText(prop, prop.body));
      else if (symbol) {
        const type = checker.getTypeOfSymbolAtLocation(symbol, prop);
        const sigs = type.getCallSignatures();
        const signature = sigs.length
          ? sigs.map((s) => `${symbol.name}${checker.signatureToString(s, prop)}`).join("\n")
          : `${symbol.name}: ${checker.typeToString(type, prop)}`;
        add(prop, symbol, signature);
      }
    }
  }
  return out;
}

/**
 * The shape object a request type is derived from (`interface X extends Fields<typeof xShape>`):
 * its fields are the type's, with their docs on the shape's properties.
 */
function shapeOf(decl) {
  const base = decl.heritageClauses?.[0]?.types[0];
  if (base?.expression.getText() !== "Fields") return undefined;
  const query = base.typeArguments?.[0];
  if (!query || !ts.isTypeQueryNode(query)) return undefined;
  // `Fields<typeof xShape>` or `Fields<typeof x.shape>` (x built from a literal shape).
  const name = ts.isQualifiedName(query.exprName) ? query.exprName.left : query.exprName;
  return shapeLiteral(checker.getSymbolAtLocation(name));
}

/** The fields an interface derives from its shape (none when it has no shape). */
function derivedFields(decl) {
  const shape = shapeOf(decl);
  return shape ? shapeFields(shape, checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(decl.name))) : [];
}

function shapeLiteral(symbol) {
  let init = initializerOf(symbol);
  // Through `.check(...)` to the object schema's call, and from it to its shape argument.
  while (init && ts.isCallExpression(init)) {
    const callee = init.expression;
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === "check") init = callee.expression;
    else init = init.arguments[0];
  }
  if (init && ts.isIdentifier(init)) return shapeLiteral(checker.getSymbolAtLocation(init));
  return init && ts.isObjectLiteralExpression(init) ? init : undefined;
}

const OBJECT_BUILDERS = new Set(["looseObject", "openObject", "strictObject", "object"]);

/** The object literal of the first object schema built in a field's initializer, if any. */
function nestedShape(node) {
  let found;
  const visit = (n) => {
    if (found) return;
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : "";
      const arg = n.arguments[0];
      if (OBJECT_BUILDERS.has(name) && arg && ts.isObjectLiteralExpression(arg)) {
        found = arg;
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** The object type among a field's input type (through `| null` and arrays), if any. */
function objectTypeIn(type) {
  if (type.isUnion()) return type.types.map(objectTypeIn).find(Boolean);
  if (checker.isArrayType(type)) return objectTypeIn(checker.getTypeArguments(type)[0]);
  return type.flags & ts.TypeFlags.Object && checker.getPropertiesOfType(type).length ? type : undefined;
}

/** The fields of a shape as the derived type has them: `name?: type` and the shape's docs. */
function shapeFields(literal, type) {
  const out = [];
  for (const prop of literal.properties) {
    if (ts.isSpreadAssignment(prop)) {
      out.push(...shapeFields(shapeLiteral(checker.getSymbolAtLocation(prop.expression)) ?? { properties: [] }, type));
      continue;
    }
    const name = prop.name?.getText();
    const field = name && type.getProperty(name);
    if (!field) continue;
    const optional = (field.flags & ts.SymbolFlags.Optional) !== 0;
    const fieldType = checker.getTypeOfSymbol(field);
    const written = checker
      .typeToString(fieldType, undefined, ts.TypeFormatFlags.NoTruncation)
      .replace(/ \| undefined(?=$|[;}\]),]| \|)/g, "")
      .replace(/^undefined \| /, "")
      .replace(/;\s*}/g, " }");
    const symbol = checker.getSymbolAtLocation(prop.name);
    const entry = { name, signature: `${name}${optional ? "?" : ""}: ${written}`, ...docsOf(symbol) };
    const nested = ts.isPropertyAssignment(prop) ? nestedShape(prop.initializer) : undefined;
    const inner = nested && objectTypeIn(fieldType);
    if (inner) entry.fields = shapeFields(nested, inner);
    out.push(entry);
  }
  return out;
}

/** The signature block of one declaration. */
function signatureOf(name, decl) {
  const sf = decl.getSourceFile();
  if (ts.isClassDeclaration(decl)) {
    const heritage = (decl.heritageClauses ?? []).map((h) => h.getText(sf)).join(" ");
    const abstract = ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.Abstract ? "abstract " : "";
    return `${abstract}class ${name}${decl.typeParameters ? `<${decl.typeParameters.map((p) => p.getText(sf)).join(", ")}>` : ""}${heritage ? ` ${heritage}` : ""}`;
  }
  if (ts.isFunctionDeclaration(decl)) return headText(decl, decl.body).replace(/^export\s+(default\s+)?/, "");
  if (ts.isInterfaceDeclaration(decl)) {
    // The fields are listed below with their docs; the block shows the shape at a glance.
    const head = sf.text
      .slice(decl.getStart(sf), decl.members.pos)
      .replace(/^export\s+/, "")
      .replace(/\s*\{$/, "");
    const fields = [...derivedFields(decl).map((f) => f.signature), ...decl.members.map(withoutComments)];
    const own = head.replace(/\s*extends Fields<typeof [\w$.]+>/, "");
    return [`${own} {`, ...fields.map((f) => `  ${f};`), "}"].join("\n");
  }
  if (ts.isTypeAliasDeclaration(decl) || ts.isEnumDeclaration(decl)) return decl.getText(sf).replace(/^export\s+/, "");
  if (ts.isVariableDeclaration(decl)) {
    if (decl.type) return `const ${name}: ${decl.type.getText(sf)}`;
    if (decl.initializer && ts.isIdentifier(decl.initializer)) return `const ${name} = ${decl.initializer.getText(sf)}`;
    const members = membersOf(decl);
    if (members.length) return `const ${name}: { ${members.map((m) => m.name).join(", ")} }`;
    return `const ${name}: ${shortType(checker.typeToString(checker.getTypeAtLocation(decl.name), decl))}`;
  }
  return decl.getText(sf);
}

/** A long inferred type (a zod schema's, say) cut to its outer name: `z.ZodMiniObject<…>`. */
function shortType(type) {
  if (type.length <= 120) return type;
  const generic = /^[\w.$]+</.exec(type);
  return generic ? `${generic[0]}…>` : `${type.slice(0, 117)}…`;
}

// ---------------------------------------------------------------------------------------------
// Pages, derived from the code

const srcDir = join(root, "src");

/** `training_jobs` or `training-jobs` → `training-jobs`: a page's file name. */
function pageSlug(name) {
  return name
    .replace(/\.browser$/, "")
    .replace(/[_\s]+/g, "-")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase();
}

/** `training-jobs` → `Training jobs`. */
function humanize(slug) {
  const words = slug.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The properties of an object literal, with those of a spread `...declaration` under them. */
function literalProps(node, depth = 0) {
  const props = new Map();
  if (!node || !ts.isObjectLiteralExpression(node) || depth > 4) return props;
  for (const prop of node.properties) {
    if (ts.isSpreadAssignment(prop)) {
      const target = ts.isIdentifier(prop.expression)
        ? initializerOf(checker.getSymbolAtLocation(prop.expression))
        : prop.expression;
      for (const [k, v] of literalProps(unwrap(target), depth + 1)) props.set(k, v);
    } else if (ts.isPropertyAssignment(prop) && prop.name && !ts.isComputedPropertyName(prop.name)) {
      const value = prop.initializer;
      props.set(prop.name.getText(), ts.isStringLiteralLike(value) ? value.text : undefined);
    }
  }
  return props;
}

/**
 * Every `endpoint({ operation, method, path, service, ... })` in the sources: by file, and by
 * folder (each folder holds the endpoints of the files in it and below it).
 */
function collectEndpoints() {
  const byFile = new Map();
  const all = [];
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(`${srcDir}/`) || sf.isDeclarationFile) continue;
    const visit = (node) => {
      if (ts.isCallExpression(node)) {
        const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
        // A GraphQL operation (`graphqlEndpoint`, W&B's API) is a POST to /graphql on `wandb`.
        const graphql = ts.isIdentifier(callee) && callee.text === "graphqlEndpoint";
        if (ts.isIdentifier(callee) && (callee.text === "endpoint" || graphql) && node.arguments.length === 1) {
          const props = literalProps(node.arguments[0]);
          const operation = props.get("operation");
          if (operation) {
            const ep = {
              operation,
              page: pageSlug(operation.split(".")[0]),
              method: graphql ? "POST" : props.get("method"),
              path: graphql ? `/graphql ${props.get("operationName") ?? ""}`.trim() : props.get("path"),
              service: graphql ? "wandb" : props.get("service"),
              file: sf.fileName,
            };
            all.push(ep);
            if (!byFile.has(sf.fileName)) byFile.set(sf.fileName, []);
            byFile.get(sf.fileName).push(ep);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { all, byFile };
}

const clientClass = program
  .getSourceFile(join(srcDir, "client.ts"))
  ?.statements.find((st) => ts.isClassDeclaration(st) && st.name?.text === "Inferloop");
if (!clientClass) throw new Error("src/client.ts: no class Inferloop");

/** Whether `client.<path>` is a member of the `Inferloop` class's type (src/client.ts). */
function clientHas(path) {
  let type = checker.getTypeAtLocation(clientClass);
  for (const name of path) {
    const prop = type.getProperty(name);
    if (!prop) return false;
    type = checker.getTypeOfSymbolAtLocation(prop, clientClass);
  }
  return true;
}

/** The page most of these endpoints are on (ties: the first by name). */
function commonPage(eps) {
  const count = new Map();
  for (const ep of eps) count.set(ep.page, (count.get(ep.page) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
}

const endpoints = collectEndpoints();

/**
 * The endpoint page of a file: its own endpoints', else those of the nearest folder above it
 * that has some, up to an area's folder (`src/wire/chat`), never a layer (`src/wire`).
 */
function endpointPageOfFile(fileName) {
  const own = endpoints.byFile.get(fileName);
  if (own) return commonPage(own);
  for (let dir = dirname(fileName); relative(srcDir, dir).split(/[\\/]/).length >= 2; dir = dirname(dir)) {
    const inside = endpoints.all.filter((ep) => ep.file.startsWith(`${dir}/`));
    if (inside.length) return commonPage(inside);
  }
  return undefined;
}

/**
 * The endpoint page of a namespace class's file (`src/namespaces/<ns>.ts`): the page most of the
 * wire modules it imports are on (the endpoints it calls, the shapes it takes).
 */
function endpointPageOfImports(fileName) {
  const sf = program.getSourceFile(fileName);
  const count = new Map();
  for (const statement of sf?.statements ?? []) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const target = resolve(dirname(fileName), statement.moduleSpecifier.text).replace(/\.js$/, ".ts");
    const page = endpointPageOfFile(target);
    if (page) count.set(page, (count.get(page) ?? 0) + 1);
  }
  return [...count].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0]?.[0];
}

/**
 * The page of an export's module folder: `src/<area>/<folder>/…` → folder, `src/<area>/<file>.ts`
 * → file.
 */
function folderPageOf(fileName) {
  const parts = relative(srcDir, fileName).split(/[\\/]/);
  if (parts.length === 1 || parts[0] === "core") return CLIENT_PAGE;
  if (parts.length === 2) return pageSlug(parts[1].replace(/\.tsx?$/, ""));
  return pageSlug(parts[1]);
}

function pageOf(entry, decl) {
  if (!entry.main) return entry.slug;
  const fileName = decl.getSourceFile().fileName;
  if (relative(srcDir, fileName).split(/[\\/]/)[0] === "core") return CLIENT_PAGE;
  const inNamespaces = relative(srcDir, fileName).split(/[\\/]/)[0] === "namespaces";
  return (
    endpointPageOfFile(fileName) ??
    (inNamespaces ? endpointPageOfImports(fileName) : undefined) ??
    folderPageOf(fileName)
  );
}

/** The title of a page of the main entry. */
function pageTitle(page) {
  return page === CLIENT_PAGE ? CLIENT_TITLE : humanize(page);
}

/** The declaring file, relative to the repository (a link target: never a line). */
function fileOf(decl) {
  return relative(root, decl.getSourceFile().fileName).split(/[\\/]/).join("/");
}

/** File and line, for the console report of gaps only. */
function where(decl) {
  const sf = decl.getSourceFile();
  const { line } = sf.getLineAndCharacterOfPosition(decl.getStart(sf));
  return `${fileOf(decl)}:${line + 1}`;
}

/** Every export of an entry, resolved to its declarations and docs. */
function collect(entry) {
  const sf = program.getSourceFile(join(root, entry.file));
  if (!sf) throw new Error(`cannot read ${entry.file}`);
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(sf));
  const items = [];
  for (const exported of exports) {
    const symbol = resolveAlias(exported);
    const decls = (symbol.declarations ?? []).filter((d) => !ts.isSourceFile(d));
    if (decls.length === 0) continue;
    // `export { Inferloop as default }`: documented under its own name.
    if (exported.name === "default" && exports.some((e) => e.name !== "default" && resolveAlias(e) === symbol))
      continue;
    const kinds = decls.map(kindOf);
    items.push({
      name: exported.name,
      kind: KIND_ORDER.find((k) => kinds.includes(k)) ?? kinds[0],
      decls,
      docs: docsOf(symbol),
      page: pageOf(entry, decls[0]),
      file: fileOf(decls[0]),
      where: where(decls[0]),
      typeOnly: !(symbol.flags & ts.SymbolFlags.Value),
    });
  }
  return items.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.name.localeCompare(b.name));
}

// ---------------------------------------------------------------------------------------------
// Markdown

const known = new Map(); // export name -> page file, for {@link} targets

function slug(name) {
  return name.toLowerCase().replace(/[^a-z0-9_-]/g, "");
}

/** `{@link X}`, `{@link X.y}`, `{@link X | label}` → a link when X is documented, else code. */
function links(s, fromPage) {
  return s.replace(/\{@link(?:code|plain)?\s+([^}|\s]+)(?:\s*\|?\s*([^}]*))?\}/g, (_, target, label) => {
    const base = target.split(/[.#]/)[0];
    const shown = label?.trim() || target;
    const page = known.get(base);
    if (!page) return `\`${shown}\``;
    return `[\`${shown}\`](${page === fromPage ? "" : page}#${slug(base)})`;
  });
}

function renderItem(item, page) {
  const lines = [];
  const badge = item.typeOnly && item.kind !== "interface" && item.kind !== "type" ? " (type only)" : "";
  lines.push(`### \`${item.name}\``, "");
  lines.push(`*${item.kind}${badge}* · \`${item.name}\` in [${item.file}](../../${item.file})`, "");
  const signatures = [...new Set(item.decls.map((d) => signatureOf(item.name, d)))];
  lines.push("```ts", ...signatures, "```", "");
  if (item.docs.deprecated) lines.push(`> **Deprecated.** ${item.docs.deprecated}`, "");
  if (item.docs.summary) lines.push(links(item.docs.summary, page), "");
  for (const ex of item.docs.examples) lines.push("**Example**", "", ex, "");

  const listed = item.kind === "class" || item.kind === "const" || item.kind === "interface";
  const members = listed ? item.decls.flatMap(membersOf) : [];
  if (members.length) {
    lines.push(item.kind === "interface" ? "#### Fields" : "#### Members", "");
    const field = (m, indent) => {
      const deprecated = m.deprecated ? `**Deprecated:** ${m.deprecated} ` : "";
      const doc = `${deprecated}${m.summary ? links(m.summary, page) : ""}`.replace(/\s*\n\s*/g, " ").trim();
      lines.push(`${indent}- \`${m.signature}\`${doc ? `: ${doc}` : ""}`);
      for (const f of m.fields ?? []) field(f, `${indent}  `);
    };
    for (const m of members) {
      const oneLine = !m.signature.includes("\n") && !m.signature.includes("`") && m.examples.length === 0;
      if (oneLine) {
        field(m, "");
        continue;
      }
      lines.push("", "```ts", m.signature, "```", "");
      if (m.summary) lines.push(links(m.summary, page), "");
      for (const ex of m.examples) lines.push(ex, "");
    }
    lines.push("");
  }
  return lines.join("\n");
}

/** The endpoints of a page, as declared: the client method each operation names, and its route. */
function renderEndpoints(eps) {
  if (!eps.length) return [];
  // The method an operation is named after, when the client has it (`client.chat.completions.create`);
  // an operation that is one step of a method (the GraphQL calls of `client.artifacts.upload`)
  // has none of its own.
  const method = (operation) => {
    const parts = operation.split(".").map((part) => part.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()));
    return clientHas(parts) ? `\`client.${parts.join(".")}\`` : "(a step of another method)";
  };
  const out = ["## Endpoints", "", "| Operation | Client method | HTTP | Service |", "|---|---|---|---|"];
  for (const ep of [...eps].sort((a, b) => a.operation.localeCompare(b.operation)))
    out.push(
      `| \`${ep.operation}\` | ${method(ep.operation)} | ${ep.method && ep.path ? `\`${ep.method} ${ep.path}\`` : ""} | ${ep.service ?? ""} |`,
    );
  out.push("");
  return out;
}

function renderPage({ title, entry, items, file, eps }) {
  const out = [
    `# ${title}`,
    "",
    `Generated by \`npm run docs\` from the TSDoc in the source; do not edit. Import from \`${entry.specifier}\`.`,
    "",
    ...renderEndpoints(eps),
  ];
  for (const kind of KIND_ORDER) {
    const group = items.filter((i) => i.kind === kind);
    if (!group.length) continue;
    out.push(`## ${KIND_TITLE[kind]}`, "");
    for (const item of group) out.push(renderItem(item, file), "");
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}

function firstSentence(s) {
  const flat = s.replace(/\s+/g, " ").trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  return (m ? m[1] : flat).replace(/\|/g, "\\|");
}

// ---------------------------------------------------------------------------------------------
// Main

const entries = ENTRIES.map((entry) => ({ entry, items: collect(entry) }));
const endpointPages = new Set(endpoints.all.map((ep) => ep.page));
/** Client first, then one page per endpoint namespace, then the helpers' pages; by name within each. */
const pageRank = (page) => (page === CLIENT_PAGE ? 0 : endpointPages.has(page) ? 1 : 2);
const pages = [];
for (const { entry, items } of entries) {
  const pageNames = [...new Set(items.map((i) => i.page))].sort(
    (a, b) => pageRank(a) - pageRank(b) || a.localeCompare(b),
  );
  for (const page of pageNames) {
    const file = `${page}.md`;
    if (pages.some((p) => p.file === file))
      throw new Error(`docs/api/${file}: two entry points' pages share this name; rename a folder or an entry slug`);
    const title = entry.main ? `\`${entry.specifier}\`: ${pageTitle(page)}` : `\`${entry.specifier}\``;
    const eps = entry.main ? endpoints.all.filter((ep) => ep.page === page) : [];
    pages.push({ entry, page, file, title, eps, items: items.filter((i) => i.page === page) });
    for (const i of items) if (i.page === page && !known.has(i.name)) known.set(i.name, file);
  }
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
for (const p of pages) writeFileSync(join(outDir, p.file), `${renderPage(p)}\n`);

const index = ["# API reference", "", "Generated by `npm run docs` from the TSDoc in the source; do not edit.", ""];
for (const { entry } of entries) {
  index.push(`## \`${entry.specifier}\``, "");
  for (const p of pages.filter((p) => p.entry === entry)) {
    index.push(
      `### [${p.title.replace(/^`[^`]+`: /, "")}](${p.file})`,
      "",
      "| Export | Kind | Summary |",
      "|---|---|---|",
    );
    for (const i of p.items)
      index.push(
        `| [\`${i.name}\`](${p.file}#${slug(i.name)}) | ${i.kind} | ${firstSentence(links(i.docs.summary, ""))} |`,
      );
    index.push("");
  }
}
writeFileSync(join(outDir, "index.md"), index.join("\n"));

// Gaps: a public export of an entry that requires examples without TSDoc, or a thing users
// call without an @example.

/** Whether a class has an ancestor of this name (`Error`, `APIResource`). */
function descendsFrom(decl, name) {
  const seen = new Set();
  for (let type = checker.getTypeAtLocation(decl); type && !seen.has(type); type = checker.getBaseTypes(type)?.[0]) {
    seen.add(type);
    if (type.symbol?.name === name) return true;
  }
  return false;
}

const callable = (node) => checker.getTypeAtLocation(node).getCallSignatures().length > 0;

/** The names of the members of the interfaces a class `implements`. */
function implementedNames(decl) {
  const names = new Set();
  for (const clause of decl.heritageClauses ?? []) {
    if (clause.token !== ts.SyntaxKind.ImplementsKeyword) continue;
    for (const type of clause.types)
      for (const p of checker.getPropertiesOfType(checker.getTypeAtLocation(type))) names.add(p.name);
  }
  return names;
}

/**
 * What of an export users call, each `{ name, example, where }` (`example`: whether it has one):
 * the export itself when it is a function, a class other than an error class, or a value that is
 * a function or an object of functions; and the public methods of such a class or object.
 */
function calledParts(item) {
  const decl = item.decls[0];
  const own = (node) => (node.jsDoc ?? []).some((d) => (d.tags ?? []).some((t) => t.tagName.text === "example"));
  const part = (name, example, node) => ({
    name: `${item.name}${name}`,
    example,
    where: node ? where(node) : item.where,
  });
  const whole = part("", item.docs.examples.length > 0);
  if (item.kind === "function") return [whole];
  if (item.kind === "class") {
    if (descendsFrom(decl, "Error")) return [];
    // A namespace class is never constructed by users: its methods' examples show it.
    const parts = descendsFrom(decl, "APIResource") ? [] : [whole];
    const implemented = implementedNames(decl);
    for (const member of decl.members) {
      if (!ts.isMethodDeclaration(member) || !isPublicMember(member)) continue;
      const flags = ts.getCombinedModifierFlags(member);
      if (flags & ts.ModifierFlags.Override || implemented.has(member.name.getText())) continue;
      const symbol = checker.getSymbolAtLocation(member.name);
      if (symbol && docsOf(symbol).internal) continue;
      // An overloaded method: the example may sit on any of its declarations.
      const decls = symbol?.declarations ?? [member];
      if (decls[0] !== member) continue;
      parts.push(part(`.${member.name.getText()}`, decls.some(own), member));
    }
    return parts;
  }
  if (item.kind === "const") {
    const object = objectInitializer(decl);
    const methods = object ? object.properties.filter((p) => p.name && callable(p.name)) : [];
    if (methods.length === 0) return callable(decl.name) ? [whole] : [];
    // A shorthand member (`{ field }`) is documented where its function is declared.
    const documented = (p) =>
      own(p) ||
      (ts.isShorthandPropertyAssignment(p) &&
        (checker.getShorthandAssignmentValueSymbol(p)?.declarations ?? []).some((d) =>
          own(ts.isVariableDeclaration(d) ? d.parent.parent : d),
        ));
    return [whole, ...methods.map((p) => part(`.${p.name.getText()}`, documented(p), p))];
  }
  return [];
}

const gaps = [];
for (const { entry, items } of entries)
  for (const i of items) {
    if (!i.docs.summary) gaps.push({ entry: entry.specifier, name: i.name, where: i.where, missing: "TSDoc" });
    for (const part of calledParts(i))
      if (!part.example) gaps.push({ entry: entry.specifier, name: part.name, where: part.where, missing: "@example" });
  }

const total = entries.reduce((n, e) => n + e.items.length, 0);
console.log(`docs/api: ${pages.length + 1} pages, ${total} exports from ${ENTRIES.length} entry points.`);
if (gaps.length) {
  const log = failOnGaps ? console.error : console.log;
  log(`\n${gaps.length} gap(s): public exports without TSDoc, or functions, classes and methods without an @example:`);
  const width = Math.max(...gaps.map((g) => `${g.entry} ${g.name}`.length));
  for (const g of gaps) log(`  ${`${g.entry} ${g.name}`.padEnd(width)}  missing ${g.missing.padEnd(20)} ${g.where}`);
  if (failOnGaps) process.exit(1);
}
