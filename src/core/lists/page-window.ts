/** Rows asked for per request when the caller gives no `pageSize`. */
export const DEFAULT_PAGE_SIZE = 1000;

/**
 * The caller's view of an offset-paged list (a call query, feedback, annotation queues): `limit` caps the total number of records (absent or
 * null: no cap), `offset` is where the first page starts (absent or null: 0), `pageSize` is the
 * number of records asked for per request (default 1000).
 */
export interface PagingPlan {
  limit?: number | null | undefined;
  offset?: number | null | undefined;
  pageSize?: number | undefined;
}

/**
 * The `limit`/`offset` pair to send with one page request. `limit` is always at least 1.
 */
export interface PageWindow {
  limit: number;
  offset: number;
}

function assertCount(name: string, value: number, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new RangeError(`${name} must be an integer >= ${minimum}, got ${String(value)}`);
  }
}

/**
 * The window of the next page request, or `null` when the caller's `limit` has been reached.
 * `received` is the number of records received so far over all earlier pages. Pages follow each
 * other without gap or overlap from `offset`, each asks for `pageSize` records, and the last one
 * asks only for what is left under the cap, so `limit: 0` is never sent. The caller must also
 * stop after a short page; see {@link isShortPage}.
 *
 * @throws RangeError when `pageSize` is not a positive integer, or `limit`, `offset` or
 *   `received` is not a non-negative integer.
 * @example
 * ```ts
 * const plan = { limit: 2500, offset: 100, pageSize: 1000 };
 * nextPageWindow(plan, 0);    // { limit: 1000, offset: 100 }
 * nextPageWindow(plan, 2000); // { limit: 500, offset: 2100 }
 * nextPageWindow(plan, 2500); // null
 * ```
 */
export function nextPageWindow(plan: PagingPlan, received: number): PageWindow | null {
  const pageSize = plan.pageSize ?? DEFAULT_PAGE_SIZE;
  const start = plan.offset ?? 0;
  assertCount("pageSize", pageSize, 1);
  assertCount("offset", start, 0);
  assertCount("received", received, 0);

  let limit = pageSize;
  if (plan.limit != null) {
    assertCount("limit", plan.limit, 0);
    const remaining = plan.limit - received;
    if (remaining <= 0) return null;
    limit = Math.min(pageSize, remaining);
  }
  return { limit, offset: start + received };
}

/**
 * Whether a page came back with fewer records than its window asked for, which means the server
 * has no more: the query must stop without another request.
 *
 * @example
 * ```ts
 * isShortPage({ limit: 1000, offset: 0 }, 1000); // false: ask for the next page
 * isShortPage({ limit: 1000, offset: 0 }, 420);  // true: done
 * ```
 */
export function isShortPage(window: PageWindow, receivedInPage: number): boolean {
  return receivedInPage < window.limit;
}
