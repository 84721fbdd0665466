/**
 * The training API's cursor pages (`PaginatedResponse`: `data`, `first_id`, `last_id`,
 * `has_more`, paged with `limit` and `after`), shared by checkpoints and job events, and its 404.
 */
import { jsonResponse } from "../responses.js";
import type { ResponsePlan } from "../types.js";

/** The training API's 404: `{ detail: "<what> not found" }`. */
export const notFound = (what: string): ResponsePlan => jsonResponse(404, { detail: `${what} not found` });

/** The issues (FastAPI 422) of a page's `limit` and, where the route takes one, `order`. */
export function queryIssues(query: URLSearchParams, allowOrder: boolean) {
  const issues = [];
  const limit = query.get("limit");
  if (limit !== null) {
    const n = Number(limit);
    if (!/^-?\d+$/.test(limit))
      issues.push({ loc: ["query", "limit"], msg: "Input should be a valid integer", type: "int_parsing" });
    else if (n < 1)
      issues.push({
        loc: ["query", "limit"],
        msg: "Input should be greater than or equal to 1",
        type: "greater_than_equal",
      });
    else if (n > 100)
      issues.push({
        loc: ["query", "limit"],
        msg: "Input should be less than or equal to 100",
        type: "less_than_equal",
      });
  }
  const order = query.get("order");
  if (allowOrder && order !== null && order !== "asc" && order !== "desc")
    issues.push({ loc: ["query", "order"], msg: "Input should be 'asc' or 'desc'", type: "enum" });
  return issues;
}

/** A `PaginatedResponse` page of `items` after the `after` id, or undefined for an unknown cursor. */
export function page<T extends { id: string }>(
  items: T[],
  query: URLSearchParams,
): Record<string, unknown> | undefined {
  const limit = Number(query.get("limit") ?? 20);
  const after = query.get("after");
  let start = 0;
  if (after !== null) {
    const at = items.findIndex((i) => i.id === after);
    if (at < 0) return undefined;
    start = at + 1;
  }
  const data = items.slice(start, start + limit);
  return {
    object: "list",
    data,
    first_id: data[0]?.id ?? "",
    last_id: data.at(-1)?.id ?? "",
    has_more: start + limit < items.length,
  };
}
