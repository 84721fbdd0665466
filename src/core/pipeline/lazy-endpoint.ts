/**
 * Endpoints and helpers loaded at their first use. A namespace that only W&B's services answer
 * (training, artifacts, the trace server) reaches its declarations through `import()`, so a
 * bundler that splits code puts them, their schemas and their helpers in chunks of their own: a
 * page that only chats never downloads them. The caller sees no difference: the methods still
 * return an `APIPromise`, a list or an async iterable at once, and a refusal still rejects that
 * result before anything is sent.
 *
 * @module
 */
import { APIPromise } from "./api-promise.js";
import { callEndpoint, type Endpoint, type EndpointCall } from "./endpoint.js";
import type { HttpClient } from "./http-client.js";
import type { RequestOptions } from "./options.js";

/** An endpoint declaration to load: `() => import("../wire/x/endpoints.js").then((w) => w.y)`. */
export type EndpointLoader<E> = () => Promise<E>;

/**
 * {@link callEndpoint} on a declaration loaded first. A failed load (a chunk the network did not
 * deliver) rejects the result as a refusal would.
 */
export function callLazyEndpoint<Path extends string, Params, Result>(
  http: HttpClient,
  load: EndpointLoader<Endpoint<Path, Params, Result> & { page?: undefined }>,
  call: EndpointCall<Path, NoInfer<Params>>,
  options: RequestOptions | undefined,
): APIPromise<Result> {
  return new APIPromise(load().then((ep) => callEndpoint(http, ep, call, options).withResponse()));
}

/**
 * An async iterable whose source is loaded when iteration starts (`follow`, `files`): nothing is
 * loaded for an iterable never read, and `break` reaches the source as if it were returned directly.
 */
export async function* lazyIterable<T>(open: () => Promise<AsyncIterable<T>>): AsyncGenerator<T, void, undefined> {
  yield* await open();
}
