/**
 * The fake model's tool-call arguments: a value that satisfies the tool's JSON Schema, drawn the
 * way a sampling model would pick among the values it finds likely.
 *
 * - Satisfied: `type` (a list of types too), `const`, `enum`, `anyOf` / `oneOf` (one branch),
 *   `allOf` (merged), `$ref` into the schema itself (`#/$defs/...`, `#/definitions/...`),
 *   `required` and optional `properties`, `dependentRequired`, `minProperties` /
 *   `maxProperties`, `items` / `prefixItems` with `minItems` / `maxItems` / `uniqueItems`,
 *   `minimum` / `maximum` / `exclusiveMinimum` / `exclusiveMaximum` (draft 4's booleans too) /
 *   `multipleOf`, and `minLength` / `maxLength` / `format` / `pattern` for strings (a pattern
 *   is met by trying likely strings: one none of them matches can stay unmet, as a real
 *   model's can).
 * - Likely values: what the user message mentions comes first. An enum value the message
 *   contains, the message's numbers in order (one per numeric argument), its capitalized words
 *   other than the first and the tool's name, then its other words; then fixed defaults
 *   (42, 3.5, true, "example").
 * - Greedy (no `seed`, or `temperature` 0): the most likely value everywhere and every optional
 *   property, so the same request always calls the same way. Sampled (a `seed`): at each choice
 *   the most likely value with probability 1 / (1 + temperature), else any of the candidates;
 *   optional properties are each left out one time in five. Deterministic for the same seed.
 *
 * @module
 */

/**
 * Where a draw of arguments comes from.
 */
export interface ArgumentDraw {
  /** The user message the call answers: the values it mentions are the likely ones. */
  text: string;
  /** The tool's name (never taken as a string argument). */
  toolName: string;
  /** The draws of a sampled call; undefined for a greedy one. */
  random: (() => number) | undefined;
  /** The request's temperature (1 when absent, as vLLM samples). */
  temperature: number;
}

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;
const STRING_FORMATS: Record<string, string[]> = {
  "date-time": ["2025-03-18T17:04:12Z", "2024-11-02T08:30:00Z"],
  date: ["2025-03-18", "2024-11-02"],
  time: ["17:04:12Z", "08:30:00Z"],
  duration: ["P1D", "PT2H"],
  email: ["ada@example.com", "sam@example.org"],
  "idn-email": ["ada@example.com"],
  hostname: ["example.com", "api.example.org"],
  "idn-hostname": ["example.com"],
  ipv4: ["192.0.2.1", "198.51.100.7"],
  ipv6: ["2001:db8::1", "2001:db8::2"],
  uri: ["https://example.com/", "https://example.org/docs"],
  "uri-reference": ["/docs", "https://example.com/"],
  iri: ["https://example.com/"],
  "iri-reference": ["/docs"],
  url: ["https://example.com/"],
  uuid: ["7b0e2a5c-3f4d-4e8a-9b1c-2d3e4f5a6b7c", "0f8fad5b-d9cb-469f-a165-70867728950e"],
  "json-pointer": ["/a/0"],
  regex: ["^a+$"],
};
const FALLBACK_STRINGS = ["example", "a", "A", "0", "abc", "ABC", "a1", "x-1", "12345", "hello world"];

const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const round = (x: number) => Math.round(x * 100) / 100;

/**
 * Arguments for a call of a tool with these `parameters`.
 *
 * @example
 * ```ts
 * const args = toolArguments(
 *   { type: "object", properties: { op: { enum: ["+", "*"] } } },
 *   { text: "12 * 7", toolName: "calc", random: undefined, temperature: 1 },
 * ); // { op: "*" }
 * ```
 */
export function toolArguments(parameters: unknown, draw: ArgumentDraw): Record<string, unknown> {
  const root = isSchema(parameters) ? parameters : {};
  // Arguments are an object whatever the schema leaves unsaid.
  const value = new Drawer(root, draw).value("type" in root ? root : { ...root, type: "object" }, 0);
  return isSchema(value) ? value : {};
}

/**
 * A value of any JSON Schema (a `response_format`'s), drawn as tool arguments are.
 *
 * @example
 * ```ts
 * schemaValue({ type: "array", items: { type: "integer" }, minItems: 2 }, { text: "3 and 4", toolName: "", random: undefined, temperature: 1 });
 * // [3, 4]
 * ```
 */
export function schemaValue(schema: unknown, draw: ArgumentDraw): unknown {
  const root = isSchema(schema) ? schema : {};
  return new Drawer(root, draw).value(root, 0);
}

class Drawer {
  private numberCursor = 0;
  private readonly numbers: number[];
  private readonly words: string[];

  constructor(
    private readonly root: Schema,
    private readonly draw: ArgumentDraw,
  ) {
    this.numbers = (draw.text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
    const tool = draw.toolName.toLowerCase();
    const first = draw.text.split(/\s+/)[0];
    const all = draw.text.match(/[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]/g) ?? [];
    const capitalized = all.filter((w) => /^[A-Z][a-zA-Z]+$/.test(w) && w !== first && w.toLowerCase() !== tool);
    const rest = all.filter((w) => w.length >= 3 && w.toLowerCase() !== tool);
    this.words = [...new Set([...capitalized, ...rest])];
  }

  /** The most likely candidate (greedy), or a sampled one; never one of `avoid` when others remain. */
  private pick<T>(candidates: readonly T[], avoid?: ReadonlySet<string>): T {
    const open = avoid === undefined ? candidates : candidates.filter((c) => !avoid.has(JSON.stringify(c)));
    const list = open.length > 0 ? open : candidates;
    const random = this.draw.random;
    if (random === undefined || list.length === 1) return list[0]!;
    if (random() < 1 / (1 + Math.max(0, this.draw.temperature))) return list[0]!;
    return list[Math.floor(random() * list.length)]!;
  }

  private chance(p: number): boolean {
    return this.draw.random === undefined ? true : this.draw.random() < p;
  }

  /** The schema with its `$ref` followed (siblings kept) and its `allOf` merged in. */
  private resolve(schema: Schema): Schema {
    let s = schema;
    for (let hops = 0; typeof s["$ref"] === "string" && hops < 16; hops++) {
      const { $ref, ...siblings } = s;
      const target = this.pointer($ref as string);
      if (target === undefined) return siblings;
      s = { ...target, ...siblings };
    }
    if (Array.isArray(s["allOf"])) {
      const { allOf, ...rest } = s;
      let merged: Schema = rest;
      for (const part of allOf as unknown[]) if (isSchema(part)) merged = merge(merged, this.resolve(part));
      s = merged;
    }
    return s;
  }

  private pointer(ref: string): Schema | undefined {
    if (!ref.startsWith("#")) return undefined;
    let node: unknown = this.root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      node = isSchema(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
    }
    return isSchema(node) ? node : node === true ? {} : undefined;
  }

  value(input: unknown, depth: number, avoid?: ReadonlySet<string>): unknown {
    if (input === false || depth > MAX_DEPTH * 2) return null;
    const s = this.resolve(isSchema(input) ? input : {});
    if ("const" in s) return s["const"];
    if (Array.isArray(s["enum"]) && s["enum"].length > 0) return this.pick(this.rankEnum(s["enum"]), avoid);
    const branches = (Array.isArray(s["anyOf"]) ? s["anyOf"] : Array.isArray(s["oneOf"]) ? s["oneOf"] : []).filter(
      isSchema,
    );
    if (branches.length > 0) {
      const { anyOf: _a, oneOf: _o, ...rest } = s;
      // A null branch is the least likely: a model fills the value in when it can.
      const ordered = [
        ...branches.filter((b) => b["type"] !== "null"),
        ...branches.filter((b) => b["type"] === "null"),
      ];
      // Deep in a recursive schema, the branch without a $ref ends the recursion.
      const chosen =
        depth >= MAX_DEPTH ? (ordered.find((b) => b["$ref"] === undefined) ?? ordered[0]!) : this.pick(ordered);
      return this.value(merge(rest, this.resolve(chosen)), depth + 1, avoid);
    }
    switch (this.typeOf(s)) {
      case "null":
        return null;
      case "boolean":
        return this.pick([true, false], avoid);
      case "integer":
        return this.number(s, true, avoid);
      case "number":
        return this.number(s, false, avoid);
      case "array":
        return this.array(s, depth);
      case "object":
        return this.object(s, depth);
      default:
        return this.string(s, avoid);
    }
  }

  private typeOf(s: Schema): string {
    const type = s["type"];
    if (typeof type === "string") return type;
    if (Array.isArray(type) && type.length > 0) {
      const types = type.filter((t): t is string => typeof t === "string");
      return this.pick([...types.filter((t) => t !== "null"), ...types.filter((t) => t === "null")]);
    }
    if (s["properties"] !== undefined || s["required"] !== undefined || s["additionalProperties"] !== undefined)
      return "object";
    if (s["items"] !== undefined || s["prefixItems"] !== undefined || s["minItems"] !== undefined) return "array";
    if (["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].some((k) => k in s))
      return "number";
    return "string";
  }

  private rankEnum(values: unknown[]): unknown[] {
    const text = this.draw.text.toLowerCase();
    const mentioned = values.filter((v) => typeof v === "string" && v !== "" && text.includes(v.toLowerCase()));
    return [...mentioned, ...values.filter((v) => !mentioned.includes(v))];
  }

  object(s: Schema, depth: number): Record<string, unknown> {
    const properties = isSchema(s["properties"]) ? s["properties"] : {};
    const required = Array.isArray(s["required"])
      ? s["required"].filter((k): k is string => typeof k === "string")
      : [];
    const names = [...new Set([...Object.keys(properties), ...required])];
    const keep = new Set(names.filter((k) => required.includes(k) || (depth < MAX_DEPTH && this.chance(0.8))));
    const dependent = isSchema(s["dependentRequired"]) ? s["dependentRequired"] : {};
    for (const k of [...keep])
      for (const d of Array.isArray(dependent[k]) ? dependent[k] : []) if (typeof d === "string") keep.add(d);
    const min = num(s["minProperties"]) ?? 0;
    const max = num(s["maxProperties"]) ?? Infinity;
    for (const k of names) if (keep.size < min) keep.add(k);
    for (const k of [...names].reverse()) if (keep.size > max && !required.includes(k)) keep.delete(k);
    const out: Record<string, unknown> = {};
    for (const k of names) if (keep.has(k)) out[k] = this.value(properties[k], depth + 1);
    return out;
  }

  private array(s: Schema, depth: number): unknown[] {
    // 2020-12 writes a tuple as prefixItems (then items); drafts 4 to 2019-09 as items (then additionalItems).
    const tuple = Array.isArray(s["prefixItems"]);
    const prefix = (tuple ? s["prefixItems"] : Array.isArray(s["items"]) ? s["items"] : []) as unknown[];
    const rest = tuple ? s["items"] : Array.isArray(s["items"]) ? s["additionalItems"] : s["items"];
    const min = num(s["minItems"]) ?? 0;
    let max = num(s["maxItems"]) ?? Infinity;
    if (rest === false) max = Math.min(max, prefix.length);
    const greedy = Math.max(min, Math.min(max, Math.max(1, prefix.length)));
    const upper = Math.min(max, min + 3);
    const random = this.draw.random;
    const length =
      depth >= MAX_DEPTH ? min : random === undefined ? greedy : min + Math.floor(random() * (upper - min + 1));
    const out: unknown[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < length; i++) {
      const item = this.value(
        i < prefix.length ? prefix[i] : rest,
        depth + 1,
        s["uniqueItems"] === true ? seen : undefined,
      );
      if (s["uniqueItems"] === true && seen.has(JSON.stringify(item))) {
        if (out.length >= min) break;
      }
      seen.add(JSON.stringify(item));
      out.push(item);
    }
    return out;
  }

  private number(s: Schema, integer: boolean, avoid?: ReadonlySet<string>): number {
    const exMin = s["exclusiveMinimum"];
    const exMax = s["exclusiveMaximum"];
    // Draft 4 writes an exclusive bound as a boolean beside minimum / maximum.
    const lo = num(exMin) ?? num(s["minimum"]);
    const loOpen = num(exMin) !== undefined || (exMin === true && lo !== undefined);
    const hi = num(exMax) ?? num(s["maximum"]);
    const hiOpen = num(exMax) !== undefined || (exMax === true && hi !== undefined);
    const step = num(s["multipleOf"]) ?? (integer ? 1 : undefined);
    const valid = (x: number) =>
      Number.isFinite(x) &&
      (!integer || Number.isInteger(x)) &&
      (lo === undefined || (loOpen ? x > lo : x >= lo)) &&
      (hi === undefined || (hiOpen ? x < hi : x <= hi)) &&
      (step === undefined || Math.abs(x / step - Math.round(x / step)) < 1e-9);
    const candidates: number[] = [];
    const mentioned = this.numbers[this.numberCursor++];
    if (mentioned !== undefined) candidates.push(mentioned);
    candidates.push(integer ? 42 : 3.5);
    const low = lo ?? (hi !== undefined ? hi - 100 : 0);
    const high = hi ?? low + 100;
    if (step !== undefined) {
      let first = Math.ceil(low / step) * step;
      if (!valid(first)) first += step;
      let last = Math.floor(high / step) * step;
      if (!valid(last)) last -= step;
      const count = Math.floor((last - first) / step + 1e-9) + 1;
      const spread = [0, Math.floor(count / 2), count - 1, Math.floor(count / 4), Math.floor((3 * count) / 4)];
      for (const k of spread) candidates.push(round(first + k * step));
    } else {
      for (const f of [0.5, 0.25, 0.75, 0.1, 0.9]) candidates.push(round(low + (high - low) * f));
    }
    const ok = [...new Set(candidates.filter(valid))];
    return ok.length > 0 ? this.pick(ok, avoid) : (candidates[0] ?? 0);
  }

  private string(s: Schema, avoid?: ReadonlySet<string>): string {
    const format = typeof s["format"] === "string" ? STRING_FORMATS[s["format"]] : undefined;
    const min = num(s["minLength"]) ?? 0;
    const max = num(s["maxLength"]) ?? Infinity;
    const fit = (text: string): string => {
      let out = text;
      while ([...out].length < min) out += out === "" ? "x" : out;
      return [...out].slice(0, max).join("");
    };
    const likely = [...new Set((format ?? (this.words.length > 0 ? this.words : ["example"])).map(fit))];
    let pattern: RegExp | undefined;
    try {
      pattern = typeof s["pattern"] === "string" ? new RegExp(s["pattern"], "u") : undefined;
    } catch {
      pattern = undefined;
    }
    if (pattern === undefined) return this.pick(likely, avoid);
    // A pattern none of the likely strings meets: plainer strings are tried before giving up.
    const matching = [...likely, ...FALLBACK_STRINGS.map(fit)].filter((c) => pattern.test(c));
    return this.pick(matching.length > 0 ? matching : likely, avoid);
  }
}

/** Two schemas as one: properties and required lists joined, other keywords from `b` winning. */
function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (isSchema(a["properties"]) || isSchema(b["properties"]))
    out["properties"] = { ...(a["properties"] as Schema | undefined), ...(b["properties"] as Schema | undefined) };
  if (Array.isArray(a["required"]) || Array.isArray(b["required"]))
    out["required"] = [...new Set([...((a["required"] as unknown[]) ?? []), ...((b["required"] as unknown[]) ?? [])])];
  return out;
}
