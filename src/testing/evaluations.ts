/**
 * What an evaluation writes to and reads from Weave's trace server, in the fake: files
 * (`POST /file/create`, a form), objects (`/obj/create`, `/obj/read`), tables (`/table/create`,
 * `/table/query`), calls (`/call/start`, `/call/end`, `/call/upsert_batch`: stored with the
 * other calls, so the calls query shows them) and `POST /v2/{entity}/{project}/eval_results/query`.
 * Request and response models as `wandb/weave` `weave/trace_server/trace_server_interface.py`
 * has them (a 422 `detail` for a body they refuse; `CallStartReq`, `CallEndReq` and
 * `CallCreateBatchReq` refuse unknown keys), routes as `weave/trace_server/reference/generate.py`
 * declares them. Objects, tables and files are content-addressed as the server addresses them
 * (`weave/shared/digest.py`: SHA-256 in Weave's URL-safe base64), so writing the same content
 * again gives the same digest. `eval_results/query` groups the calls as
 * `weave/trace_server/eval_results_helpers.py` does.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import {
  type EvalResultsOptions,
  type EvaluationCall,
  groupEvalResults,
  type RootMetadata,
  rootMetadata,
} from "../lib/evaluations/results.js";
import { pythonJson, rowDigestSource, weaveDigest } from "../lib/evaluations/weave-json.js";
import type { CallStore } from "./calls-store.js";
import { detailError, jsonResponse, reasonError, requireJsonBody } from "./responses.js";
import type { Route, RouteContext } from "./route.js";
import { route } from "./route.js";
import type { CallRecord, FakeRequest, ResponsePlan } from "./types.js";
import { isRecord, randomUuid } from "./util.js";
import type { Check, ValidationIssue } from "./validate.js";
import { anything, bool, datetime, dict, int, list, literal, nullable, obj, str, validateBody } from "./validate.js";

const encoder = new TextEncoder();
const digestOf = (text: string) => weaveDigest(sha256(encoder.encode(text)));
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** One version of a Weave object in the fake, as `/obj/read` returns it. */
export interface FakeWeaveObject {
  project_id: string;
  object_id: string;
  digest: string;
  version_index: number;
  created_at: string;
  val: unknown;
  kind: "op" | "object";
  base_object_class: string | null;
  leaf_object_class: string | null;
}

/**
 * The objects, tables and files of the fake's Weave projects (`svc.state.weave`): what an
 * evaluation published, for a test to look at.
 *
 * @example
 * ```ts
 * const evaluation = svc.state.weave.read("acme/agents", "qa", "latest");
 * console.log(evaluation?.val);
 * ```
 */
export class WeaveObjectStore {
  /** Versions of each object, oldest first, by `project\0object_id`. */
  readonly objects = new Map<string, FakeWeaveObject[]>();
  /** Each table's rows and their digests, by `project\0digest`. */
  readonly tables = new Map<string, { rows: unknown[]; digests: string[] }>();
  /** File contents by `project\0digest`. */
  readonly files = new Map<string, string>();
  /** Call ends that came before their start, by `project\0id`: the server merges a call's parts by id. */
  readonly earlyEnds = new Map<string, Record<string, unknown>>();

  /**
   * Forgets everything (what `svc.reset()` does).
   *
   * @example
   * ```ts
   * svc.state.weave.clear();
   * ```
   */
  clear(): void {
    this.objects.clear();
    this.tables.clear();
    this.files.clear();
    this.earlyEnds.clear();
  }

  /**
   * The version of an object with that digest (or the latest, for `latest`).
   *
   * @example
   * ```ts
   * const model = svc.state.weave.read("acme/agents", "Qwen-Qwen3-8B", "latest");
   * console.log(model?.digest, model?.val);
   * ```
   */
  read(projectId: string, objectId: string, digest: string): FakeWeaveObject | undefined {
    const versions = this.objects.get(`${projectId}\u0000${objectId}`) ?? [];
    return digest === "latest" ? versions.at(-1) : versions.find((v) => v.digest === digest);
  }
}

/** An object's base class, as the server reads it from `_bases` (`base_object_class_util.py`). */
function classesOf(val: unknown): { base: string | null; leaf: string | null; kind: "op" | "object" } {
  if (!isRecord(val)) return { base: null, leaf: null, kind: "object" };
  const weaveType = val["weave_type"];
  if (val["_type"] === "CustomWeaveType" && isRecord(weaveType) && weaveType["type"] === "Op")
    return { base: null, leaf: null, kind: "op" };
  const className = typeof val["_class_name"] === "string" ? val["_class_name"] : null;
  const bases = Array.isArray(val["_bases"]) ? (val["_bases"] as unknown[]) : [];
  const tail = bases.length >= 2 && bases.at(-1) === "BaseModel" && bases.at(-2) === "Object";
  const base = tail ? ((bases.length > 2 ? bases.at(-3) : className) as string | null) : null;
  return { base, leaf: className, kind: "object" };
}

type EvaluationState = { weave: WeaveObjectStore; calls: CallStore; userId: string };

function parsed(req: FakeRequest, check: Check): Record<string, unknown> | ResponsePlan {
  const body = requireJsonBody(req.body, req.json);
  if (!body.ok) return body.error;
  const issues = validateBody(check, body.value);
  return issues.length > 0 ? detailError(issues) : (body.value as Record<string, unknown>);
}

const isPlan = (v: unknown): v is ResponsePlan => isRecord(v) && "kind" in v;

const OBJECT_NAME_CHARS = /[^\w.-]/g;

/** Weave's object id rule (`weave/trace_server/validation.py`, `object_id_validator`). */
function objectIdProblem(id: string): string | undefined {
  if (id === "") return "Object name cannot be empty";
  const bad = [...new Set(id.match(OBJECT_NAME_CHARS) ?? [])];
  if (bad.length > 0) return `Invalid object name: ${id}. Contains invalid characters: ${JSON.stringify(bad)}.`;
  if (id.length > 128) return `String too long (max 128 characters): ${id}`;
  return undefined;
}

const objCreateCheck = obj(
  {
    obj: {
      check: obj(
        {
          project_id: { check: str(), required: true },
          object_id: { check: str(), required: true },
          val: { check: anything(), required: true },
          builtin_object_class: { check: nullable(str()) },
          wb_user_id: { check: nullable(str()) },
        },
        "allow",
      ),
      required: true,
    },
  },
  "forbid",
);

function objCreate({ req, state }: RouteContext<EvaluationState>): ResponsePlan {
  const body = parsed(req, objCreateCheck);
  if (isPlan(body)) return body;
  const o = body["obj"] as { project_id: string; object_id: string; val: unknown };
  const problem = objectIdProblem(o.object_id);
  if (problem !== undefined) return reasonError(400, problem);
  const digest = digestOf(pythonJson(o.val));
  const key = `${o.project_id}\u0000${o.object_id}`;
  const versions = state.weave.objects.get(key) ?? [];
  // The same content again is the same version.
  if (!versions.some((v) => v.digest === digest)) {
    const classes = classesOf(o.val);
    versions.push({
      project_id: o.project_id,
      object_id: o.object_id,
      digest,
      version_index: versions.length,
      created_at: new Date().toISOString(),
      val: o.val,
      kind: classes.kind,
      base_object_class: classes.base,
      leaf_object_class: classes.leaf,
    });
    state.weave.objects.set(key, versions);
  }
  return jsonResponse(200, { digest, object_id: o.object_id });
}

const objReadCheck = obj(
  {
    project_id: { check: str(), required: true },
    object_id: { check: str(), required: true },
    digest: { check: str(), required: true },
    metadata_only: { check: nullable(bool()) },
  },
  "forbid",
);

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

const tableCreateCheck = obj(
  {
    table: {
      check: obj(
        { project_id: { check: str(), required: true }, rows: { check: list(dict()), required: true } },
        "allow",
      ),
      required: true,
    },
  },
  "forbid",
);

function tableCreate({ req, state }: RouteContext<EvaluationState>): ResponsePlan {
  const body = parsed(req, tableCreateCheck);
  if (isPlan(body)) return body;
  const { project_id, rows } = body["table"] as { project_id: string; rows: unknown[] };
  const digests = rows.map((row) => digestOf(pythonJson(row)));
  // The table's digest is made from its rows' (`table_digest_from_row_digests`).
  const digest = hex(sha256(encoder.encode(digests.join(""))));
  state.weave.tables.set(`${project_id}\u0000${digest}`, { rows, digests });
  return jsonResponse(200, { digest, row_digests: digests });
}

const count = nullable(int());
const tableQueryCheck = obj(
  {
    project_id: { check: str(), required: true },
    digest: { check: str(), required: true },
    filter: { check: nullable(obj({ row_digests: { check: nullable(list(str())) } }, "forbid")) },
    limit: { check: count },
    offset: { check: count },
    sort_by: { check: anything() },
  },
  "forbid",
);

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
  const content = parts.get("file")!.value;
  const digest = digestOf(content);
  state.weave.files.set(`${parts.get("project_id")!.value}\u0000${digest}`, content);
  return jsonResponse(200, { digest });
}

const startShape = obj(
  {
    project_id: { check: str(), required: true },
    id: { check: nullable(str()) },
    op_name: { check: str(), required: true },
    display_name: { check: nullable(str()) },
    trace_id: { check: nullable(str()) },
    parent_id: { check: nullable(str()) },
    thread_id: { check: nullable(str()) },
    turn_id: { check: nullable(str()) },
    started_at: { check: datetime(), required: true },
    attributes: { check: dict(), required: true },
    inputs: { check: dict(), required: true },
    wb_run_id: { check: nullable(str()) },
    wb_run_step: { check: nullable(int()) },
  },
  "allow",
);
const endShape = obj(
  {
    project_id: { check: str(), required: true },
    id: { check: str(), required: true },
    ended_at: { check: datetime(), required: true },
    exception: { check: nullable(str()) },
    output: { check: anything() },
    summary: { check: dict(), required: true },
    wb_run_step_end: { check: nullable(int()) },
  },
  "allow",
);
const startCheck = obj({ start: { check: startShape, required: true } }, "forbid");
const endCheck = obj({ end: { check: endShape, required: true } }, "forbid");
const batchCheck = obj(
  {
    batch: {
      check: list((value, loc, issues) => {
        literal(["start", "end"])(isRecord(value) ? value["mode"] : undefined, [...loc, "mode"], issues);
        const mode = isRecord(value) ? value["mode"] : undefined;
        (mode === "end" ? endCheck : startCheck)(isRecord(value) ? value["req"] : undefined, [...loc, "req"], issues);
      }),
      required: true,
    },
  },
  "forbid",
);

type Start = Record<string, unknown> & { project_id: string; op_name: string; started_at: string };
type End = Record<string, unknown> & { project_id: string; id: string; ended_at: string };

function endOf(record: CallRecord, end: End): CallRecord {
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
  const record: CallRecord = {
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

const evalResultsCheck = obj(
  {
    evaluation_call_ids: { check: nullable(list(str())) },
    evaluation_run_ids: { check: nullable(list(str())) },
    require_intersection: { check: bool() },
    include_raw_data_rows: { check: bool() },
    resolve_row_refs: { check: bool() },
    include_rows: { check: bool() },
    include_summary: { check: bool() },
    summary_require_intersection: { check: nullable(bool()) },
    include_predict_and_score_children: { check: bool() },
    include_costs: { check: bool() },
    sort_by: { check: anything() },
    filters: { check: anything() },
    filter_logic_operator: { check: literal(["and", "or"]) },
    limit: { check: count },
    offset: { check: int() },
  },
  "allow",
);

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
  const projectId = `${params.entity}/${params.project}`;
  const ids = [
    ...new Set([
      ...((body["evaluation_call_ids"] as string[] | null) ?? []),
      ...((body["evaluation_run_ids"] as string[] | null) ?? []),
    ]),
  ];
  const calls = [...state.calls.scan(projectId)].map((s) => s.record as unknown as EvaluationCall);
  const roots = new Map<string, RootMetadata>();
  for (const call of calls) if (ids.includes(call.id)) roots.set(call.id, rootMetadata(call, isoformat));
  const rowDigest = (trial: EvaluationCall) => {
    const source = rowDigestSource(trial.inputs["example"] ?? null);
    return "digest" in source ? source.digest : digestOf(source.text);
  };
  return jsonResponse(200, groupEvalResults(ids, calls, rowDigest, roots, body as EvalResultsOptions));
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
