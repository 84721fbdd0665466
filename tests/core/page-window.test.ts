import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isShortPage, nextPageWindow, type PageWindow, type PagingPlan } from "../../src/core/lists/page-window.js";

/** Runs the loop a CallQuery runs, against a server holding records 0..total-1. */
function runQuery(plan: PagingPlan, total: number) {
  const requests: PageWindow[] = [];
  const records: number[] = [];
  for (;;) {
    const window = nextPageWindow(plan, records.length);
    if (window === null) break;
    requests.push(window);
    const end = Math.min(window.offset + window.limit, total);
    const page: number[] = [];
    for (let i = window.offset; i < end; i++) page.push(i);
    records.push(...page);
    if (isShortPage(window, page.length)) break;
    if (requests.length > 10_000) throw new Error("runaway paging");
  }
  return { requests, records };
}

describe("nextPageWindow", () => {
  it("pages by the default size of 1000 from 0 without a cap", () => {
    expect(nextPageWindow({}, 0)).toEqual({ limit: 1000, offset: 0 });
    expect(nextPageWindow({}, 1000)).toEqual({ limit: 1000, offset: 1000 });
    expect(nextPageWindow({ limit: null, offset: null }, 3000)).toEqual({ limit: 1000, offset: 3000 });
  });

  it("starts at the caller's offset", () => {
    expect(nextPageWindow({ offset: 40, pageSize: 10 }, 0)).toEqual({ limit: 10, offset: 40 });
    expect(nextPageWindow({ offset: 40, pageSize: 10 }, 20)).toEqual({ limit: 10, offset: 60 });
  });

  it("asks only for what is left under the caller's limit, then stops", () => {
    const plan = { limit: 2500, offset: 100, pageSize: 1000 };
    expect(nextPageWindow(plan, 0)).toEqual({ limit: 1000, offset: 100 });
    expect(nextPageWindow(plan, 1000)).toEqual({ limit: 1000, offset: 1100 });
    expect(nextPageWindow(plan, 2000)).toEqual({ limit: 500, offset: 2100 });
    expect(nextPageWindow(plan, 2500)).toBeNull();
  });

  it("uses a limit smaller than the page size as the only page", () => {
    expect(nextPageWindow({ limit: 7 }, 0)).toEqual({ limit: 7, offset: 0 });
    expect(nextPageWindow({ limit: 7 }, 7)).toBeNull();
  });

  it("never asks for limit 0: a caller's limit of 0 means no request", () => {
    expect(nextPageWindow({ limit: 0 }, 0)).toBeNull();
    expect(nextPageWindow({ limit: 0, offset: 10, pageSize: 5 }, 0)).toBeNull();
  });

  it("stops if a server sent more than the cap", () => {
    expect(nextPageWindow({ limit: 5 }, 9)).toBeNull();
  });

  it.each([
    ["pageSize 0", { pageSize: 0 }, 0],
    ["negative pageSize", { pageSize: -1 }, 0],
    ["fractional pageSize", { pageSize: 1.5 }, 0],
    ["NaN pageSize", { pageSize: Number.NaN }, 0],
    ["negative limit", { limit: -1 }, 0],
    ["fractional limit", { limit: 2.5 }, 0],
    ["negative offset", { offset: -1 }, 0],
    ["infinite offset", { offset: Infinity }, 0],
    ["negative received", {}, -1],
  ])("throws RangeError for %s", (_name, plan, received) => {
    expect(() => nextPageWindow(plan, received)).toThrow(RangeError);
  });
});

describe("isShortPage", () => {
  it("is true only when fewer records came back than asked for", () => {
    expect(isShortPage({ limit: 10, offset: 0 }, 10)).toBe(false);
    expect(isShortPage({ limit: 10, offset: 0 }, 9)).toBe(true);
    expect(isShortPage({ limit: 10, offset: 0 }, 0)).toBe(true);
  });
});

describe("paging loop", () => {
  it("makes one extra request only when the data runs out on a page boundary", () => {
    expect(runQuery({ pageSize: 10 }, 20).requests).toEqual([
      { limit: 10, offset: 0 },
      { limit: 10, offset: 10 },
      { limit: 10, offset: 20 },
    ]);
    expect(runQuery({ pageSize: 10, limit: 20 }, 20).requests).toHaveLength(2);
    expect(runQuery({ pageSize: 10 }, 0).requests).toEqual([{ limit: 10, offset: 0 }]);
  });

  it("covers exactly [offset, offset + min(limit, total - offset)) with the fewest requests", () => {
    const optionalCount = (max: number) =>
      fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer({ min: 0, max }));
    fc.assert(
      fc.property(
        optionalCount(60),
        optionalCount(60),
        fc.option(fc.integer({ min: 1, max: 25 }), { nil: undefined }),
        fc.integer({ min: 0, max: 120 }),
        (limit, offset, pageSize, total) => {
          const plan: PagingPlan = { limit, offset, pageSize };
          const { requests, records } = runQuery(plan, total);

          const start = offset ?? 0;
          const available = Math.max(0, total - start);
          const expectedCount = limit == null ? available : Math.min(limit, available);
          const expected = Array.from({ length: expectedCount }, (_, i) => start + i);
          // Records in order, each once: the windows tile the range without gap or overlap.
          expect(records).toEqual(expected);

          const size = pageSize ?? 1000;
          for (const window of requests) {
            expect(window.limit).toBeGreaterThanOrEqual(1);
            expect(window.limit).toBeLessThanOrEqual(size);
          }
          for (let i = 1; i < requests.length; i++) {
            const previous = requests[i - 1]!;
            expect(requests[i]!.offset).toBe(previous.offset + previous.limit);
          }

          // The cap is met: ceil(count / size) requests, none after it. The data ran out
          // first: every full page, plus the one short (possibly empty) page that said so.
          const capReached = limit != null && expectedCount === limit;
          const minimal = capReached ? Math.ceil(expectedCount / size) : Math.floor(expectedCount / size) + 1;
          expect(requests).toHaveLength(minimal);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
