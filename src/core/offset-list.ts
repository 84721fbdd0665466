import { type Endpoint, type EndpointCall, firstListRequest } from "./endpoint.js";
import { withEventDeadline } from "./event-deadline.js";
import { type APIResponse, type HttpClient, readJSON } from "./http-client.js";
import { decodeJSONLBatches } from "./jsonl.js";
import type { RequestOptions } from "./options.js";
import { isObject, shapeError } from "./response-shape.js";

/** Records asked for per request when the caller gives no `pageSize`. */
export const DEFAULT_OFFSET_PAGE_SIZE = 1000;

/** One request's `limit`/`offset` pair. */
interface Window {
  limit: number;
  offset: number;
}

/** Fetches one window as batches of rows (a streamed body yields several, a JSON one one). */
type WindowFetcher<T> = (window: Window) => AsyncIterable<T[]>;

/**
 * A list read page by page with `limit`/`offset`, as Weave's query routes page (calls,
 * annotation queues and their items, feedback): each page asks for `pageSize` rows from where
 * the last one ended, and the list stops at the first short page. The caller's own `limit`
 * caps the total and its `offset` is the start. Nothing is sent until iteration starts; invalid
 * input rejects the first iteration with `RequestValidationError`.
 *
 * @example
 * ```ts
 * for await (const item of client.annotationQueues.items.list(queueId, { project_id: "acme/bot" })) console.log(item.id);
 * const all = await client.feedback.query({ project_id: "acme/bot" }).toArray();
 * ```
 */
export class OffsetList<T> implements AsyncIterable<T> {
  readonly #fetch: WindowFetcher<T>;
  readonly #limit: number | undefined;
  readonly #offset: number;
  readonly #pageSize: number;
  readonly #invalid: Error | undefined;
  readonly #what: string;

  /** @internal Built by the resource methods that return offset-paged lists. */
  constructor(
    fetch: WindowFetcher<T>,
    plan: { limit?: number | null | undefined; offset?: number | null | undefined; pageSize?: number | undefined },
    invalid: Error | undefined,
    what: string,
  ) {
    this.#fetch = fetch;
    this.#limit = plan.limit ?? undefined;
    this.#offset = plan.offset ?? 0;
    this.#pageSize = plan.pageSize ?? DEFAULT_OFFSET_PAGE_SIZE;
    this.#invalid = invalid;
    this.#what = what;
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
   * for await (const page of client.annotationQueues.items.list(queueId, { project_id: "acme/bot" }, { pageSize: 50 }).pages())
   *   console.log(page.length);
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
    for await (const page of this.pages()) for (const r of page) all.push(r);
    return all;
  }

  async *#walk(): AsyncGenerator<AsyncIterable<T[]>> {
    if (this.#invalid) throw this.#invalid;
    if (!Number.isSafeInteger(this.#pageSize) || this.#pageSize < 1)
      throw new RangeError(`pageSize must be an integer >= 1, got ${String(this.#pageSize)}`);
    let received = 0;
    for (;;) {
      const left = this.#limit === undefined ? this.#pageSize : Math.min(this.#pageSize, this.#limit - received);
      if (left <= 0) return;
      const window = { limit: left, offset: this.#offset + received };
      const counted = { n: 0 };
      yield this.#counted(window, counted);
      received += counted.n;
      if (counted.n < window.limit) return;
    }
  }

  async *#counted(window: Window, counted: { n: number }): AsyncGenerator<T[]> {
    for await (const batch of this.#fetch(window)) {
      // A server that ignores `limit` must not defeat the caller's cap or the page size.
      const kept = batch.length > window.limit - counted.n ? batch.slice(0, window.limit - counted.n) : batch;
      kept.forEach((row, i) => {
        if (!isObject(row))
          throw shapeError(`${this.#what} row ${counted.n + i + 1} of the page`, "", row, "an object");
      });
      counted.n += kept.length;
      if (kept.length) yield kept;
      if (counted.n >= window.limit) return;
    }
  }
}

/** Where a page's rows are: a member of a JSON object (`items`, `result`), or NDJSON lines. */
export type RowSource = { member: string } | "ndjson";

/**
 * @internal An offset-paged list over a POST endpoint whose body takes `limit` and `offset`.
 * The parameters are checked here; a refusal rejects the first iteration and nothing is sent.
 */
export function offsetList<T, Params extends { limit?: number | null; offset?: number | null }>(
  http: HttpClient,
  ep: Endpoint<Params, unknown, APIResponse>,
  call: EndpointCall<Params>,
  options: (RequestOptions & { pageSize?: number }) | undefined,
  rows: RowSource,
  what: string,
): OffsetList<T> {
  const { first, invalid } = firstListRequest(ep, call);
  const { pageSize, ...requestOptions } = options ?? {};
  const fetchWindow = async function* (window: Window): AsyncGenerator<T[]> {
    const spec = { ...first!, body: { ...(first!.body as object), limit: window.limit, offset: window.offset } };
    if (rows !== "ndjson") {
      const { data } = await http.request(spec, requestOptions, (res) => readJSON<unknown>(res));
      if (!isObject(data)) throw shapeError(`${what} page`, "", data, "an object");
      const list = data[rows.member];
      if (!Array.isArray(list)) throw shapeError(`${what} page`, rows.member, list, "an array");
      yield list as T[];
      return;
    }
    const { data: res } = await http.request(spec, requestOptions, (r) => r, "streamed");
    try {
      yield* withEventDeadline(
        decodeJSONLBatches<T>(res.body, res.limits.maxBufferBytes),
        res.limits,
        () => res.cancel(),
        "NDJSON row",
      );
    } finally {
      res.cancel();
    }
  };
  return new OffsetList<T>(
    fetchWindow,
    { limit: call.params?.limit, offset: call.params?.offset, pageSize },
    invalid,
    what,
  );
}
