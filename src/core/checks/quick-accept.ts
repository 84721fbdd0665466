import type { $ZodType } from "zod/v4/core";

/**
 * A first, cheaper test of an object against a zod object schema, for the request hot path:
 * `true` only when the schema surely accepts the value. `false` means "not known", and the
 * caller runs the schema itself, which then gives zod's own issues, word for word.
 *
 * Why: zod checks an object by walking every key of its shape, present or not, allocating for
 * each. A chat request schema knows many more fields than a request sets, so most of a valid
 * request's validation was spent on fields it does not have, and its garbage was paid in GC
 * while concurrent calls are in flight (docs/performance.md). This walks the keys the value has.
 *
 * The answer is zod's: each present field is checked by the field's own schema, an unknown key
 * is checked by the object's catch-all (a strict object's refuses everything), a missing
 * required field fails, and the object's own checks (cross-field rules) then run on the value.
 * Reads zod's schema definition (`_zod.def`, documented for library authors) and runs its
 * internals (`_zod.optin`, `_zod.run`, a check's `_zod.check`), which zod does not promise to
 * keep across minor versions: so only for the zod minor this agreement with `safeParse` was
 * tested on ({@link ZOD_TESTED}, over every request case the SDK knows). Under any other zod
 * every request goes to `safeParse`, slower but exact.
 */
export function quickAccepts(schema: $ZodType, value: object): boolean {
  let accepts = checkers.get(schema);
  if (accepts === undefined) {
    accepts = sparseChecker(schema);
    checkers.set(schema, accepts);
  }
  return accepts?.(value as Record<string, unknown>) ?? false;
}

type Checker = (value: Record<string, unknown>) => boolean;

// `null`: a schema this cannot judge (not an object, or with checks it cannot run alone).
const checkers = new WeakMap<$ZodType, Checker | null>();

interface ObjectDef {
  type: string;
  shape?: Record<string, FieldSchema>;
  catchall?: FieldSchema;
  checks?: { _zod: { def: { when?: unknown }; check(payload: Payload): unknown } }[];
}

interface Payload {
  value: unknown;
  issues: unknown[];
}

// A schema as zod runs it: `safeParse` is this call plus a result object, which a check that
// stops at the first issue does not need.
type FieldSchema = { _zod: { optin?: string; run(payload: Payload, ctx: { async: false }): unknown } };
const SYNC = { async: false } as const;

/** The zod version whose internals the fast path was tested against (major, minor). */
export const ZOD_TESTED = { major: 4, minor: 6 } as const;

function sparseChecker(schema: $ZodType): Checker | null {
  const version = schema._zod.version;
  if (version?.major !== ZOD_TESTED.major || version.minor !== ZOD_TESTED.minor) return null;
  const def: ObjectDef = schema._zod.def as ObjectDef;
  const shape = def.shape;
  if (def.type !== "object" || shape === undefined) return null;
  const checks = def.checks ?? [];
  // A check with its own condition may run even after an issue; leave such schemas to zod.
  if (checks.some((c) => c._zod.def.when !== undefined)) return null;
  const required = Object.keys(shape).filter((k) => shape[k]!._zod.optin !== "optional");
  // One lookup per key the value has: a request schema's shape has a hundred keys, an object
  // that V8 keeps as a dictionary, where `hasOwn` and then the read were two lookups.
  const fields = new Map(Object.keys(shape).map((k) => [k, shape[k]!]));
  const surely = new Map<string, SureTest>();
  for (const [key, field] of fields) {
    const test = sureTest(field);
    if (test !== undefined) surely.set(key, test);
  }
  const catchall = def.catchall;
  return (value) => {
    for (const key of required) if (!(key in value)) return false;
    // One payload for every field: its issues are empty whenever the walk goes on.
    const payload: Payload = { value: undefined, issues: [] };
    // for...in, as zod's own walk of unknown keys: inherited enumerable keys count too.
    for (const key in value) {
      // zod gives "__proto__" rules of its own; not worth repeating here.
      if (key === "__proto__") return false;
      const field = fields.get(key) ?? catchall;
      // No catch-all: zod strips unknown keys from its output without checking them.
      if (field === undefined) continue;
      const item = value[key];
      if (surely.get(key)?.(item)) continue;
      payload.value = item;
      // A schema may answer with a payload of its own (a union answers with its option's).
      const result = field._zod.run(payload, SYNC) as Payload | Promise<Payload>;
      if (result instanceof Promise || result.issues.length > 0 || payload.issues.length > 0) return false;
    }
    payload.value = value;
    for (const check of checks) {
      if (check._zod.check(payload) instanceof Promise || payload.issues.length > 0) return false;
    }
    return true;
  };
}

/** A test that is true only for values a schema surely accepts (false: ask the schema). */
type SureTest = (value: unknown) => boolean;

interface TypeDef {
  type: string;
  checks?: unknown[];
  values?: unknown[];
  innerType?: FieldSchema;
  options?: FieldSchema[];
}

/**
 * The field's schema as a plain test, when it is one of zod's simple types without checks of
 * its own (a string, a boolean, a literal, `unknown`, or an optional, nullable or union of
 * those): most fields of most requests (a message's `role` and text `content`, `model`) are
 * then accepted without running zod. `undefined` for any other schema, which zod runs.
 */
function sureTest(schema: FieldSchema): SureTest | undefined {
  const def = (schema._zod as { def?: TypeDef }).def as TypeDef;
  if (def.checks !== undefined && def.checks.length > 0) return undefined;
  switch (def.type) {
    case "string":
      return (v) => typeof v === "string";
    case "boolean":
      return (v) => typeof v === "boolean";
    case "unknown":
    case "any":
      return () => true;
    case "literal": {
      const values = def.values ?? [];
      return (v) => values.includes(v);
    }
    case "optional":
    case "nullable": {
      const inner = def.innerType === undefined ? undefined : sureTest(def.innerType);
      const empty = def.type === "optional" ? undefined : null;
      return (v) => v === empty || inner?.(v) === true;
    }
    case "union": {
      // Any option that surely accepts the value makes the union accept it.
      const tests = (def.options ?? []).map(sureTest).filter((t): t is SureTest => t !== undefined);
      if (tests.length === 0) return undefined;
      return (v) => tests.some((t) => t(v));
    }
  }
  return undefined;
}
