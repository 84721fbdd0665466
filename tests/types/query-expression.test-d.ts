/**
 * Type tests (checked by `npm run typecheck`): a query expression written by hand and kept in a
 * `const` is accepted by `calls.query`, as docs/calls-and-queries.md shows it.
 */
import { describe, expectTypeOf, it } from "vitest";
import { type Inferloop, type QueryExpression, q } from "../../src/index.js";

declare const client: Inferloop;

describe("hand-written query expressions", () => {
  it("a const object `as const` (readonly tuples) is a query", () => {
    const query = {
      $expr: {
        $gt: [{ $convert: { input: { $getField: "summary.weave.latency_ms" }, to: "double" } }, { $literal: 1000 }],
      },
    } as const;
    expectTypeOf(query).toExtend<QueryExpression>();
    client.calls.query({ project_id: "acme/support-bot", query });
  });

  it("readonly lists in $and and $in are accepted; mutable ones still are", () => {
    const ids = ["a", "b"] as const;
    const query = {
      $expr: {
        $and: [
          { $in: [{ $getField: "op_name" }, ids.map((id) => ({ $literal: id }))] },
          { $containsToken: { input: { $getField: "inputs.q" }, substr: { $literal: "reset" } } },
        ],
      },
    } as const;
    expectTypeOf(query).toExtend<QueryExpression>();
    expectTypeOf({
      $expr: { $eq: [{ $getField: "id" }, { $literal: 1 }] },
    } satisfies QueryExpression).toExtend<QueryExpression>();
    expectTypeOf(q.where(q.eq(q.field("id"), "x"))).toExtend<QueryExpression>();
  });

  it("the wrong arity or an unknown conversion target is still refused", () => {
    // @ts-expect-error: `$gt` takes exactly two operands.
    const three: QueryExpression = { $expr: { $gt: [{ $literal: 1 }, { $literal: 2 }, { $literal: 3 }] } };
    const float: QueryExpression = {
      // @ts-expect-error: "float" is not a conversion target.
      $expr: { $eq: [{ $convert: { input: { $getField: "a" }, to: "float" } }, { $literal: 1 }] },
    };
    expectTypeOf(three).toExtend<QueryExpression>();
    expectTypeOf(float).toExtend<QueryExpression>();
  });
});
