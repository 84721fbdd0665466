/**
 * Weave's feedback routes (`/feedback/create`, `/feedback/query`, `/feedback/replace`,
 * `/feedback/purge`): a create or replace is checked by Weave's rules (`checks.ts`) and stored
 * (`store.ts`); purge only by id. A query's rows are sorted by `created_at`, then `id`, unless
 * `sort_by` says otherwise; `fields` keeps only the fields named.
 */
import { compareValues, matchesQuery, validateQuery } from "../calls/query-eval.js";
import { detailError, jsonResponse, reasonError, requireJsonBody } from "../responses.js";
import { type Route, type RouteContext, route } from "../route.js";
import type { FakeRequest, ResponsePlan } from "../types.js";
import { getPath, isRecord } from "../util.js";
import { validateBody } from "../validate.js";
import { checkCreate, createCheck, purgeCheck, queryCheck, replaceCheck } from "./checks.js";
import type { FakeFeedbackRow, FeedbackStore } from "./store.js";

const PURGE_BY_ID = "Can only purge feedback by specifying one or more feedback ids";

function idOfEq(op: unknown): string | undefined {
  const eq = isRecord(op) ? op["$eq"] : undefined;
  if (!Array.isArray(eq) || eq.length !== 2) return undefined;
  const [a, b] = eq as unknown[];
  const field = (x: unknown) => isRecord(x) && x["$getField"] === "id";
  const literalOf = (x: unknown) => (isRecord(x) && typeof x["$literal"] === "string" ? x["$literal"] : undefined);
  if (field(a)) return literalOf(b);
  if (field(b)) return literalOf(a);
  return undefined;
}

function purgeIds(query: unknown): string[] | undefined {
  const expr = isRecord(query) ? query["$expr"] : undefined;
  const one = idOfEq(expr);
  if (one !== undefined) return [one];
  const or = isRecord(expr) && Object.keys(expr).length === 1 ? expr["$or"] : undefined;
  if (!Array.isArray(or) || or.length === 0) return undefined;
  const ids = or.map(idOfEq);
  return ids.every((id): id is string => id !== undefined) ? ids : undefined;
}

function parsed(req: FakeRequest, check: Parameters<typeof validateBody>[0]): Record<string, unknown> | ResponsePlan {
  const body = requireJsonBody(req.body, req.json);
  if (!body.ok) return body.error;
  const issues = validateBody(check, body.value);
  if (isRecord(body.value) && body.value["query"] != null)
    issues.push(...validateQuery(body.value["query"], ["body", "query"]));
  if (issues.length > 0) return detailError(issues);
  return body.value as Record<string, unknown>;
}

const isPlan = (v: unknown): v is ResponsePlan => isRecord(v) && "kind" in v;

function created(row: FakeFeedbackRow): ResponsePlan {
  return jsonResponse(200, {
    id: row.id,
    created_at: row.created_at,
    wb_user_id: row.wb_user_id,
    payload: row.payload,
  });
}

function project(row: FakeFeedbackRow, fields: string[] | null | undefined): Record<string, unknown> {
  if (fields == null || fields.length === 0) return { ...row };
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = getPath(row, f);
  return out;
}

interface FeedbackState {
  feedback: FeedbackStore;
  userId: string;
}

function createFeedback({ req, state }: RouteContext<FeedbackState>): ResponsePlan {
  const store = state.feedback;
  const userId = state.userId;
  const body = parsed(req, createCheck);
  if (isPlan(body)) return body;
  const row = store.create(body, userId);
  return "reason" in row ? reasonError(row.status, row.reason) : created(row);
}

function replaceFeedback({ req, state }: RouteContext<FeedbackState>): ResponsePlan {
  const store = state.feedback;
  const userId = state.userId;
  const body = parsed(req, replaceCheck);
  if (isPlan(body)) return body;
  const { feedback_id: id, ...rest } = body;
  const old = store.rows.findIndex((r) => r.id === id && r.project_id === body["project_id"]);
  if (old < 0) return reasonError(404, `Feedback ${String(id)} not found`);
  const refused = checkCreate(rest);
  if (refused !== undefined) return reasonError(400, refused);
  store.rows.splice(old, 1);
  const row = store.create(rest, userId);
  return "reason" in row ? reasonError(row.status, row.reason) : created(row);
}

function purgeFeedback({ req, state }: RouteContext<FeedbackState>): ResponsePlan {
  const store = state.feedback;
  const body = parsed(req, purgeCheck);
  if (isPlan(body)) return body;
  const ids = purgeIds(body["query"]);
  if (ids === undefined) return reasonError(400, PURGE_BY_ID);
  store.rows = store.rows.filter((r) => !(r.project_id === body["project_id"] && ids.includes(r.id)));
  return jsonResponse(200, {});
}

function queryFeedback({ req, state }: RouteContext<FeedbackState>): ResponsePlan {
  const store = state.feedback;
  const body = parsed(req, queryCheck);
  if (isPlan(body)) return body;
  const q = body as {
    project_id: string;
    fields?: string[] | null;
    query?: { $expr: unknown } | null;
    sort_by?: Array<{ field: string; direction: "asc" | "desc" }> | null;
    limit?: number | null;
    offset?: number | null;
  };
  const rows = store.rows.filter((r) => r.project_id === q.project_id && (q.query == null || matchesQuery(q.query, r)));
  const sorts = q.sort_by ?? [{ field: "created_at", direction: "asc" as const }];
  rows.sort((a, b) => {
    for (const { field, direction } of sorts) {
      const c = compareValues(getPath(a, field), getPath(b, field)) ?? 0;
      if (c !== 0) return direction === "desc" ? -c : c;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  const offset = q.offset ?? 0;
  const end = q.limit == null ? rows.length : offset + q.limit;
  return jsonResponse(200, { result: rows.slice(offset, end).map((r) => project(r, q.fields)) });
}

/** Weave's feedback routes, one row each. */
export const FEEDBACK_ROUTES: ReadonlyArray<Route<FeedbackState>> = [
  route({ method: "POST", path: "/feedback/create", auth: "basic", handle: createFeedback }),
  route({ method: "POST", path: "/feedback/query", auth: "basic", handle: queryFeedback }),
  route({ method: "POST", path: "/feedback/replace", auth: "basic", handle: replaceFeedback }),
  route({ method: "POST", path: "/feedback/purge", auth: "basic", handle: purgeFeedback }),
];
