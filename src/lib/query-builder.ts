import {
  type AndOperation,
  type ContainsOperation,
  type ContainsTokenOperation,
  type ConvertOperand,
  type ConvertTarget,
  type EqOperation,
  type GetFieldOperand,
  type GteOperation,
  type GtOperation,
  type InOperation,
  type LiteralOperand,
  type LiteralValue,
  type LteOperation,
  type LtOperation,
  type NotOperation,
  OPERAND_KEYS,
  type Operand,
  type Operation,
  type OrOperation,
  type QueryExpression,
} from "../wire/calls/query-expression.js";

/**
 * What the builder takes wherever an operand is expected: an operand node, or a string, number,
 * boolean or null, wrapped as `{ $literal: value }`. A list or an object has no literal form
 * Weave can run: test a list with `q.in`, an object member by member.
 */
export type OperandInput = Operand | LiteralValue;

/**
 * A field reference, `{ $getField: path }`, that can also cast itself with `.as(to)`. The `as`
 * method is not enumerable, so the object serializes, clones and compares as plain JSON.
 */
export interface FieldOperand extends GetFieldOperand {
  as(to: ConvertTarget): ConvertOperand;
}

/**
 * Options of {@link queryBuilder}.contains and {@link queryBuilder}.containsToken.
 */
export interface ContainsOptions {
  /** Match regardless of case. The server's default is case-sensitive. */
  caseInsensitive?: boolean;
}

function substringSpec(
  input: OperandInput,
  substr: OperandInput,
  options: ContainsOptions,
): ContainsOperation["$contains"] {
  const node: ContainsOperation["$contains"] = { input: toOperand(input), substr: toOperand(substr) };
  if (options.caseInsensitive !== undefined) node.case_insensitive = options.caseInsensitive;
  return node;
}

const operandKeys: ReadonlySet<string> = new Set(OPERAND_KEYS);

function isOperandNode(value: unknown): value is Operand {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && operandKeys.has(keys[0] as string);
}

function toOperand(value: OperandInput): Operand {
  return isOperandNode(value) ? value : { $literal: value };
}

function convert(input: OperandInput, to: ConvertTarget): ConvertOperand {
  return { $convert: { input: toOperand(input), to } };
}

function field(path: string): FieldOperand {
  const node = { $getField: path };
  Object.defineProperty(node, "as", {
    value: (to: ConvertTarget) => convert({ $getField: path }, to),
    enumerable: false,
  });
  return node as FieldOperand;
}

function pair(left: OperandInput, right: OperandInput): [Operand, Operand] {
  return [toOperand(left), toOperand(right)];
}

/**
 * The query-expression builder. Every function returns plain JSON in the trace server's shape;
 * plain values are wrapped in `$literal`, and raw nodes can be mixed in anywhere.
 *
 * @example
 * ```ts
 * import { q } from "inferloop";
 *
 * const query = q.where(
 *   q.and(
 *     q.eq(q.field("op_name"), "weave:///acme/bot/op/answer:abc"),
 *     q.gt(q.field("summary.weave.latency_ms").as("double"), 1000),
 *     q.contains(q.field("inputs.question"), "password", { caseInsensitive: true }),
 *     q.containsToken(q.field("inputs.question"), "reset"),
 *     q.not(q.in(q.field("summary.weave.status"), ["error", "running"])),
 *   ),
 * );
 * // { $expr: { $and: [ { $eq: [ { $getField: "op_name" }, { $literal: "weave:///acme/bot/op/answer:abc" } ] }, ... ] } }
 * ```
 */
export const queryBuilder = {
  /**
   * The top-level `{ $expr }`. Several operations are joined with `$and`.
   *
   * @example
   * ```ts
   * q.where(q.eq(q.field("inputs.user_tier"), "pro"));
   * // { $expr: { $eq: [{ $getField: "inputs.user_tier" }, { $literal: "pro" }] } }
   * ```
   */
  where(operation: Operation, ...more: Operation[]): QueryExpression {
    return { $expr: more.length === 0 ? operation : { $and: [operation, ...more] } };
  },

  /**
   * A field of the call record by dotted path; `.as(to)` casts it. A key that itself holds a
   * dot is written with the dot escaped: `"attributes.a\\.b"` reads the key `a.b`.
   *
   * @example
   * ```ts
   * q.field("summary.weave.latency_ms"); // { $getField: "summary.weave.latency_ms" }
   * q.field("summary.weave.latency_ms").as("double");
   * q.field("attributes.model\\.name"); // the key "model.name" of attributes
   * ```
   */
  field,

  /**
   * A literal, explicitly (every builder wraps plain values for you): a string, number, boolean
   * or null. Lists and objects are refused when sent, as no Weave server can run them.
   *
   * @example
   * ```ts
   * q.eq(q.literal("pro"), q.field("inputs.user_tier"));
   * // { $eq: [{ $literal: "pro" }, { $getField: "inputs.user_tier" }] }
   * ```
   */
  literal(value: LiteralValue): LiteralOperand {
    return { $literal: value };
  },

  /**
   * A cast, `{ $convert: { input, to } }`.
   *
   * @example
   * ```ts
   * q.convert(q.field("inputs.top_k"), "int");
   * // { $convert: { input: { $getField: "inputs.top_k" }, to: "int" } }
   * ```
   */
  convert,

  /**
   * True when the operand is present: `$eq` of a `"exists"` cast and `true`, so that it can
   * stand anywhere an operation can, including directly under `where`.
   *
   * @example
   * ```ts
   * q.exists(q.field("output.answer"));
   * // { $eq: [{ $convert: { input: { $getField: "output.answer" }, to: "exists" } }, { $literal: true }] }
   * ```
   */
  exists(input: OperandInput): EqOperation {
    return { $eq: [convert(input, "exists"), { $literal: true }] };
  },

  /**
   * All operands true.
   *
   * @example
   * ```ts
   * q.and(q.eq(q.field("inputs.a"), 1), q.eq(q.field("inputs.b"), 2));
   * ```
   */
  and(...operands: OperandInput[]): AndOperation {
    return { $and: operands.map(toOperand) };
  },

  /**
   * At least one operand true.
   *
   * @example
   * ```ts
   * q.or(q.eq(q.field("inputs.a"), 1), q.eq(q.field("inputs.b"), 2));
   * ```
   */
  or(...operands: OperandInput[]): OrOperation {
    return { $or: operands.map(toOperand) };
  },

  /**
   * Negation, `{ $not: [operand] }`.
   *
   * @example
   * ```ts
   * q.not(q.eq(q.field("summary.weave.status"), "error"));
   * ```
   */
  not(operand: OperandInput): NotOperation {
    return { $not: [toOperand(operand)] };
  },

  /**
   * Equality.
   *
   * @example
   * ```ts
   * q.eq(q.field("inputs.user_tier"), "pro");
   * // { $eq: [{ $getField: "inputs.user_tier" }, { $literal: "pro" }] }
   * ```
   */
  eq(left: OperandInput, right: OperandInput): EqOperation {
    return { $eq: pair(left, right) };
  },

  /**
   * Inequality; the trace server has no `$ne`, so this is `$not` around `$eq`.
   *
   * @example
   * ```ts
   * q.ne(q.field("summary.weave.status"), "error");
   * // { $not: [{ $eq: [{ $getField: "summary.weave.status" }, { $literal: "error" }] }] }
   * ```
   */
  ne(left: OperandInput, right: OperandInput): NotOperation {
    return { $not: [{ $eq: pair(left, right) }] };
  },

  /**
   * `left > right`. Cast JSON fields with `.as("double")` before comparing with numbers.
   *
   * @example
   * ```ts
   * q.gt(q.field("summary.weave.latency_ms").as("double"), 1000);
   * ```
   */
  gt(left: OperandInput, right: OperandInput): GtOperation {
    return { $gt: pair(left, right) };
  },

  /**
   * `left >= right`.
   *
   * @example
   * ```ts
   * q.gte(q.field("wb_run_step"), 10);
   * ```
   */
  gte(left: OperandInput, right: OperandInput): GteOperation {
    return { $gte: pair(left, right) };
  },

  /**
   * `left < right` (newer trace servers only).
   *
   * @example
   * ```ts
   * q.lt(q.field("wb_run_step"), 10);
   * ```
   */
  lt(left: OperandInput, right: OperandInput): LtOperation {
    return { $lt: pair(left, right) };
  },

  /**
   * `left <= right` (newer trace servers only).
   *
   * @example
   * ```ts
   * q.lte(q.field("wb_run_step"), 10);
   * ```
   */
  lte(left: OperandInput, right: OperandInput): LteOperation {
    return { $lte: pair(left, right) };
  },

  /**
   * Membership; each value of the list becomes its own operand.
   *
   * @example
   * ```ts
   * q.in(q.field("summary.weave.status"), ["error", "running"]);
   * // { $in: [{ $getField: "summary.weave.status" }, [{ $literal: "error" }, { $literal: "running" }]] }
   * ```
   */
  in(input: OperandInput, values: readonly OperandInput[]): InOperation {
    return { $in: [toOperand(input), values.map(toOperand)] };
  },

  /**
   * Substring test.
   *
   * @example
   * ```ts
   * q.contains(q.field("inputs.question"), "password", { caseInsensitive: true });
   * // { $contains: { input: { $getField: "inputs.question" }, substr: { $literal: "password" }, case_insensitive: true } }
   * ```
   */
  contains(input: OperandInput, substr: OperandInput, options: ContainsOptions = {}): ContainsOperation {
    return { $contains: substringSpec(input, substr, options) };
  },

  /**
   * Whole-token test (ClickHouse's `hasToken`): `substr` equals one of the tokens of `input`,
   * the runs of letters and digits between other characters, so `"reset"` matches
   * `"How do I reset my password?"` but not `"resetting"`. `substr` is one token (no spaces or
   * punctuation).
   *
   * @example
   * ```ts
   * q.containsToken(q.field("inputs.q"), "reset", { caseInsensitive: true });
   * // { $containsToken: { input: { $getField: "inputs.q" }, substr: { $literal: "reset" }, case_insensitive: true } }
   * ```
   */
  containsToken(input: OperandInput, substr: OperandInput, options: ContainsOptions = {}): ContainsTokenOperation {
    return { $containsToken: substringSpec(input, substr, options) };
  },
} as const;

/**
 * Short name of {@link queryBuilder}, for building call-query expressions inline.
 *
 * @example
 * ```ts
 * const query = q.where(q.eq(q.field("op_name"), "weave:///acme/bot/op/answer:abc"));
 * ```
 */
export const q: typeof queryBuilder = queryBuilder;
