// Build step of the shipped declarations (rollup.dts.config.mjs). In the source a request type
// is derived from its zod shape, `interface X extends Fields<typeof xShape> {}`, so each field
// is written once, with its doc, on the shape. Shipped as is, every shape would also carry its
// zod types (`z.ZodMiniOptional<z.ZodMiniNullable<...>>` per field) into `index.d.ts`. This
// step writes each such interface out as plain members, with the docs of the shape's
// properties (nested objects too), and drops the shapes no declaration needs any more: users
// get the same named interfaces, field docs and exactness as the source, without the zod noise.
// The members are read from the TypeScript checker, so they are what the source derives.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "@typescript/typescript6";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const PRINT = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

let expanded;

/**
 * Returns `code` (a bundled declaration file) with every `interface X extends Fields<...>`
 * written out member by member, and the schemas and `Fields` no longer referenced removed.
 */
export function flattenShapes(code) {
  if (!/extends Fields(\$\d+)?</.test(code)) return code;
  expanded ??= expandSourceInterfaces();
  const sf = ts.createSourceFile("index.d.ts", code, ts.ScriptTarget.Latest, true);
  const edits = [];
  for (const st of sf.statements) {
    if (!ts.isInterfaceDeclaration(st)) continue;
    const base = st.heritageClauses?.[0]?.types[0];
    if (!base || !/^Fields(\$\d+)?$/.test(base.expression.getText(sf))) continue;
    const written = expanded.get(st.name.text);
    if (!written) throw new Error(`flatten-shapes: no source interface ${st.name.text}`);
    edits.push({ pos: st.getStart(sf), end: st.end, text: written });
  }
  let out = code;
  for (const e of edits.sort((a, b) => b.pos - a.pos)) out = out.slice(0, e.pos) + e.text + out.slice(e.end);
  return dropUnused(out);
}

// Every derived interface of the source, written out: name -> declaration text. Read from the
// source rather than the bundled declarations, where zod's signatures have already dropped the
// docs of nested shapes.
function expandSourceInterfaces() {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(root, "tsconfig.build.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  const program = ts.createProgram([resolve(root, "src/index.ts")], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const out = new Map();
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || !sf.fileName.includes("/src/")) continue;
    for (const st of sf.statements) {
      if (!ts.isInterfaceDeclaration(st)) continue;
      const base = st.heritageClauses?.[0]?.types[0];
      if (base?.expression.getText(sf) !== "Fields") continue;
      if (st.heritageClauses.length !== 1 || st.heritageClauses[0].types.length !== 1)
        throw new Error(`flatten-shapes: ${st.name.text} extends more than its shape`);
      out.set(st.name.text, writeInterface(checker, sf, st));
    }
  }
  return out;
}

function writeInterface(checker, sf, st) {
  const code = sf.text;
  const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(st.name));
  const own = new Set(st.members.map((m) => m.name?.getText(sf)).filter(Boolean));
  const lines = [];
  for (const prop of checker.getPropertiesOfType(type)) {
    if (!own.has(prop.name)) lines.push(...member(prop, "    "));
  }
  for (const m of st.members) lines.push(...withDoc(m, "    "));
  const params = st.typeParameters ? `<${st.typeParameters.map((p) => p.getText(sf)).join(", ")}>` : "";
  return `interface ${st.name.text}${params} {\n${lines.join("\n")}\n}`;

  // A member written in the interface's own body, with its doc comment.
  function withDoc(node, indent) {
    const lead = code.slice(node.getFullStart(), node.getStart(sf)).trim();
    const doc =
      lead === "" ? [] : lead.split("\n").map((l, i) => (i === 0 ? indent + l.trim() : `${indent} ${l.trim()}`));
    return [...doc, indent + code.slice(node.getStart(sf), node.end).replace(/\n\s*/g, " ")];
  }

  function docOf(prop, indent) {
    for (const decl of prop.declarations ?? []) {
      const dsf = decl.getSourceFile();
      const ranges = ts.getLeadingCommentRanges(dsf.text, decl.getFullStart()) ?? [];
      const docs = ranges.filter((r) => dsf.text.startsWith("/**", r.pos));
      if (docs.length === 0) continue;
      const last = docs[docs.length - 1];
      return dsf.text
        .slice(last.pos, last.end)
        .split("\n")
        .map((l, i) => (i === 0 ? indent + l.trim() : `${indent} ${l.trim()}`));
    }
    // A member read through an intersection (a loose object's) has no declaration of its own
    // that carries the comment; the checker still finds its documentation.
    const doc = ts.displayPartsToString(prop.getDocumentationComment(checker));
    return doc === "" ? [] : [`${indent}/** ${doc.replace(/\n/g, `\n${indent} * `)} */`];
  }

  function member(prop, indent) {
    const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
    const t = checker.getTypeOfSymbol(prop);
    const whole = checker.typeToString(t, undefined, PRINT);
    // As the checker writes it where it can (`ReasoningEffort | null` keeps its alias). An
    // optional field keeps `| undefined`: zod's input type has it, so under
    // `exactOptionalPropertyTypes` the shipped type accepts what the source type accepts (a
    // `Trajectory` whose reward is not set yet is a `TrajectoryParams`).
    if (!whole.includes("{")) return [...docOf(prop, indent), `${indent}${key(prop)}${optional ? "?" : ""}: ${whole};`];
    return [...docOf(prop, indent), `${indent}${key(prop)}${optional ? "?" : ""}: ${print(t, indent)};`];
  }

  function key(prop) {
    return /^[A-Za-z_$][\w$]*$/.test(prop.name) ? prop.name : JSON.stringify(prop.name);
  }

  // A type as the checker writes it, except anonymous objects, which are written member by
  // member so their members keep their docs.
  function print(t, indent) {
    const s = checker.typeToString(t, undefined, PRINT);
    if (!s.includes("{")) return s;
    if (t.flags & ts.TypeFlags.Union) return printUnion(t.types, indent);
    if (checker.isArrayType(t)) {
      const [el] = checker.getTypeArguments(t);
      const inner = print(el, indent);
      return el.flags & ts.TypeFlags.Union ? `(${inner})[]` : `${inner}[]`;
    }
    if (t.flags & ts.TypeFlags.Object && s.startsWith("{")) {
      const inner = `${indent}    `;
      const lines = [];
      for (const p of checker.getPropertiesOfType(t)) lines.push(...member(p, inner));
      for (const info of checker.getIndexInfosOfType(t))
        lines.push(
          `${inner}[key: ${checker.typeToString(info.keyType)}]: ${checker.typeToString(info.type, undefined, PRINT)};`,
        );
      return `{\n${lines.join("\n")}\n${indent}}`;
    }
    return s;
  }

  function printUnion(types, indent) {
    // Written as the checker would (`boolean` for true | false), objects member by member.
    const plain = types.filter((m) => !checker.typeToString(m, undefined, PRINT).includes("{"));
    const objects = types.filter((m) => !plain.includes(m));
    const parts = objects.map((m) => print(m, indent));
    const bools = plain.filter((m) => m.flags & ts.TypeFlags.BooleanLiteral);
    const rest = plain.filter((m) => !(m.flags & ts.TypeFlags.BooleanLiteral));
    const written = rest.map((m) => checker.typeToString(m, undefined, PRINT));
    if (bools.length === 2) written.push("boolean");
    else written.push(...bools.map((m) => checker.typeToString(m)));
    const order = (s) => (s === "null" ? 2 : s === "undefined" ? 3 : 0);
    return [...parts, ...written.sort((a, b) => order(a) - order(b))].join(" | ");
  }
}

// Removes the shapes and schemas built for a derived type (`declare const xShape`, `declare
// const x: z.ZodMini...`, only ever referenced as `typeof x`) and `Fields`, once no declaration
// refers to them.
function dropUnused(code) {
  let out = code;
  for (;;) {
    const sf = ts.createSourceFile("x.d.ts", out, ts.ScriptTarget.Latest, true);
    const bare = out.replace(/\/\*[\s\S]*?\*\//g, "");
    const exported = new Set(
      [...bare.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) =>
        m[1].split(",").map((n) =>
          n
            .trim()
            .replace(/^type /, "")
            .split(" as ")[0]
            .trim(),
        ),
      ),
    );
    const literal = (name) => name.replace(/\$/g, "\\$");
    const drop = sf.statements.filter((st) => {
      if (ts.isVariableStatement(st) && st.declarationList.declarations.length === 1) {
        const name = st.declarationList.declarations[0].name.getText(sf);
        const schema =
          /Shape(\$\d+)?$/.test(name) || /^declare const [\w$]+: z\./.test(out.slice(st.getStart(sf), st.end));
        if (exported.has(name) || !schema) return false;
        return !new RegExp(`typeof ${literal(name)}(?![\\w$])`).test(bare);
      }
      if (ts.isTypeAliasDeclaration(st) && /^Fields(\$\d+)?$/.test(st.name.text))
        return (bare.match(new RegExp(`(?<![\\w$])${literal(st.name.text)}<`, "g")) ?? []).length <= 1;
      return false;
    });
    if (drop.length === 0) return out;
    for (const st of drop.sort((a, b) => b.pos - a.pos)) out = out.slice(0, st.getFullStart()) + out.slice(st.end);
  }
}

/**
 * Indents a declaration file by two spaces a level instead of the four the declaration emitter
 * writes (a doc comment's ` *` keeps its one extra space): the same text, a few KB fewer.
 */
export function twoSpaceIndent(code) {
  return code.replace(/^ +/gm, (lead) => " ".repeat(Math.floor(lead.length / 4) * 2 + (lead.length % 4)));
}
