import { validateInput } from "../checks/input-checks.js";
import { decodeJSONLBatches } from "../decoding/jsonl.js";
import { isObject, shapeError } from "../decoding/response-checks.js";
import { APIConnectionError, APIUserAbortError } from "../errors/errors.js";
import { asyncDispose } from "../pipeline/dispose.js";
import { type Endpoint, type EndpointCall, firstListRequest } from "../pipeline/endpoint.js";
import { withEventDeadline } from "../pipeline/event-deadline.js";
import { type APIResponse, type HttpClient, readJSON } from "../pipeline/http-client.js";
import type { RequestOptions } from "../pipeline/options.js";
import type { RequestSpec } from "../pipeline/request-spec.js";
import { isShortPage, nextPageWindow, type PageWindow } from "./page-window.js";
import type { OffsetPaging, PagedListOptions } from "./paging.js";

/** One page request being read: its rows in batches, and how to close it. */
interface OpenPage<T> {
  rows: AsyncIterable<T[]> | Iterable<T[]>;
  cancel(): void;
}

/** @internal What an {@link OffsetList} sends and reads. */
export interface OffsetListSource {
  http: HttpClient;
  /** The first request, checked; `undefined` when `invalid` says why it was refused. */
  first: RequestSpec | undefined;
  invalid: Error | undefined;
  options: (RequestOptions & PagedListOptions) | undefined;
  paging: OffsetPaging<unknown>;
}

/**
 * A list read page by page with `limit`/`offset`, as Weave's query routes page (calls,
 * annotation queues and their items, feedback): each page asks for `pageSize` rows (default
 * 1000) from where the last one ended, and the list stops at the first short page. The
 * caller's own `limit` caps the total and its `offset` is the start. A page of lines is
 * streamed: a row is handed over as soon as its line is parsed, and a page cut off mid-body
 * is asked again from the first row not yet delivered (up to `maxRetries` times), so no row is
 * lost or repeated.
 *
 * Nothing is sent until iteration starts; invalid input rejects the first iteration with
 * `RequestValidationError`. With `await using`, the page request still open is closed when the
 * block ends.
 *
 * @example
 * ```ts
 * for await (const item of client.annotationQueues.items.list(queueId, { project_id: "acme/bot" })) console.log(item.id);
 * const all = await client.feedback.query({ project_id: "acme/bot" }).toArray();
 * ```
 */
export class OffsetList<T> implements AsyncIterable<T>, AsyncDisposable {
  // A loader when the endpoint is loaded at first use (`lazyOffsetList`): read by `#walk` only.
  readonly #source: OffsetListSource | (() => Promise<OffsetListSource>);
  readonly #requestOptions: RequestOptions;
  // The page requests being read, so that disposal can close them.
  readonly #open = new Set<OpenPage<T>>();
  #disposed = false;

  /** @internal Built by the resource methods that return offset-paged lists. */
  constructor(
    source: OffsetListSource | (() => Promise<OffsetListSource>),
    options: (RequestOptions & PagedListOptions) | undefined,
  ) {
    this.#source = source;
    const { pageSize: _, ...requestOptions } = options ?? {};
    this.#requestOptions = requestOptions;
  }

  /**
   * Every row, page after page, in the server's order.
   *
   * @example
   * ```ts
   * for await (const row of client.feedback.query({ project_id: "acme/bot" })) console.log(row.feedback_type);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.#walk()) for await (const batch of page) yield* batch;
  }

  /**
   * One array per request of up to `pageSize` rows; stops at the first short page or when the
   * caller's `limit` is reached.
   *
   * @example
   * ```ts
   * for await (const page of client.calls.query({ project_id: "acme/bot", limit: 2500 }).pages())
   *   console.log("page of", page.length);
   * ```
   */
  async *pages(): AsyncGenerator<T[]> {
    for await (const page of this.#walk()) {
      const rows: T[] = [];
      for await (const batch of page) for (const r of batch) rows.push(r);
      if (rows.length) yield rows;
    }
  }

  /**
   * Every row in one array.
   *
   * @example
   * ```ts
   * const items = await client.annotationQueues.items.list(queueId, { project_id: "acme/bot" }).toArray();
   * ```
   */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const page of this.#walk()) for await (const batch of page) for (const r of batch) all.push(r);
    return all;
  }

  /**
   * Close the page request still open when an `await using` block ends; the list cannot be
   * read after that (a read in progress rejects with `APIUserAbortError`).
   *
   * @example
   * ```ts
   * {
   *   await using query = client.calls.query({ project_id: "acme/bot" });
   *   for await (const call of query) if (call.op_name.endsWith("answer")) break;
   * } // the HTTP request is closed here
   * ```
   */
  async [asyncDispose](): Promise<void> {
    this.#disposed = true;
    for (const page of this.#open) page.cancel();
    this.#open.clear();
  }

  /** One async iterable of row batches per page window, in order. */
  async *#walk(): AsyncGenerator<AsyncIterable<T[]>> {
    const source = typeof this.#source === "function" ? await this.#source() : this.#source;
    const { invalid, first, options } = source;
    if (invalid) throw invalid;
    // The caller's `limit` caps the total and its `offset` is the start, as the checked body has them.
    const { limit, offset } = first!.body as { limit?: number | null; offset?: number | null };
    const plan = { limit, offset, pageSize: options?.pageSize };
    let received = 0;
    for (;;) {
      const window = nextPageWindow(plan, received);
      if (!window) return;
      const counted = { n: 0 };
      yield this.#readWindow(source, window, counted);
      received += counted.n;
      if (isShortPage(window, counted.n)) return;
    }
  }

  /** Read one page; if a streamed body is cut off, ask again for the part not yet delivered. */
  async *#readWindow(source: OffsetListSource, window: PageWindow, counted: { n: number }): AsyncGenerator<T[]> {
    const { http, paging } = source;
    const { rows, row } = paging;
    // A JSON page is read whole inside the request, whose retries already cover a cut-off body.
    let resumesLeft = "lines" in rows ? (this.#requestOptions.maxRetries ?? http.config.maxRetries) : 0;
    for (;;) {
      if (this.#disposed) throw disposedError();
      const page = await this.#request(source, { limit: window.limit - counted.n, offset: window.offset + counted.n });
      this.#open.add(page);
      try {
        if (this.#disposed) throw disposedError();
        for await (const batch of page.rows) {
          const wanted = window.limit - counted.n;
          // A server that ignores `limit` must not defeat the caller's cap or the page size:
          // what is past the window is dropped and the rest of the body is not read.
          const kept = batch.length > wanted ? batch.slice(0, wanted) : batch;
          const bad = kept.findIndex((r) => !isObject(r));
          if (bad >= 0) {
            // The rows before the unreadable one are delivered first, as they arrived.
            if (bad > 0) {
              counted.n += bad;
              yield kept.slice(0, bad);
            }
            throw shapeError(`${row} ${counted.n + 1} of the page`, "", kept[bad], "an object");
          }
          counted.n += kept.length;
          if (kept.length) yield kept;
          if (counted.n >= window.limit) return;
        }
        return;
      } catch (err) {
        if (this.#disposed) throw disposedError(err);
        if (!(err instanceof APIConnectionError) || resumesLeft-- <= 0 || counted.n >= window.limit)
          throw http.config.redactor.error(err);
        http.config.log.write("warn", `${source.first!.operation} page cut off after ${counted.n} rows; resuming`);
      } finally {
        this.#open.delete(page);
        page.cancel();
      }
    }
  }

  async #request(source: OffsetListSource, window: PageWindow): Promise<OpenPage<T>> {
    const { http, first, paging } = source;
    const { rows, row } = paging;
    // Only a list whose input was accepted is sent (`#walk` throws the refusal first).
    const spec = { ...first!, body: { ...(first!.body as object), limit: window.limit, offset: window.offset } };
    if ("member" in rows) {
      const { data } = await http.request(spec, this.#requestOptions, (res) => readJSON<unknown>(res));
      if (!isObject(data)) throw shapeError(`page of ${row}s`, "", data, "an object");
      const list = data[rows.member];
      if (!Array.isArray(list)) throw shapeError(`page of ${row}s`, rows.member, list, "an array");
      return { rows: [list as T[]], cancel() {} };
    }
    const { data: res } = await http.request(spec, this.#requestOptions, (r: APIResponse) => r, "streamed");
    const cancel = () => res.cancel();
    const batches = decodeJSONLBatches<T>(res.body, res.limits.maxBufferBytes);
    return { rows: withEventDeadline(batches, res.limits, cancel, rows.lines), cancel };
  }
}

function disposedError(cause?: unknown): APIUserAbortError {
  return new APIUserAbortError("The list was disposed.", cause === undefined ? undefined : { cause });
}

/**
 * @internal The list of an endpoint declaring offset pages, over a POST whose body takes
 * `limit` and `offset`. The parameters and the list's options are checked here; a refusal
 * rejects the first iteration and nothing is sent.
 */
export function offsetList<Path extends string, Params extends { limit?: number | null; offset?: number | null }, Row>(
  http: HttpClient,
  ep: OffsetEndpoint<Path, Params, Row>,
  call: EndpointCall<Path, NoInfer<Params>>,
  options: (RequestOptions & PagedListOptions) | undefined,
): OffsetList<Row> {
  return new OffsetList<Row>(offsetListSource(http, ep, call, options), options);
}

/**
 * @internal {@link offsetList} of a declaration loaded at first use (`EndpointLoader`): the list
 * is returned at once, and the declaration is loaded and the input checked when iteration
 * starts, whose first step rejects with a refusal (or a failed load).
 */
export function lazyOffsetList<
  Path extends string,
  Params extends { limit?: number | null; offset?: number | null },
  Row,
>(
  http: HttpClient,
  load: () => Promise<OffsetEndpoint<Path, Params, Row>>,
  call: EndpointCall<Path, NoInfer<Params>>,
  options: (RequestOptions & PagedListOptions) | undefined,
): OffsetList<Row> {
  // Loaded once, at the first read (a list never read loads nothing); a failed load is tried
  // again at the next read.
  let source: Promise<OffsetListSource> | undefined;
  const loaded = () =>
    (source ??= load().then(
      (ep) => offsetListSource(http, ep, call, options),
      (err: unknown) => {
        source = undefined;
        throw err;
      },
    ));
  return new OffsetList<Row>(loaded, options);
}

type OffsetEndpoint<Path extends string, Params, Row> = Endpoint<Path, Params, Row> & { page: OffsetPaging<Row> };

/** What an offset list sends and reads, its input checked (a refusal kept in `invalid`). */
function offsetListSource<Path extends string, Params, Row>(
  http: HttpClient,
  ep: OffsetEndpoint<Path, Params, Row>,
  call: EndpointCall<Path, NoInfer<Params>>,
  options: (RequestOptions & PagedListOptions) | undefined,
): OffsetListSource {
  let { first, invalid } = firstListRequest(http, ep, call, options);
  try {
    if (options !== undefined) validateInput(ep.page.options, options, `${ep.operation} request`);
  } catch (err) {
    invalid ??= err as Error;
  }
  return { http, first, invalid, options, paging: ep.page as OffsetPaging<unknown> };
}
