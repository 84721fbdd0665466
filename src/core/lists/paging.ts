/**
 * How a list endpoint declares its pages (`page` of its declaration): offset pages
 * (`limit`/`offset` in the body, rows in a JSON member or one per line) or cursor pages (an
 * `after` query parameter, W&B's `PaginatedResponse`). The row type rides along, so a list's
 * declaration names its row once.
 *
 * @module
 */
import * as z from "zod/mini";

/**
 * Where an offset page's rows are: a member of a JSON object (`items`, `result`), or one JSON
 * value per line (JSONL, NDJSON), named as the deadline's message names one (`"JSONL record"`).
 */
export type RowSource = { member: string } | { lines: string };

/** Pages asked for with `limit`/`offset` in the body, as Weave's query routes page. */
export interface OffsetPaging<Row> {
  readonly kind: "offset";
  readonly rows: RowSource;
  /** What one row is called in errors: `"call record"`, `"feedback row"`. */
  readonly row: string;
  /** The list's own options beside the request options (`pageSize`, a call query's `accept`). */
  readonly options: z.ZodMiniType;
  /** Never set: carries the row type. */
  readonly rowType?: Row;
}

/** Pages asked for with an `after` cursor, W&B Training's lists. */
export interface CursorPaging<Row> {
  readonly kind: "cursor";
  readonly row: string;
  readonly rowType?: Row;
}

/** A list endpoint's pages. */
export type Paging<Row> = OffsetPaging<Row> | CursorPaging<Row>;

/**
 * Options of an offset-paged list, beside the request options.
 */
export interface PagedListOptions {
  /** Rows per request, a positive integer; default 1000. */
  pageSize?: number | undefined;
}

/**
 * {@link PagedListOptions} checked. Loose, so the request options (`signal`, `timeout`, ...)
 * travel in the same object untouched.
 */
const pagedListOptionsSchema = z.looseObject({
  pageSize: z.optional(z.int().check(z.positive())),
});

/** Offset pages whose rows are `Row`s, in a JSON member or one per line. */
export function offsetPages<Row>(
  row: string,
  rows: RowSource,
  options: z.ZodMiniType = pagedListOptionsSchema,
): OffsetPaging<Row> {
  return { kind: "offset", rows, row, options };
}

/** Cursor pages whose rows are `Row`s (each with the `id` the next cursor is made of). */
export function cursorPages<Row extends { id: string }>(row: string): CursorPaging<Row> {
  return { kind: "cursor", row };
}
