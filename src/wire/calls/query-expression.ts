import * as z from "zod/mini";
import { strictObject } from "../request-shapes.js";
import { ensureZodDefaults } from "../zod-defaults.js";

ensureZodDefaults();

/**
 * A value a `$literal` holds: a string, a number, a boolean or null. Weave's request model also
 * takes a list or an object of `$literal` operands, but neither of its servers can run one
 * (ClickHouse answers 400, sqlite 500), so the SDK refuses it: test a list with `$in`
 * (`q.in`), an object member by member.
 */
export type LiteralValue = string | number | boolean | null;

/**
 * The types a `$convert` can cast to. `"exists"` yields whether the input is present at all.
 */
export type ConvertTarget = "double" | "string" | "int" | "bool" | "exists";

/**
 * Every value of {@link ConvertTarget}, in the order the trace server documents them.
 */
export const CONVERT_TARGETS = [
  "double",
  "string",
  "int",
  "bool",
  "exists",
] as const satisfies readonly ConvertTarget[];

/**
 * What `$literal` holds: a string, a number, a boolean or null (see {@link LiteralValue}).
 */
export type LiteralOperandValue = LiteralValue;

/**
 * A constant operand: `{ $literal: value }`.
 */
export interface LiteralOperand {
  $literal: LiteralOperandValue;
}

// Weave's LiteralOperation (weave/trace_server/interface/query.py) takes a list or dict of
// `$literal` operands, and a bare list or object is its 422. Neither server runs the first:
// ClickHouse's query builder has no parameter type for a list or dict
// (orm.python_value_to_ch_type raises, a 400) and the sqlite server cannot JSON-encode the
// nested operands (a 500). So any list or object is refused here, saying what works instead.
const LITERAL_SCALAR =
  "holds a list or an object, which no Weave server can run: a $literal holds a string, number, boolean or null; test a list with $in (q.in), an object member by member";
const literalValueSchema = z.unknown().check((ctx) => {
  const v = ctx.value;
  if (v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v)))
    return;
  ctx.issues.push({
    code: "custom",
    input: v,
    message: typeof v === "object" ? LITERAL_SCALAR : "must be a string, a finite number, a boolean or null",
  });
});

/**
 * A field of the call record, by dotted path (`"summary.weave.latency_ms"`). Integer-looking path
 * parts index into lists; a key that itself contains a dot is written with the dot escaped,
 * `"attributes.a\\.b"` (the key `a.b` of `attributes`), as Weave reads it.
 */
export interface GetFieldOperand {
  $getField: string;
}

/**
 * A cast of another operand, e.g. a JSON field to `double` before comparing it with a number.
 */
export interface ConvertOperand {
  $convert: { input: Operand; to: ConvertTarget };
}

/**
 * True when every operand is true. Any number of operands.
 */
export interface AndOperation {
  $and: readonly Operand[];
}

/**
 * True when at least one operand is true. Any number of operands.
 */
export interface OrOperation {
  $or: readonly Operand[];
}

/**
 * Negation of exactly one operand. "Not equal" is `$not` around `$eq`.
 */
export interface NotOperation {
  $not: readonly [Operand];
}

/**
 * `left == right`.
 */
export interface EqOperation {
  $eq: readonly [Operand, Operand];
}

/**
 * `left > right`.
 */
export interface GtOperation {
  $gt: readonly [Operand, Operand];
}

/**
 * `left >= right`.
 */
export interface GteOperation {
  $gte: readonly [Operand, Operand];
}

/**
 * `left < right`. Only newer trace servers know `$lt`.
 */
export interface LtOperation {
  $lt: readonly [Operand, Operand];
}

/**
 * `left <= right`. Only newer trace servers know `$lte`.
 */
export interface LteOperation {
  $lte: readonly [Operand, Operand];
}

/**
 * Membership: the first operand equals one of the operands in the list.
 */
export interface InOperation {
  $in: readonly [Operand, readonly Operand[]];
}

/**
 * Substring test; `case_insensitive` defaults to false on the server.
 */
export interface ContainsOperation {
  $contains: { input: Operand; substr: Operand; case_insensitive?: boolean | null };
}

/**
 * Whole-token test (ClickHouse's `hasToken`, on W&B's trace server): true when `substr` is one
 * of the tokens of `input`, the runs of ASCII letters and digits (any non-ASCII character
 * counts as a letter) between the other characters. `substr` is one token: ClickHouse refuses
 * a needle holding spaces or punctuation. `case_insensitive` defaults to false on the server.
 */
export interface ContainsTokenOperation {
  $containsToken: { input: Operand; substr: Operand; case_insensitive?: boolean | null };
}

/**
 * Any operation node: the things that may stand directly under `$expr`.
 */
export type Operation =
  | AndOperation
  | OrOperation
  | NotOperation
  | EqOperation
  | GtOperation
  | GteOperation
  | LtOperation
  | LteOperation
  | InOperation
  | ContainsOperation
  | ContainsTokenOperation;

/**
 * Anything that may appear as an argument of an operation: a literal, a field, a cast, or a
 * nested operation.
 */
export type Operand = LiteralOperand | GetFieldOperand | ConvertOperand | Operation;

/**
 * The `query` member of a call query: `{ $expr: Operation }`. Build it with `q` or write it raw.
 */
export interface QueryExpression {
  $expr: Operation;
}

/**
 * The keys of every operation node, in the order the trace server documents them.
 */
export const OPERATION_KEYS = [
  "$and",
  "$or",
  "$not",
  "$eq",
  "$gt",
  "$gte",
  "$lt",
  "$lte",
  "$in",
  "$contains",
  "$containsToken",
] as const;

/**
 * The keys of every operand node: the operation keys plus `$literal`, `$getField`, `$convert`.
 */
export const OPERAND_KEYS = ["$literal", "$getField", "$convert", ...OPERATION_KEYS] as const;

// The recursion goes through z.lazy so each schema can name the other before both exist.
const lazyOperand: z.ZodMiniType<Operand, Operand> = z.lazy(() => operandSchema);
const operandPair = z.tuple([lazyOperand, lazyOperand]);
const substringSpec = strictObject({
  input: lazyOperand,
  substr: lazyOperand,
  case_insensitive: z.nullish(z.boolean()),
});

// Every node is one object holding all possible operator keys, each optional, plus a check that
// exactly one is present. Unlike a union of one-key objects, this reports an error inside a
// nested node at that node's own path (a union would only say "no option matched" at the root).
// exactOptional refuses `{ $literal: undefined }`, which JSON.stringify would turn into `{}`.
const operationShape = {
  $and: z.exactOptional(z.array(lazyOperand)),
  $or: z.exactOptional(z.array(lazyOperand)),
  $not: z.exactOptional(z.tuple([lazyOperand])),
  $eq: z.exactOptional(operandPair),
  $gt: z.exactOptional(operandPair),
  $gte: z.exactOptional(operandPair),
  $lt: z.exactOptional(operandPair),
  $lte: z.exactOptional(operandPair),
  $in: z.exactOptional(z.tuple([lazyOperand, z.array(lazyOperand)])),
  $contains: z.exactOptional(substringSpec),
  $containsToken: z.exactOptional(substringSpec),
};

const operandOnlyShape = {
  $literal: z.exactOptional(literalValueSchema),
  $getField: z.exactOptional(z.string()),
  $convert: z.exactOptional(strictObject({ input: lazyOperand, to: z.enum(CONVERT_TARGETS) })),
};

function unknownKeyMessage(allowed: readonly string[]) {
  return (issue: { code?: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys"
      ? `Unknown query operator ${(issue.keys ?? []).map((k) => JSON.stringify(k)).join(", ")}; expected one of ${allowed.join(", ")}`
      : undefined;
}

const hasExactlyOneKey = (node: object) => Object.keys(node).length === 1;

// Counting keys only makes sense once the node itself parsed cleanly; an unknown key has
// already been reported and would otherwise also read as "zero keys".
const whenNodeIsClean = (payload: { issues: readonly unknown[] }) => payload.issues.length === 0;

/**
 * Validates one operation node (what may stand under `$expr`), recursively.
 */
export const operationSchema = strictObject(operationShape, { error: unknownKeyMessage(OPERATION_KEYS) }).check(
  z.refine(hasExactlyOneKey, {
    message: `An operation has exactly one key out of ${OPERATION_KEYS.join(", ")}`,
    when: whenNodeIsClean,
  }),
) as unknown as z.ZodMiniType<Operation, Operation>;
// The cast above and below replaces zod's inferred "object of optional keys" with the exact
// union; the refine makes the two equivalent at run time.

/**
 * Validates one operand node (a literal, a field, a cast or an operation), recursively.
 */
export const operandSchema = strictObject(
  { ...operandOnlyShape, ...operationShape },
  { error: unknownKeyMessage(OPERAND_KEYS) },
).check(
  z.refine(hasExactlyOneKey, {
    message: `An operand has exactly one key out of ${OPERAND_KEYS.join(", ")}`,
    when: whenNodeIsClean,
  }),
) as unknown as z.ZodMiniType<Operand, Operand>;

/**
 * Validates a whole `query` value, `{ $expr: Operation }`. A malformed tree fails with the issue
 * path pointing inside it, e.g. `["$expr", "$and", 1, "$not"]`.
 */
export const queryExpressionSchema = strictObject({ $expr: operationSchema });
