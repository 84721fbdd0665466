// The W&B-only namespaces load their endpoint declarations at the first call (a chunk of their
// own in a browser app). What callers rely on: a method still returns its APIPromise, list or
// iterable at once; nothing is loaded for a list never read; a chunk that fails to load rejects
// the call (or the list's first read) like any failure, and leaves no unhandled rejection.
import { describe, expect, it, vi } from "vitest";
import { Inferloop } from "../../src/client.js";
import { lazyCursorList } from "../../src/core/lists/cursor-list.js";
import { lazyOffsetList } from "../../src/core/lists/offset-list.js";
import { APIPromise } from "../../src/core/pipeline/api-promise.js";
import type { HttpClient } from "../../src/core/pipeline/http-client.js";
import { callLazyEndpoint, lazyIterable } from "../../src/core/pipeline/lazy-endpoint.js";
import { callsQuery } from "../../src/wire/calls/endpoints.js";
import { checkpointsList } from "../../src/wire/trainable-models/endpoints.js";

// A real client's pipeline, on a port nothing listens on: every call here is refused or fails to
// load before anything could be sent.
const client = new Inferloop({ baseURL: "http://127.0.0.1:9", apiKey: "key", maxRetries: 0 });
const http = (client.calls as unknown as { _http: HttpClient })._http;
const chunkError = () => new TypeError("Failed to fetch dynamically imported module: /assets/endpoints-x1.js");

describe("endpoints loaded at first use", () => {
  it("a call returns its APIPromise at once; a failed load rejects it and withResponse()", async () => {
    const load = vi.fn(() => Promise.reject(chunkError()));
    const call = callLazyEndpoint(http, load, { params: { project_id: "acme/bot" } }, undefined);
    expect(call).toBeInstanceOf(APIPromise);
    await expect(call).rejects.toThrow(/dynamically imported module/);
    await expect(call.withResponse()).rejects.toThrow(/dynamically imported module/);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("a call nobody awaits leaves no unhandled rejection", async () => {
    void callLazyEndpoint(http, () => Promise.reject(chunkError()), { params: {} }, undefined);
    // vitest fails the file on an unhandled rejection; give it the turns to surface.
    await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it("an offset list loads nothing until read; a failed load rejects the read, and the next read loads again", async () => {
    const load = vi.fn((): Promise<typeof callsQuery> => Promise.reject(chunkError()));
    const list = lazyOffsetList(http, load, { params: { project_id: "acme/bot" } }, undefined);
    expect(load).not.toHaveBeenCalled();
    await expect(list.toArray()).rejects.toThrow(/dynamically imported module/);
    expect(load).toHaveBeenCalledTimes(1);
    await expect(list.pages().next()).rejects.toThrow(/dynamically imported module/);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("an offset list loads its declaration once however often it is read", async () => {
    const load = vi.fn(async () => callsQuery);
    const list = lazyOffsetList(http, load, { params: { project_id: "no-slash" } }, undefined);
    await expect(list.toArray()).rejects.toThrow(/calls\.query request/);
    await expect(list.toArray()).rejects.toThrow(/calls\.query request/);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("an offset list's refused input rejects its first read once loaded, with nothing sent", async () => {
    const list = lazyOffsetList(http, async () => callsQuery, { params: { project_id: "no-slash" } }, { pageSize: 0 });
    await expect(list.toArray()).rejects.toThrow(/calls\.query request/);
  });

  it("a cursor list loads nothing until read; a failed load or a refusal rejects its first page", async () => {
    const load = vi.fn((): Promise<typeof checkpointsList> => Promise.reject(chunkError()));
    const list = lazyCursorList(http, load, { pathArguments: { modelId: "m" }, params: {} }, undefined);
    expect(load).not.toHaveBeenCalled();
    await expect(list.toArray()).rejects.toThrow(/dynamically imported module/);
    expect(load).toHaveBeenCalledTimes(1);

    const refused = lazyCursorList(
      http,
      async () => checkpointsList,
      { pathArguments: { modelId: "m" }, params: { limit: 0 } },
      undefined,
    );
    await expect(refused.toArray()).rejects.toThrow(/trainable_models\.checkpoints\.list request/);
  });

  it("an iterable opens its source at the first read, and a break reaches the source", async () => {
    const closed = vi.fn();
    const open = vi.fn(async () =>
      (async function* () {
        try {
          yield 1;
          yield 2;
        } finally {
          closed();
        }
      })(),
    );
    const iterable = lazyIterable(open);
    expect(open).not.toHaveBeenCalled();
    for await (const n of iterable) if (n === 1) break;
    expect(open).toHaveBeenCalledTimes(1);
    expect(closed).toHaveBeenCalledTimes(1);
  });
});
