/**
 * Compile-time agreement between a request schema and the named interface it is published as.
 *
 * Each exported schema is declared as `SchemaOf<Interface>`, so declarations, hovers and compiler
 * errors name the interface instead of inlining zod's inferred types. The schema itself is built
 * under a local name and checked with `Agrees` (or `Within`): if a field is added, removed, made
 * optional or retyped on one side only, the build fails at the check, so neither can drift.
 *
 * Loose zod objects carry `[key: string]: unknown` in their input type; the interfaces do not,
 * so that a typo in an object literal is a compile error. Index signatures beside named keys are
 * therefore left out of the comparison (a pure record such as `logit_bias` keeps its own).
 *
 * @module
 */
import type * as z from "zod/mini";

/**
 * A schema whose input and output are exactly `T` (request schemas have no defaults and no
 * transforms).
 *
 * @example
 * ```ts
 * const pageSchema: SchemaOf<{ page: number }> = z.object({ page: z.number() });
 * ```
 */
export type SchemaOf<T> = z.ZodMiniType<T, T>;

type NamedKey<K> = string extends K ? never : number extends K ? never : symbol extends K ? never : K;
type HasNamedKeys<T> = [keyof { [K in keyof T as NamedKey<K>]: 0 }] extends [never] ? false : true;

/** `T` without index signatures beside named keys, at every depth. */
type Named<T> = T extends readonly unknown[]
  ? { [K in keyof T]: Named<T[K]> }
  : T extends object
    ? HasNamedKeys<T> extends true
      ? { [K in keyof T as NamedKey<K>]: Named<T[K]> }
      : { [K in keyof T]: Named<T[K]> }
    : T;

/** `T` with every key required, at every depth: tells "absent on one side" from "optional on both". */
type AllKeys<T> = T extends readonly unknown[]
  ? { [K in keyof T]: AllKeys<T[K]> }
  : T extends object
    ? { [K in keyof T]-?: AllKeys<T[K]> }
    : T;

type Assignable<A, B> = [A] extends [B] ? true : false;

// Distributive, so that a union keeps its members apart.
type Without<T, K extends PropertyKey> = [K] extends [never] ? T : T extends unknown ? Omit<T, K> : never;
type Only<T, K extends PropertyKey> = T extends unknown ? Pick<T, Extract<K, keyof T>> : never;

/**
 * `true` when a schema's input `S` and the interface `T` accept the same values: the same keys at
 * every depth, each with the same type and the same optionality. Keys listed in `Wider` are
 * known differences where the interface already accepts more than the schema (`// i12:` in the
 * schema files): for those only "schema within interface" is required. Keys listed in `Opaque`
 * hold recursive named types (query expressions) and are compared as they are, without descending.
 *
 * @example
 * ```ts
 * type Ok = Agrees<{ a?: string }, { a?: string }>; // true
 * type Bad = Agrees<{ a?: string }, { a: string }>; // false
 * ```
 */
export type Agrees<S, T, Wider extends PropertyKey = never, Opaque extends PropertyKey = never> = [
  Assignable<Without<Named<Without<S, Opaque>>, Wider>, Without<T, Wider | Opaque>>,
  Assignable<Without<T, Wider | Opaque>, Without<Named<Without<S, Opaque>>, Wider>>,
  Assignable<AllKeys<Without<Named<Without<S, Opaque>>, Wider>>, AllKeys<Without<T, Wider | Opaque>>>,
  Assignable<AllKeys<Without<T, Wider | Opaque>>, AllKeys<Without<Named<Without<S, Opaque>>, Wider>>>,
  Assignable<Only<Named<Without<S, Opaque>>, Wider>, Only<T, Wider>>,
  Assignable<Only<S, Opaque>, Only<T, Opaque>>,
  Assignable<Only<T, Opaque>, Only<S, Opaque>>,
] extends [true, true, true, true, true, true, true]
  ? true
  : false;

/**
 * `true` when every value the schema input `S` accepts is a `T` (one direction only). For
 * unions where the interface is already wider than the schema (`// i12:` notes say where).
 *
 * @example
 * ```ts
 * type Ok = Within<{ role: "custom" }, { role: string }>; // true
 * ```
 */
export type Within<S, T> = Assignable<Named<S>, T>;

/**
 * Fails to compile unless every member of its argument is `true`; the error points at the
 * member that is not.
 *
 * @example
 * ```ts
 * type _Checked = Check<[Agrees<{ a: string }, { a: string }>, Within<{ b: 1 }, { b: number }>]>;
 * ```
 */
export type Check<T extends readonly true[]> = T;
