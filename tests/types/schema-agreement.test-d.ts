/**
 * Type tests (checked by `npm run typecheck`) of the compile-time check that keeps each request
 * schema and its named type in step: every kind of drift fails it.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { Agrees, Check, Within } from "../../src/resources/schema-agreement.js";

type Schema = { role: "user"; content: string; name?: string; part?: { url: string; detail?: string } };

describe("Agrees", () => {
  it("holds for the same shape, index signatures of loose objects aside", () => {
    type Loose = {
      role: "user";
      content: string;
      name?: string;
      part?: { url: string; detail?: string; [k: string]: unknown };
      [k: string]: unknown;
    };
    expectTypeOf<Agrees<Loose, Schema>>().toEqualTypeOf<true>();
  });

  it("fails on every kind of drift", () => {
    expectTypeOf<Agrees<Schema, Omit<Schema, "name">>>().toEqualTypeOf<false>(); // key missing from the type
    expectTypeOf<Agrees<Schema, Schema & { extra?: number }>>().toEqualTypeOf<false>(); // key missing from the schema
    expectTypeOf<Agrees<Schema, Omit<Schema, "name"> & { name: string }>>().toEqualTypeOf<false>(); // optionality
    expectTypeOf<Agrees<Schema, Omit<Schema, "name"> & { name?: string | null }>>().toEqualTypeOf<false>(); // type
    expectTypeOf<Agrees<Schema, Omit<Schema, "part"> & { part?: { url: string } }>>().toEqualTypeOf<false>(); // nested key
  });

  it("checks listed keys in one direction only", () => {
    type Wider = Omit<Schema, "name"> & { name?: string | null; added?: number };
    expectTypeOf<Agrees<Schema, Wider, "name" | "added">>().toEqualTypeOf<true>();
    type Narrower = Omit<Schema, "name"> & { name?: "bob" };
    expectTypeOf<Agrees<Schema, Narrower, "name">>().toEqualTypeOf<false>();
  });

  it("compares opaque keys as they are", () => {
    type Tree = { $and: Tree[] } | { $literal: string };
    expectTypeOf<Agrees<{ q?: Tree | null }, { q?: Tree | null }, never, "q">>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<{ q?: Tree | null }, { q?: Tree }, never, "q">>().toEqualTypeOf<false>();
  });
});

describe("Within and Check", () => {
  it("Within is one direction", () => {
    expectTypeOf<Within<{ role: "custom" }, { role: string }>>().toEqualTypeOf<true>();
    expectTypeOf<Within<{ role: string }, { role: "custom" }>>().toEqualTypeOf<false>();
  });

  it("Check refuses anything but true", () => {
    type Ok = Check<[true, true]>;
    expectTypeOf<Ok>().toEqualTypeOf<[true, true]>();
    // @ts-expect-error a failed agreement does not compile
    type _Failed = Check<[true, false]>;
  });
});
