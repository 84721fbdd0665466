/**
 * Weave's annotation-queue routes: an item's progress per annotator (the transition rules are
 * the store's, `store.ts`), queues created, listed (NDJSON), read, updated and soft-deleted,
 * their stats, and items added and listed. As Weave's `annotation_queues` query builders and
 * ClickHouse code do:
 *
 * - Queues list newest first (`created_at` desc, then `id`); items oldest first (`created_at`
 *   asc, then `id`). A sort field that cannot be sorted by is ignored; every order ends with the
 *   id.
 * - A deleted queue is kept with `deleted_at` set: reads answer 404, lists leave it out.
 * - Adding calls skips those already in the queue (`duplicates`) and, silently, ids of calls
 *   the project does not hold.
 * - Stats count an item completed when any reviewer completed or skipped it.
 */

import type { CallStore } from "../calls/store.js";
import { detailError, jsonResponse, reasonError, requireJsonBody } from "../responses.js";
import { type Route, type RouteContext, route } from "../route.js";
import type { FakeRequest, ResponsePlan } from "../types.js";
import { compareTimes, isoMicros, isRecord } from "../util.js";
import type { Check } from "../validate.js";
import { validateBody } from "../validate.js";
import {
  addCheck,
  createCheck,
  itemsQueryCheck,
  progressCheck,
  queryCheck,
  statsCheck,
  updateCheck,
} from "./checks.js";
import type { AnnotationStore, FakeAnnotationQueue } from "./store.js";

const QUEUE_SORT_FIELDS = new Set(["id", "name", "created_at", "updated_at"]);
const ITEM_SORT_FIELDS = new Set(["call_started_at", "call_op_name", "created_at", "updated_at"]);
type Sort = Array<{ field: string; direction: "asc" | "desc" }>;

function byFields<T extends { id: string }>(sorts: Sort, allowed: Set<string>): (a: T, b: T) => number {
  const usable = sorts.filter((s) => allowed.has(s.field));
  return (a, b) => {
    for (const { field, direction } of usable) {
      const x = (a as Record<string, unknown>)[field];
      const y = (b as Record<string, unknown>)[field];
      const c =
        field.endsWith("_at") && typeof x === "string" && typeof y === "string"
          ? compareTimes(x, y)
          : String(x) < String(y)
            ? -1
            : String(x) > String(y)
              ? 1
              : 0;
      if (c !== 0) return direction === "desc" ? -c : c;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

function queueView(queue: FakeAnnotationQueue): Record<string, unknown> {
  const { items: _items, ...view } = queue;
  return { ...view, scorer_refs: [...queue.scorer_refs] };
}

function liveQueue(store: AnnotationStore, queueId: string, projectId: string): FakeAnnotationQueue | undefined {
  const queue = store.queues.get(queueId);
  return queue !== undefined && queue.project_id === projectId && queue.deleted_at === null ? queue : undefined;
}

const notFound = (queueId: string) => reasonError(404, `Queue ${queueId} not found`);

function body(req: FakeRequest, check: Check): Record<string, unknown> | ResponsePlan {
  const parsed = requireJsonBody(req.body, req.json);
  if (!parsed.ok) return parsed.error;
  const issues = validateBody(check, parsed.value);
  return issues.length > 0 ? detailError(issues) : (parsed.value as Record<string, unknown>);
}

const isPlan = (v: unknown): v is ResponsePlan => isRecord(v) && "kind" in v;

function projectParam(req: FakeRequest): string | ResponsePlan {
  const projectId = new URLSearchParams(req.query).get("project_id");
  if (projectId === null)
    return detailError([{ loc: ["query", "project_id"], msg: "Field required", type: "missing" }]);
  return projectId;
}

interface QueueState {
  annotation: AnnotationStore;
  calls: CallStore;
  userId: string;
}

/**
 * Handles the progress route (auth already checked; `userId` is the session's user).
 */
export function handleProgress(
  req: FakeRequest,
  store: AnnotationStore,
  queueId: string,
  itemId: string,
  userId: string,
): ResponsePlan {
  const parsed = requireJsonBody(req.body, req.json);
  if (!parsed.ok) return parsed.error;
  const issues = validateBody(progressCheck, parsed.value);
  if (issues.length > 0) return detailError(issues);
  const body = parsed.value as { annotation_state: string; project_id: string };
  const result = store.progress(queueId, itemId, body.project_id, body.annotation_state, userId);
  return "item" in result ? jsonResponse(200, { item: result.item }) : reasonError(result.status, result.reason);
}

function createQueue({ req, state }: RouteContext<QueueState>): ResponsePlan {
  const b = body(req, createCheck);
  if (isPlan(b)) return b;
  const queue = state.annotation.addQueue({
    project_id: b["project_id"] as string,
    name: b["name"] as string,
    description: typeof b["description"] === "string" ? b["description"] : "",
    created_by: state.userId,
  });
  queue.scorer_refs = [...(b["scorer_refs"] as string[])];
  return jsonResponse(200, { id: queue.id });
}

function queryQueues({ req, state }: RouteContext<QueueState>): ResponsePlan {
  const b = body(req, queryCheck);
  if (isPlan(b)) return b;
  const name = typeof b["name"] === "string" ? b["name"].toLowerCase() : undefined;
  const queues = [...state.annotation.queues.values()].filter(
    (q) =>
      q.project_id === b["project_id"] &&
      q.deleted_at === null &&
      (name === undefined || q.name.toLowerCase().includes(name)),
  );
  queues.sort(
    byFields((b["sort_by"] as Sort | null) ?? [{ field: "created_at", direction: "desc" }], QUEUE_SORT_FIELDS),
  );
  const offset = (b["offset"] as number | null) ?? 0;
  const limit = b["limit"] as number | null | undefined;
  const page = queues.slice(offset, limit == null ? undefined : offset + limit);
  return {
    kind: "respond",
    status: 200,
    headers: { "content-type": "application/x-ndjson" },
    body: (async function* () {
      for (const q of page) yield `${JSON.stringify(queueView(q))}\n`;
    })(),
  };
}

function queueStats({ req, state }: RouteContext<QueueState>): ResponsePlan {
  const b = body(req, statsCheck);
  if (isPlan(b)) return b;
  const stats = [];
  for (const id of b["queue_ids"] as string[]) {
    const queue = liveQueue(state.annotation, id, b["project_id"] as string);
    if (queue === undefined) continue;
    let completed = 0;
    for (const item of queue.items.values())
      if ([...item.progress.values()].some((p) => p.state === "completed" || p.state === "skipped")) completed++;
    stats.push({ queue_id: id, total_items: queue.items.size, completed_items: completed });
  }
  return jsonResponse(200, { stats });
}

function addItems({ req, state, params }: RouteContext<QueueState, { queue_id: string }>): ResponsePlan {
  const queueId = params.queue_id;
  const b = body(req, addCheck);
  if (isPlan(b)) return b;
  const queue = liveQueue(state.annotation, queueId, b["project_id"] as string);
  if (queue === undefined) return notFound(queueId);
  const present = new Set([...queue.items.values()].map((i) => i.call_id));
  const wanted = new Set(b["call_ids"] as string[]);
  let added = 0;
  let duplicates = 0;
  for (const id of wanted) {
    if (present.has(id)) {
      duplicates++;
      continue;
    }
    const call = state.calls.find(b["project_id"] as string, id);
    if (call === undefined) continue;
    state.annotation.addItem(queueId, {
      call,
      display_fields: [...(b["display_fields"] as string[])],
      added_by: state.userId,
    });
    present.add(id);
    added++;
  }
  return jsonResponse(200, { added_count: added, duplicates });
}

function queryItems({ req, state, params }: RouteContext<QueueState, { queue_id: string }>): ResponsePlan {
  const queueId = params.queue_id;
  const store = state.annotation;
  const b = body(req, itemsQueryCheck);
  if (isPlan(b)) return b;
  const queue = liveQueue(store, queueId, b["project_id"] as string);
  if (queue === undefined) return notFound(queueId);
  const all = [...queue.items.keys()].map((id) => store.getItem(queueId, id)!).filter((i) => i.deleted_at === null);
  const inQueueOrder = [...all].sort(byFields([{ field: "created_at", direction: "asc" }], ITEM_SORT_FIELDS));
  const position = new Map(inQueueOrder.map((item, i) => [item.id, i + 1]));
  const f = (b["filter"] ?? {}) as Record<string, unknown>;
  const eq = (key: string, value: unknown) => f[key] == null || f[key] === value;
  const states = f["annotation_states"] as string[] | null | undefined;
  const items = all.filter(
    (i) =>
      eq("id", i.id) &&
      eq("call_id", i.call_id) &&
      eq("call_op_name", i.call_op_name) &&
      eq("call_trace_id", i.call_trace_id) &&
      eq("added_by", i.added_by) &&
      (states == null || states.includes(i.annotation_state)),
  );
  items.sort(byFields((b["sort_by"] as Sort | null) ?? [{ field: "created_at", direction: "asc" }], ITEM_SORT_FIELDS));
  const offset = (b["offset"] as number | null) ?? 0;
  const limit = b["limit"] as number | null | undefined;
  const page = items.slice(offset, limit == null ? undefined : offset + limit).map((item) => ({
    ...item,
    position_in_queue: b["include_position"] === true ? position.get(item.id)! : null,
  }));
  return jsonResponse(200, { items: page });
}

function updateQueue({ req, state, params }: RouteContext<QueueState, { queue_id: string }>): ResponsePlan {
  const queueId = params.queue_id;
  const b = body(req, updateCheck);
  if (isPlan(b)) return b;
  const queue = liveQueue(state.annotation, queueId, b["project_id"] as string);
  if (queue === undefined) return notFound(queueId);
  if (typeof b["name"] === "string") queue.name = b["name"];
  if (typeof b["description"] === "string") queue.description = b["description"];
  if (Array.isArray(b["scorer_refs"])) queue.scorer_refs = [...(b["scorer_refs"] as string[])];
  queue.updated_at = isoMicros(Date.now());
  return jsonResponse(200, { queue: queueView(queue) });
}

/** GET reads the queue; DELETE soft-deletes it (kept with `deleted_at`) and answers it. */
function readOrDeleteQueue({ req, state, params }: RouteContext<QueueState, { queue_id: string }>): ResponsePlan {
  const queueId = params.queue_id;
  const projectId = projectParam(req);
  if (typeof projectId !== "string") return projectId;
  const queue = liveQueue(state.annotation, queueId, projectId);
  if (queue === undefined) return notFound(queueId);
  if (req.method === "DELETE") {
    queue.deleted_at = isoMicros(Date.now());
    queue.updated_at = queue.deleted_at;
  }
  return jsonResponse(200, { queue: queueView(queue) });
}

/** The annotation-queue routes, one row each; `userId` is the Basic-auth session's user. */
export const ANNOTATION_QUEUE_ROUTES: ReadonlyArray<Route<QueueState>> = [
  route({
    method: "POST",
    path: "/annotation_queues/{queue_id}/items/{item_id}/progress",
    auth: "basic",
    handle: ({ req, state, params }) =>
      handleProgress(req, state.annotation, params.queue_id, params.item_id, state.userId),
  }),
  route({ method: "POST", path: "/annotation_queues", auth: "basic", handle: createQueue }),
  route({ method: "POST", path: "/annotation_queues/query", auth: "basic", handle: queryQueues }),
  route({ method: "POST", path: "/annotation_queues/stats", auth: "basic", handle: queueStats }),
  route({ method: "POST", path: "/annotation_queues/{queue_id}/items", auth: "basic", handle: addItems }),
  route({ method: "POST", path: "/annotation_queues/{queue_id}/items/query", auth: "basic", handle: queryItems }),
  route({ method: "GET", path: "/annotation_queues/{queue_id}", auth: "basic", handle: readOrDeleteQueue }),
  route({ method: "PUT", path: "/annotation_queues/{queue_id}", auth: "basic", handle: updateQueue }),
  route({ method: "DELETE", path: "/annotation_queues/{queue_id}", auth: "basic", handle: readOrDeleteQueue }),
];
