/**
 * Type tests (checked by `npm run typecheck`): a declaration names only its result, its
 * parameters come from its schema, and a call's path arguments are typed by the path literal,
 * so a misspelt `{name}` does not compile.
 */
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod/mini";
import { offsetList } from "../../src/core/lists/offset-list.js";
import { offsetPages } from "../../src/core/lists/paging.js";
import type { APIPromise } from "../../src/core/pipeline/api-promise.js";
import { callEndpoint, endpoint, type PathArguments } from "../../src/core/pipeline/endpoint.js";
import type { HttpClient } from "../../src/core/pipeline/http-client.js";
import { readObject } from "../../src/core/pipeline/read-body.js";

declare const http: HttpClient;

const progress = endpoint({
  operation: "things.items.progress",
  method: "POST",
  path: "/things/{queueId}/items/{itemId}/progress",
  service: "trace",
  retry: "safe",
  body: z.strictObject({ state: z.string() }),
  read: readObject<{ ok: boolean }>,
});

const list = endpoint({
  operation: "things.list",
  method: "POST",
  path: "/things/query",
  service: "trace",
  retry: "safe",
  body: z.strictObject({ limit: z.optional(z.number()), offset: z.optional(z.number()), name: z.string() }),
  page: offsetPages<{ id: string }>("thing", { member: "things" }),
});

describe("endpoint declarations", () => {
  it("types path arguments from the path literal", () => {
    expectTypeOf<PathArguments<"/a/{queueId}/b/{itemId}">>().toEqualTypeOf<{
      readonly queueId: string;
      readonly itemId: string;
    }>();
    void callEndpoint(http, progress, { pathArguments: { queueId: "q", itemId: "i" }, params: { state: "done" } }, {});
    // @ts-expect-error `queueID` is not the path's `{queueId}`
    void callEndpoint(http, progress, { pathArguments: { queueID: "q", itemId: "i" }, params: { state: "done" } }, {});
    // @ts-expect-error a path with arguments needs them
    void callEndpoint(http, progress, { params: { state: "done" } }, {});
  });

  it("infers the parameters from the body schema and the result from the reader", () => {
    const call = callEndpoint(
      http,
      progress,
      { pathArguments: { queueId: "q", itemId: "i" }, params: { state: "done" } },
      {},
    );
    expectTypeOf(call).toEqualTypeOf<APIPromise<{ ok: boolean }>>();
    // @ts-expect-error `state` is a string
    void callEndpoint(http, progress, { pathArguments: { queueId: "q", itemId: "i" }, params: { state: 1 } }, {});
  });

  it("keeps lists and single answers apart", () => {
    expectTypeOf(offsetList(http, list, { params: { name: "x" } }, {})).toEqualTypeOf<
      import("../../src/core/lists/offset-list.js").OffsetList<{ id: string }>
    >();
    // @ts-expect-error a list endpoint is read with offsetList, not called once
    void callEndpoint(http, list, { params: { name: "x" } }, {});
  });
});
