import { OffsetList } from "../../core/lists/offset-list.js";
import type { CallRecord } from "./types.js";

/**
 * A call query that has not run yet: an {@link OffsetList} of call records. Iterate it for
 * records, `pages()` for arrays, or `toArray()` for everything. Each page is one `POST /calls/stream_query` with `limit`/`offset`,
 * and each page is itself streamed: a record is handed over as soon as its line is parsed, so
 * memory stays flat however many records match. A page cut off mid-body is resumed from the
 * first record not yet delivered, so no record is lost or repeated.
 *
 * Nothing is sent until iteration starts; invalid input rejects the first iteration with
 * `RequestValidationError`. With `await using`, the page request still open is closed when the
 * block ends.
 */
export type CallQuery = OffsetList<CallRecord>;
// The name is a value too, as when it was a class: `query instanceof CallQuery` holds.
export const CallQuery: typeof OffsetList = OffsetList;
