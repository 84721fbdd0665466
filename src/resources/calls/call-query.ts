import { asyncDispose } from "../../core/dispose.js";
import { APIConnectionError, APIUserAbortError } from "../../core/errors.js";
import { withEventDeadline } from "../../core/event-deadline.js";
import type { APIResponse, HttpClient } from "../../core/http-client.js";
import { decodeJSONLBatches } from "../../core/jsonl.js";
import { isObject, shapeError } from "../../core/response-shape.js";
import type { RequestOptions } from "../../core/options.js";
import { isShortPage, nextPageWindow, type PageWindow } from "./paging.js";
import type { RequestSpec } from "../../core/request-spec.js";
import type { CallsQueryOptions, CallsQueryParams } from "./request-schema.js";
import type { CallRecord } from "./types.js";

/**
 * A call query that has not run yet. Iterate it for records, `pages()` for arrays, or
 * `toArray()` for everything. Each page is one `POST /calls/stream_query` with `limit`/`offset`,
 * and each page is itself streamed: a record is handed over as soon as its line is parsed, so
 * memory stays flat however many records match. A page cut off mid-body is resumed from the
 * first record not yet delivered, so no record is lost or repeated.
 *
 * Nothing is sent until iteration starts; invalid input rejects the first iteration with
 * `RequestValidationError`. With `await using`, the page request still open is closed when the
 * block ends.
 *
 * @example
 * ```ts
 * const query = client.calls.query({ project_id: "acme/support-bot", filter: { trace_roots_only: true } });
 * for await (const call of query) console.log(call.id, call.op_name);
 *
 * for await (const page of client.calls.query({ project_id: "acme/support-bot" }, { pageSize: 500 }).pages())
 *   console.log(page.length);
 * ```
 */
export class CallQuery implements AsyncIterable<CallRecord>, AsyncDisposable {
  readonly #http: HttpClient;
  // The page request being read, so that disposal can close it.
  readonly #open = new Set<APIResponse>();
  #disposed = false;
  readonly #spec: RequestSpec | undefined;
  readonly #params: CallsQueryParams;
  readonly #options: CallsQueryOptions & RequestOptions;
  readonly #invalid: Error | undefined;

  /** @internal Use `client.calls.query()`. */
  constructor(
    http: HttpClient,
    spec: RequestSpec | undefined,
    options: CallsQueryOptions & RequestOptions,
    invalid: Error | undefined,
  ) {
    this.#http = http;
    this.#spec = spec;
    this.#params = withSortDirections((spec?.body ?? {}) as CallsQueryParams);
    this.#options = options;
    this.#invalid = invalid;
  }

  /**
   * Every matching record, in order.
   *
   * @example
   * ```ts
   * for await (const call of client.calls.query({ project_id: "acme/bot" })) console.log(call.id);
   * ```
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<CallRecord> {
    for await (const page of this.#walk()) for await (const batch of page) yield* batch;
  }

  /**
   * One array per request of up to `pageSize` records (default 1000); stops at the first short
   * page, or when the caller's `limit` is reached.
   *
   * @example
   * ```ts
   * for await (const page of client.calls.query({ project_id: "acme/bot", limit: 2500 }).pages())
   *   console.log("page of", page.length);
   * ```
   */
  async *pages(): AsyncGenerator<CallRecord[]> {
    for await (const page of this.#walk()) {
      const records: CallRecord[] = [];
      for await (const batch of page) for (const r of batch) records.push(r);
      if (records.length) yield records;
    }
  }

  /**
   * All matching records in one array.
   *
   * @example
   * ```ts
   * const calls = await client.calls.query({ project_id: "acme/bot", limit: 100 }).toArray();
   * ```
   */
  async toArray(): Promise<CallRecord[]> {
    const all: CallRecord[] = [];
    for await (const page of this.#walk()) for await (const batch of page) for (const r of batch) all.push(r);
    return all;
  }

  /** One async iterable of record batches per page window, in order. */
  async *#walk(): AsyncGenerator<AsyncIterable<CallRecord[]>> {
    if (this.#invalid) throw this.#invalid;
    const plan = { limit: this.#params.limit, offset: this.#params.offset, pageSize: this.#options.pageSize };
    let received = 0;
    for (;;) {
      const window = nextPageWindow(plan, received);
      if (!window) return;
      const counted = { n: 0 };
      yield this.#fetchWindow(window, counted);
      received += counted.n;
      if (isShortPage(window, counted.n)) return;
    }
  }

  /** Stream one page; if the body is cut off, ask again for the part not yet delivered. */
  async *#fetchWindow(window: PageWindow, counted: { n: number }): AsyncGenerator<CallRecord[]> {
    let resumesLeft = this.#options.maxRetries ?? this.#http.config.maxRetries;
    for (;;) {
      if (this.#disposed) throw disposedError();
      const res = await this.#request({ limit: window.limit - counted.n, offset: window.offset + counted.n });
      this.#open.add(res);
      try {
        if (this.#disposed) throw disposedError();
        const records = withEventDeadline(
          decodeJSONLBatches<CallRecord>(res.body, res.limits.maxBufferBytes),
          res.limits,
          () => res.cancel(),
          "JSONL record",
        );
        for await (const batch of records) {
          const wanted = window.limit - counted.n;
          // A server that ignores `limit` must not defeat the caller's cap or the page size:
          // what is past the window is dropped and the rest of the body is not read.
          const kept = batch.length > wanted ? batch.slice(0, wanted) : batch;
          const bad = kept.findIndex((r) => !isObject(r));
          if (bad >= 0) {
            // The records before the unreadable one are delivered first, as they arrived.
            if (bad > 0) {
              counted.n += bad;
              yield kept.slice(0, bad);
            }
            throw shapeError(`call record ${counted.n + 1} of the page`, "", kept[bad], "an object");
          }
          counted.n += kept.length;
          if (kept.length) yield kept;
          if (counted.n >= window.limit) return;
        }
        return;
      } catch (err) {
        if (this.#disposed) throw disposedError(err);
        if (!(err instanceof APIConnectionError) || resumesLeft-- <= 0 || counted.n >= window.limit)
          throw this.#http.config.redactor.error(err);
        this.#http.config.log.write("warn", `call query page cut off after ${counted.n} records; resuming`);
      } finally {
        this.#open.delete(res);
        res.cancel();
      }
    }
  }

  /**
   * Close the page request still open when an `await using` block ends; the query cannot be
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
    for (const res of this.#open) res.cancel();
    this.#open.clear();
  }

  async #request(window: PageWindow): Promise<APIResponse> {
    const { data } = await this.#http.request(
      // Only a query whose input was accepted is sent (`#walk` throws the refusal first).
      { ...this.#spec!, body: { ...this.#params, limit: window.limit, offset: window.offset } },
      this.#options,
      (res) => res,
      "streamed",
    );
    return data;
  }
}

function disposedError(cause?: unknown): APIUserAbortError {
  return new APIUserAbortError("The call query was disposed.", cause === undefined ? undefined : { cause });
}

/**
 * The trace server requires `direction` on every sort item, while the spec leaves it out: an
 * item without one is sent as ascending, instead of failing with a 422.
 */
function withSortDirections(params: CallsQueryParams): CallsQueryParams {
  const sort = params.sort_by;
  if (!Array.isArray(sort) || sort.every((s) => s.direction)) return params;
  return { ...params, sort_by: sort.map((s) => (s.direction ? s : { ...s, direction: "asc" as const })) };
}
