import { shapeError } from "../decoding/response-checks.js";
import { type Endpoint, type EndpointCall, firstListRequest } from "../pipeline/endpoint.js";
import type { APIResponse, HttpClient } from "../pipeline/http-client.js";
import type { RequestOptions } from "../pipeline/options.js";
import { readObject } from "../pipeline/read-body.js";
import type { RequestSpec } from "../pipeline/request-spec.js";
import type { CursorPaging } from "./paging.js";

/**
 * One page of a cursor list, as the W&B Training API sends it (`PaginatedResponse`): `data` and
 * `has_more` are always there; `first_id`/`last_id` default to `""`. Unknown members are kept.
 */
export interface CursorPage<T> {
  object?: string;
  data: T[];
  first_id?: string;
  last_id?: string;
  has_more: boolean;
  [key: string]: unknown;
}

/** Fetches the page that follows `after` (undefined: the first page). */
export type CursorPageFetcher<T> = (after: string | undefined) => Promise<CursorPage<T>>;

/**
 * A list read page by page with an `after` cursor. Nothing is sent until iteration starts.
 * Each next page asks for `after` = the id of the last item received, and the list goes on
 * while the server says `has_more`, whatever the size of the page: a server may return fewer
 * items than `limit` and still have more. A page with `has_more` but no item ends the list
 * (its cursor would ask for the same page again). Invalid input rejects the first iteration
 * with `RequestValidationError`.
 *
 * @example
 * ```ts
 * for await (const checkpoint of client.trainableModels.checkpoints.list(modelId)) console.log(checkpoint.step);
 * const all = await client.trainingJobs.events.list(jobId).toArray();
 * ```
 */
export class CursorList<T extends { id: string }> implements AsyncIterable<T> {
  readonly #fetch: CursorPageFetcher<T>;
  readonly #after: string | undefined;
  readonly #invalid: Error | undefined;

  /** @internal Built by the resource methods that return lists. */
  constructor(fetch: CursorPageFetcher<T>, after: string | undefined, invalid: Error | undefined) {
    this.#fetch = fetch;
    this.#after = after;
    this.#invalid = invalid;
  }

  /**
   * Every item, page after page, in the server's order.
   *
   * @example
   * ```ts
   * for await (const event of client.trainingJobs.events.list(jobId)) console.log(event.type);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page;
  }

  /**
   * One array per request, as the server sent it (empty pages are skipped).
   *
   * @example
   * ```ts
   * for await (const page of client.trainableModels.checkpoints.list(modelId, { limit: 50 }).pages())
   *   console.log(page.length);
   * ```
   */
  async *pages(): AsyncGenerator<T[]> {
    if (this.#invalid) throw this.#invalid;
    let after = this.#after;
    for (;;) {
      const page = await this.#fetch(after);
      const items = page.data;
      if (items.length > 0) yield items;
      if (page.has_more !== true || items.length === 0) return;
      after = items[items.length - 1]!.id;
    }
  }

  /**
   * Every item in one array.
   *
   * @example
   * ```ts
   * const checkpoints = await client.trainableModels.checkpoints.list(modelId).toArray();
   * ```
   */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const page of this.pages()) for (const item of page) all.push(item);
    return all;
  }
}

/**
 * Reads a `PaginatedResponse` body: an object with a `data` array and a boolean `has_more`,
 * each item with the string `id` the next page's cursor is made of.
 */
async function readCursorPage<T>(res: APIResponse, spec: RequestSpec): Promise<CursorPage<T>> {
  const what = `${spec.operation} response`;
  const page = await readObject(res, spec);
  if (!Array.isArray(page.data)) throw shapeError(what, "data", page.data, "an array");
  if (typeof page.has_more !== "boolean") throw shapeError(what, "has_more", page.has_more, "a boolean");
  page.data.forEach((item: unknown, i: number) => {
    const id = typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined;
    if (typeof id !== "string" || id === "") throw shapeError(what, `data.${i}.id`, id, "a non-empty string");
  });
  return page as CursorPage<T>;
}

/**
 * @internal The list of an endpoint declaring cursor pages, over a GET whose query takes
 * `after`: the first page starts at the caller's `after`, each next one after the last item
 * received. The parameters are checked here; a refusal rejects the first iteration and nothing
 * is sent.
 */
export function cursorList<
  Path extends string,
  Params extends { after?: string | undefined },
  Row extends { id: string },
>(
  http: HttpClient,
  ep: CursorEndpoint<Path, Params, Row>,
  call: EndpointCall<Path, NoInfer<Params>>,
  options: RequestOptions | undefined,
): CursorList<Row> {
  const { fetchPage, invalid } = cursorListSource(http, ep, call, options);
  return new CursorList(fetchPage, call.params?.after, invalid);
}

type CursorEndpoint<Path extends string, Params, Row> = Endpoint<Path, Params, Row> & { page: CursorPaging<Row> };

/**
 * @internal {@link cursorList} of a declaration loaded at first use (`EndpointLoader`): the list
 * is returned at once; the declaration is loaded and the input checked when the first page is
 * asked for, which rejects with a refusal (or a failed load) before anything is sent.
 */
export function lazyCursorList<
  Path extends string,
  Params extends { after?: string | undefined },
  Row extends { id: string },
>(
  http: HttpClient,
  load: () => Promise<CursorEndpoint<Path, Params, Row>>,
  call: EndpointCall<Path, NoInfer<Params>>,
  options: RequestOptions | undefined,
): CursorList<Row> {
  // Loaded once, at the first page; a failed load is tried again at the next read.
  let source: Promise<CursorListSource<Row>> | undefined;
  const fetchPage = async (after: string | undefined): Promise<CursorPage<Row>> => {
    source ??= load().then(
      (ep) => cursorListSource(http, ep, call, options),
      (err: unknown) => {
        source = undefined;
        throw err;
      },
    );
    const loaded = await source;
    if (loaded.invalid) throw loaded.invalid;
    return loaded.fetchPage(after);
  };
  return new CursorList(fetchPage, call.params?.after, undefined);
}

/** How a cursor list asks for a page, and the refusal of its input if any. */
interface CursorListSource<Row> {
  fetchPage: CursorPageFetcher<Row>;
  invalid: Error | undefined;
}

/** The first request of a cursor list, checked (a refusal in `invalid`), and how to ask for a page. */
function cursorListSource<Path extends string, Params extends { after?: string | undefined }, Row>(
  http: HttpClient,
  ep: CursorEndpoint<Path, Params, Row>,
  call: EndpointCall<Path, NoInfer<Params>>,
  options: RequestOptions | undefined,
): CursorListSource<Row> {
  const { first, invalid } = firstListRequest(http, ep, call, options);
  const fetchPage = async (after: string | undefined): Promise<CursorPage<Row>> => {
    const spec = after === undefined || after === call.params?.after ? first! : withAfter(first!, after);
    return (await http.request(spec, options, readCursorPage<Row>)).data;
  };
  return { fetchPage, invalid };
}

/** The same request with its `after` cursor replaced. */
function withAfter(spec: RequestSpec, after: string): RequestSpec {
  const [path, query = ""] = spec.path.split("?") as [string, string?];
  const params = new URLSearchParams(query);
  params.set("after", after);
  return { ...spec, path: `${path}?${params}` };
}
