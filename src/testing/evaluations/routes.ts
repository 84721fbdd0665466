/**
 * The routes an evaluation writes to and reads from Weave's trace server, in the fake: files
 * (`POST /file/create`, a form), objects (`/obj/create`, `/obj/read`), tables (`/table/create`,
 * `/table/query`), calls (`/call/start`, `/call/end`, `/call/upsert_batch`: stored with the
 * other calls, so the calls query shows them) and `POST /v2/{entity}/{project}/eval_results/query`,
 * as `wandb/weave` `weave/trace_server/reference/generate.py` declares them; bodies checked by
 * Weave's request models (`checks.ts`), objects, tables and files kept content-addressed
 * (`store.ts`). `eval_results/query` groups the calls as
 * `weave/trace_server/eval_results_helpers.py` does.
 */
import type { CallStore } from "../calls/store.js";
import { detailError, jsonResponse, reasonError, requireJsonBody } from "../responses.js";
import type { Route, RouteContext } from "../route.js";
import { route } from "../route.js";
import type { FakeCallRecord, FakeRequest, ResponsePlan } from "../types.js";
import { isRecord, randomUuid } from "../util.js";
import type { Check, ValidationIssue } from "../validate.js";
import { validateBody } from "../validate.js";
import {
  batchCheck,
  endCheck,
  evalResultsCheck,
  objCreateCheck,
  objectIdProblem,
  objReadCheck,
  startCheck,
  tableCreateCheck,
  tableQueryCheck,
} from "./checks.js";
import { type EvalResultsRequest, evalResultsQuery } from "./results.js";
import type { WeaveObjectStore } from "./store.js";

type EvaluationState = { weave: WeaveObjectStore; calls: CallStore; userId: string };

function parsed(req: FakeRequest, check: Check): Record<string, unknown> | ResponsePlan {
  const body = requireJsonBody(req.body, req.json);
  if (!body.ok) return body.error;
  const issues = validateBody(check, body.value);
  return issues.length > 0 ? detailError(issues) : (body.value as Record<string, unknown>);
}

const isPlan = (v: unknown): v is ResponsePlan => isRecord(v) && "kind" in v;

function objCreate({ req, state }: RouteContext<EvaluationState>): ResponsePlan {
  const body = parsed(req, objCreateCheck);
  if (isPlan(body)) return body;
  const o = body["obj"] as { project_id: string; object_id: string; val: unknown };
  const problem = objectIdProblem(o.object_id);
  if (problem !== undefined) return reasonError(400, problem);
  // The same content again is the same version.
  const digest = state.weave.createObject(o.project_id, o.object_id, o.val);
  return jsonResponse(200, { digest, object_id: o.object_id });
}

function objRead({ req, state }: RouteContext<EvaluationState>): ResponsePlan {
  const body = parsed(req, objReadCheck);
  if (isPlan(body)) return body;
  const { project_id, object_id, digest } = body as { project_id: string; object_id: string; digest: string };
  const found = state.weave.read(project_id, object_id, digest);
  if (found === undefined) return reasonError(404, `Obj ${object_id}:${digest} not found`);
  const versions = state.weave.objects.get(`${project_id}\u0000${object_id}`)!;
  return jsonResponse(200, {
    obj: { ...found, deleted_at: null, is_latest: found === versions.at(-1) ? 1 : 0, wb_user_id: state.userId },
  });
}

function tableCreate({ req, state }: RouteContext<EvaluationState>): ResponsePlan {
  const body = parsed(req, tableCreateCheck);
  if (isPlan(body)) return body;
  const { project_id, rows } = body["table"] as { project_id: string; rows: unknown[] };
  return jsonResponse(200, state.weave.createTable(project_id, rows));
}

function tableQuery({ req, state }: RouteContext<EvaluationState>): ResponsePlan {
  const body = parsed(req, tableQueryCheck);
  if (isPlan(body)) return body;
  const { project_id, digest, filter, limit, offset } = body as {
    project_id: string;
    digest: string;
    filter?: { row_digests?: string[] | null } | null;
    limit?: number | null;
    offset?: number | null;
  };
  const table = state.weave.tables.get(`${project_id}\u0000${digest}`);
  if (table === undefined) return reasonError(404, `Table ${digest} not found`);
  const wanted = filter?.row_digests == null ? undefined : new Set(filter.row_digests);
  const rows = table.rows
    .map((val, i) => ({ digest: table.digests[i]!, val, original_index: i }))
    .filter((r) => wanted === undefined || wanted.has(r.digest));
  const start = offset ?? 0;
  return jsonResponse(200, { rows: rows.slice(start, limit == null ? undefined : start + limit) });
}

/** The parts of a multipart form body: each field's value and, for a file, its name. */
function formParts(req: FakeRequest): Map<string, { value: string; filename: string | undefined }> | undefined {
  const boundary = /boundary="?([^";]+)"?/i.exec(req.headers["content-type"] ?? "")?.[1];
  if (boundary === undefined) return undefined;
  const parts = new Map<string, { value: string; filename: string | undefined }>();
  for (const chunk of req.body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith("--")) break;
    const at = chunk.indexOf("\r\n\r\n");
    if (at < 0) continue;
    const head = chunk.slice(0, at);
    const name = /name="([^"]*)"/.exec(head)?.[1];
    if (name === undefined) continue;
    const value = chunk.slice(at + 4).replace(/\r\n$/, "");
    parts.set(name, { value, filename: /filename="([^"]*)"/.exec(head)?.[1] });
  }
  return parts;
}

function fileCreate({ req, state }: RouteContext<EvaluationState>): ResponsePlan {
  const parts = formParts(req) ?? new Map();
  const issues: ValidationIssue[] = [];
  for (const field of ["project_id", "file"])
    if (!parts.has(field)) issues.push({ loc: ["body", field], msg: "Field required", type: "missing" });
  if (issues.length > 0) return detailError(issues);
  return jsonResponse(200, {
    digest: state.weave.createFile(parts.get("project_id")!.value, parts.get("file")!.value),
  });
}

type Start = Record<string, unknown> & { project_id: string; op_name: string; started_at: string };
type End = Record<string, unknown> & { project_id: string; id: string; ended_at: string };

function endOf(record: FakeCallRecord, end: End): FakeCallRecord {
  return {
    ...record,
    ended_at: end.ended_at,
    exception: end.exception ?? null,
    output: end.output ?? null,
    summary: end.summary,
  };
}

function startCall(state: EvaluationState, start: Start): { id: string; trace_id: string } {
  const id = typeof start["id"] === "string" ? start["id"] : randomUuid();
  const traceId = typeof start["trace_id"] === "string" ? start["trace_id"] : randomUuid();
  const record: FakeCallRecord = {
    id,
    project_id: start.project_id,
    op_name: start.op_name,
    display_name: (start["display_name"] as string | null | undefined) ?? null,
    trace_id: traceId,
    parent_id: (start["parent_id"] as string | null | undefined) ?? null,
    thread_id: (start["thread_id"] as string | null | undefined) ?? null,
    turn_id: (start["turn_id"] as string | null | undefined) ?? null,
    started_at: start.started_at,
    ended_at: null,
    attributes: start["attributes"] as Record<string, unknown>,
    inputs: start["inputs"] as Record<string, unknown>,
    output: null,
    exception: null,
    summary: null,
    wb_user_id: state.userId,
    wb_run_id: (start["wb_run_id"] as string | null | undefined) ?? null,
    wb_run_step: (start["wb_run_step"] as number | null | undefined) ?? null,
    wb_run_step_end: null,
    deleted_at: null,
  };
  const key = `${start.project_id}\u0000${id}`;
  const early = state.weave.earlyEnds.get(key) as End | undefined;
  state.weave.earlyEnds.delete(key);
  // A start sent again (a retried batch) is the same call.
  if (!state.calls.update(start.project_id, id, (old) => old))
    state.calls.insert([early === undefined ? record : endOf(record, early)]);
  return { id, trace_id: traceId };
}

function endCall(state: EvaluationState, end: End): void {
  if (!state.calls.update(end.project_id, end.id, (record) => endOf(record, end)))
    state.weave.earlyEnds.set(`${end.project_id}\u0000${end.id}`, end);
}

// Python's `datetime.isoformat()` of a UTC time, as the summary's `started_at` reads.
function isoformat(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const micros = /\.(\d{1,6})/.exec(iso)?.[1]?.padEnd(6, "0") ?? "000000";
  const base = new Date(ms).toISOString().slice(0, 19);
  return `${base}${micros === "000000" ? "" : `.${micros}`}+00:00`;
}

function evalResults({ req, state, params }: RouteContext<EvaluationState, { entity: string; project: string }>) {
  const body = parsed(req, evalResultsCheck);
  if (isPlan(body)) return body;
  const calls = [...state.calls.scan(`${params.entity}/${params.project}`)].map((s) => s.record);
  return jsonResponse(200, evalResultsQuery(body as EvalResultsRequest, calls, isoformat));
}

/** The routes an evaluation writes and reads. */
export const EVALUATION_ROUTES: ReadonlyArray<Route<EvaluationState>> = [
  route({ method: "POST", path: "/file/create", auth: "basic", handle: fileCreate }),
  route({ method: "POST", path: "/obj/create", auth: "basic", handle: objCreate }),
  route({ method: "POST", path: "/obj/read", auth: "basic", handle: objRead }),
  route({ method: "POST", path: "/table/create", auth: "basic", handle: tableCreate }),
  route({ method: "POST", path: "/table/query", auth: "basic", handle: tableQuery }),
  route({
    method: "POST",
    path: "/call/start",
    auth: "basic",
    handle: ({ req, state }) => {
      const body = parsed(req, startCheck);
      return isPlan(body) ? body : jsonResponse(200, startCall(state, body["start"] as Start));
    },
  }),
  route({
    method: "POST",
    path: "/call/end",
    auth: "basic",
    handle: ({ req, state }) => {
      const body = parsed(req, endCheck);
      if (isPlan(body)) return body;
      endCall(state, body["end"] as End);
      return jsonResponse(200, {});
    },
  }),
  route({
    method: "POST",
    path: "/call/upsert_batch",
    auth: "basic",
    handle: ({ req, state }) => {
      const body = parsed(req, batchCheck);
      if (isPlan(body)) return body;
      const res = (body["batch"] as Array<{ mode: string; req: Record<string, unknown> }>).map((item) => {
        if (item.mode === "start") return startCall(state, item.req["start"] as Start);
        endCall(state, item.req["end"] as End);
        return {};
      });
      return jsonResponse(200, { res });
    },
  }),
  route({ method: "POST", path: "/v2/{entity}/{project}/eval_results/query", auth: "basic", handle: evalResults }),
];
