/**
 * How a request shape is written once: the zod schema is built from a literal shape whose
 * properties carry the field docs, the named type is derived from that shape
 * (`interface X extends Fields<typeof x.shape> {}`), and the schema is published as
 * `SchemaOf<X>`, which checks that it accepts only values of the type.
 *
 * Why an interface and not `z.input<typeof schema>`: hovers and compiler errors then name the
 * type (`ChatCompletionTool`) instead of spelling out zod's generics, and the field docs on the
 * shape still reach the type's fields (zod's mapped types keep each property's declaration). The
 * build writes these interfaces out member by member in the shipped declarations
 * (`scripts/flatten-shapes.mjs`), so users never see the zod types they were derived with.
 *
 * Exact types: `Fields` has no index signature, and nested objects are built with
 * {@link looseObject} below, so a misspelt key in an object literal (`nmae: "bob"`) is a compile
 * error, while at run time unknown keys still pass (servers add fields). A nested object whose
 * type keeps other keys (trajectory members) is a plain `z.looseObject`.
 *
 * @module
 */
import * as z from "zod/mini";
import { closestName } from "../core/checks/closest-name.js";
import { keepKnownFields } from "../core/checks/field-hint.js";

/**
 * The fields of a zod shape as a caller writes them: each property's input type, optional
 * where its schema is optional, without an index signature.
 */
// biome-ignore lint/complexity/noBannedTypes: zod's "no extra keys" marker is the empty object type
export type Fields<S extends z.core.$ZodLooseShape> = z.core.$InferObjectInput<S, {}>;

/**
 * A schema whose input and output are exactly `T` (request schemas have no defaults and no
 * transforms). Each exported schema is declared with it, so its declaration names the type, and
 * the compiler checks that the schema built under it accepts only values of that type.
 */
export type SchemaOf<T> = z.ZodMiniType<T, T>;

/**
 * `z.looseObject` (unknown keys are kept at run time) typed without the index signature zod
 * gives it, so a nested object of a request shape stays exact for the compiler.
 *
 * @example
 * ```ts
 * import * as z from "zod/mini";
 *
 * const named = looseObject({ name: z.string() }); // input: { name: string }
 * ```
 */
export const looseObject: <S extends z.core.$ZodLooseShape>(
  shape: S,
  params?: string | z.core.$ZodObjectParams,
) => z.ZodMiniObject<S, z.core.$strip> = z.looseObject;

/**
 * `z.strictObject` (an unknown key is refused) whose refusal of a misspelt key says which one
 * was meant: `unknown field "rewrad" (did you mean "reward"?)`, at any depth of a request.
 * An `error` of `params` still words the issue for those who read zod's issues directly.
 *
 * @example
 * ```ts
 * import * as z from "zod/mini";
 *
 * const trajectory = strictObject({ reward: z.number() });
 * ```
 */
export function strictObject<S extends z.core.$ZodLooseShape>(
  shape: S,
  params?: z.core.$ZodObjectParams,
): z.ZodMiniObject<S, z.core.$strict> {
  const own = params?.error;
  const error: z.core.$ZodErrorMap = (issue) => {
    keepKnownFields(issue);
    return typeof own === "function" ? own(issue as never) : own;
  };
  return z.strictObject(shape, { ...params, error });
}

/**
 * Pushes one issue per key of `value` that `known` lacks but that is within two edits of one
 * of its keys (a misspelt field), with a "did you mean".
 */
export function nearMisses(value: object, known: readonly string[], issues: z.core.$ZodRawIssue[]): void {
  for (const k of Object.keys(value)) {
    if (known.includes(k)) continue;
    const near = closestName(k, known);
    if (near !== undefined) {
      issues.push({
        code: "custom",
        input: (value as Record<string, unknown>)[k],
        path: [k],
        message: `unknown field "${k}" (did you mean "${near}"?); a misspelt field is refused, other unknown fields are sent as written`,
      });
    }
  }
}

/**
 * {@link looseObject} (unknown keys are kept and sent, as servers ignore or keep keys they do not
 * know) that refuses a near miss of a known key (`include_usag`, `trajectorys`) with a "did you
 * mean": the server would drop it silently, or miss the member it was meant to be.
 *
 * @example
 * ```ts
 * import * as z from "zod/mini";
 *
 * const options = looseObjectNoTypos({ include_usage: z.optional(z.boolean()) });
 * options.safeParse({ include_usag: true }).success; // false
 * ```
 */
export function looseObjectNoTypos<S extends z.core.$ZodLooseShape>(shape: S) {
  const known = Object.keys(shape);
  return looseObject(shape).check(
    z.superRefine(
      (value, ctx) => {
        const issues: z.core.$ZodRawIssue[] = [];
        nearMisses(value, known, issues);
        for (const i of issues) ctx.addIssue(i as z.core.$ZodRawIssue<z.core.$ZodIssueCustom>);
      },
      // Also beside other issues: a misspelt required member is then reported as missing too,
      // and the "did you mean" is what says why.
      { when: (payload) => typeof payload.value === "object" && payload.value !== null },
    ),
  );
}
