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
