/**
 * Weave's feedback routes (`/feedback/create`, `/feedback/query`, `/feedback/replace`,
 * `/feedback/purge`) and the feedback a call query returns with `include_feedback`.
 *
 * Rules as Weave's `validate_feedback_create_req` and `process_feedback_payload` apply them,
 * each a 400 `{reason}`: `wandb.reaction.1` takes `{emoji}` (the stored payload gains `alias`,
 * `detoned` and `detoned_alias`), `wandb.note.1` `{note}` of 1-1024 characters,
 * `wandb.annotation.<name>` needs an `annotation_ref` to an object named `<name>` in the same
 * project and a `payload.value` (the fake has no object store, so any such ref resolves),
 * `annotation_ref` on other types is refused, `wandb.runnable.<name>` needs `runnable_ref` and
 * `payload.output`; purge only by id. A query's rows are sorted by `created_at`, then `id`,
 * unless `sort_by` says otherwise; `fields` keeps only the fields named.
 */
import { compareValues, matchesQuery, validateQuery } from "../calls/query-eval.js";
import { detailError, jsonResponse, reasonError, requireJsonBody } from "../responses.js";
import { type Route, type RouteContext, route } from "../route.js";
import type { CallRecord, FakeRequest, ResponsePlan } from "../types.js";
import { getPath, isoMicros, isRecord, randomUuid } from "../util.js";
import { anything, dict, int, list, literal, nullable, obj, str, validateBody } from "../validate.js";

/**
 * One stored feedback row, as Weave keeps it.
 */
export interface FeedbackRow {
  id: string;
  project_id: string;
  weave_ref: string;
  wb_user_id: string;
  creator: string | null;
  created_at: string;
  feedback_type: string;
  payload: Record<string, unknown>;
  annotation_ref: string | null;
  runnable_ref: string | null;
  call_ref: string | null;
  trigger_ref: string | null;
  queue_id: string | null;
}

/**
 * Aliases of the emoji the fake knows (Weave uses the full emoji table).
 */
export const EMOJI_ALIASES: Record<string, string> = {
  "👍": ":thumbs_up:",
  "👎": ":thumbs_down:",
  "🎉": ":party_popper:",
  "❤️": ":red_heart:",
  "🤔": ":thinking_face:",
};

const ANNOTATION = "wandb.annotation";
const RUNNABLE = "wandb.runnable";
const OBJECT_REF = /^weave:\/\/\/([^/]+\/[^/]+)\/object\/([^/:]+):([^/]+)$/;

/**
 * The feedback of one fake service.
 *
 * @example
 * ```ts
 * svc.state.feedback.forCall(referenceCalls()[0]!); // [] until feedback is created on it
 * ```
 */
export class FeedbackStore {
  rows: FeedbackRow[] = [];
  private clock: () => number;
  private last = 0;

  constructor(clock: () => number = Date.now) {
    this.clock = clock;
  }

  /** Strictly increasing times, so that creation order is the default order. */
  private now(): string {
    this.last = Math.max(this.clock(), this.last + 1);
    return isoMicros(this.last);
  }

  /**
   * Validates and stores one row; returns it, or the refusal.
   *
   * @example
   * ```ts
   * const [call] = referenceCalls();
   * const weave_ref = `weave:///${call!.project_id}/call/${call!.id}`;
   * svc.state.feedback.create({ project_id: call!.project_id, weave_ref, feedback_type: "score", payload: { value: 1 } }, svc.userId);
   * ```
   */
  create(body: Record<string, unknown>, userId: string): FeedbackRow | { status: number; reason: string } {
    const refused = checkCreate(body);
    if (refused !== undefined) return { status: 400, reason: refused };
    const type = body["feedback_type"] as string;
    const payload = { ...(body["payload"] as Record<string, unknown>) };
    if (type === "wandb.reaction.1") {
      const emoji = payload["emoji"] as string;
      const alias = EMOJI_ALIASES[emoji] ?? `:${[...emoji].map((c) => c.codePointAt(0)!.toString(16)).join("_")}:`;
      payload["alias"] = alias;
      payload["detoned"] = emoji;
      payload["detoned_alias"] = alias;
    }
    const nullableStr = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : null);
    const row: FeedbackRow = {
      id: typeof body["id"] === "string" && body["id"] !== "" ? body["id"] : randomUuid(),
      project_id: body["project_id"] as string,
      weave_ref: body["weave_ref"] as string,
      wb_user_id: userId,
      creator: nullableStr("creator"),
      created_at: this.now(),
      feedback_type: type,
      payload,
      annotation_ref: nullableStr("annotation_ref"),
      runnable_ref: nullableStr("runnable_ref"),
      call_ref: nullableStr("call_ref"),
      trigger_ref: nullableStr("trigger_ref"),
      queue_id: nullableStr("queue_id"),
    };
    this.rows.push(row);
    return row;
  }

  /**
   * The feedback of a call as `include_feedback` adds it at `summary.weave.feedback`: the rows
   * whose `weave_ref` is the call's ref, with the fields Weave's hydration asks for (no `id`).
   *
   * @example
   * ```ts
   * svc.state.feedback.forCall(referenceCalls()[0]!).map((f) => f["feedback_type"]);
   * ```
   */
  forCall(record: CallRecord): Array<Record<string, unknown>> {
    const ref = `weave:///${record.project_id}/call/${record.id}`;
    const out: Array<Record<string, unknown>> = [];
    for (const row of this.rows) {
      if (row.project_id !== record.project_id || row.weave_ref !== ref) continue;
      out.push({
        feedback_type: row.feedback_type,
        weave_ref: row.weave_ref,
        payload: row.payload,
        creator: row.creator,
        created_at: row.created_at,
        wb_user_id: row.wb_user_id,
        annotation_ref: row.annotation_ref,
        runnable_ref: row.runnable_ref,
        call_ref: row.call_ref,
        trigger_ref: row.trigger_ref,
      });
    }
    return out;
  }

  /**
   * Forgets every row.
   *
   * @example
   * ```ts
   * svc.state.feedback.clear();
   * ```
   */
  clear(): void {
    this.rows = [];
  }
}

function checkCreate(body: Record<string, unknown>): string | undefined {
  const type = body["feedback_type"] as string;
  const payload = body["payload"] as Record<string, unknown>;
  const projectId = body["project_id"] as string;
  const weaveRef = body["weave_ref"] as string;
  if (!weaveRef.startsWith("weave:///")) return `Invalid weave_ref: ${weaveRef}`;
  if (type === "wandb.reaction.1") {
    const emoji = payload["emoji"];
    if (typeof emoji !== "string") return "Invalid payload for feedback_type wandb.reaction.1: emoji Field required";
    if ([...emoji.replace(/\uFE0F/g, "")].length !== 1 || !/\p{Extended_Pictographic}/u.test(emoji))
      return "Value of emoji key in payload must be exactly one emoji";
  }
  if (type === "wandb.note.1") {
    const note = payload["note"];
    if (typeof note !== "string" || note.length < 1 || note.length > 1024)
      return "Invalid payload for feedback_type wandb.note.1: note must be a string of 1 to 1024 characters";
  }
  const annotationRef = body["annotation_ref"];
  if (type.startsWith(ANNOTATION)) {
    if (!type.startsWith(`${ANNOTATION}.`)) return `Invalid annotation feedback type: ${type}`;
    if (typeof annotationRef !== "string" || annotationRef === "")
      return "annotation_ref is required for annotation feedback";
    const m = OBJECT_REF.exec(annotationRef);
    if (m === null) return `Invalid ref: ${annotationRef}`;
    if (m[2] !== type.slice(ANNOTATION.length + 1))
      return `annotation_ref must point to an object with name ${type.slice(ANNOTATION.length + 1)}`;
    if (!("value" in payload)) return `Invalid payload for feedback_type ${type}: value Field required`;
    if (m[1] !== projectId) return `Annotation ref ${annotationRef} does not match project id ${projectId}`;
  } else if (typeof annotationRef === "string" && annotationRef !== "") {
    return "annotation_ref is not allowed for non-annotation feedback";
  } else if (type.startsWith(RUNNABLE)) {
    if (!type.startsWith(`${RUNNABLE}.`)) return `Invalid runnable feedback type: ${type}`;
    if (typeof body["runnable_ref"] !== "string") return "runnable_ref is required for runnable feedback";
    if (!("output" in payload)) return `Invalid payload for feedback_type ${type}: output Field required`;
  } else if (typeof body["runnable_ref"] === "string") {
    return "runnable_ref is not allowed for non-runnable feedback";
  } else if (typeof body["call_ref"] === "string") {
    return "call_ref is not allowed for non-runnable feedback";
  } else if (typeof body["trigger_ref"] === "string") {
    return "trigger_ref is not allowed for non-runnable feedback";
  }
  return undefined;
}

const optionalStr = { check: nullable(str()) };
const createFields = {
  project_id: { check: str(), required: true },
  weave_ref: { check: str(), required: true },
  feedback_type: { check: str(), required: true },
  payload: { check: dict(anything()), required: true },
  annotation_ref: optionalStr,
  runnable_ref: optionalStr,
  call_ref: optionalStr,
  trigger_ref: optionalStr,
  creator: optionalStr,
  queue_id: optionalStr,
  id: optionalStr,
  wb_user_id: optionalStr,
};
// Weave's feedback request models forbid unknown keys.
const createCheck = obj(createFields, "forbid");
const replaceCheck = obj({ ...createFields, feedback_id: { check: str(), required: true } }, "forbid");
const sortCheck = obj(
  { field: { check: str(), required: true }, direction: { check: literal(["asc", "desc"]), required: true } },
  "forbid",
);
const queryCheck = obj(
  {
    project_id: { check: str(), required: true },
    fields: { check: nullable(list(str())) },
    query: { check: anything() },
    sort_by: { check: nullable(list(sortCheck)) },
    limit: { check: nullable(int()) },
    offset: { check: nullable(int()) },
  },
  "forbid",
);
const purgeCheck = obj(
  { project_id: { check: str(), required: true }, query: { check: anything(), required: true } },
  "forbid",
);

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

function created(row: FeedbackRow): ResponsePlan {
  return jsonResponse(200, {
    id: row.id,
    created_at: row.created_at,
    wb_user_id: row.wb_user_id,
    payload: row.payload,
  });
}

function project(row: FeedbackRow, fields: string[] | null | undefined): Record<string, unknown> {
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
