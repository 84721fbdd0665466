/**
 * Weave's request models of the routes an evaluation writes and reads (`wandb/weave`
 * `weave/trace_server/trace_server_interface.py`): a body they refuse is a 422 `detail`;
 * `CallStartReq`, `CallEndReq`, `CallCreateBatchReq` and `ObjCreateReq` refuse unknown keys at
 * their top. And Weave's object id rule (`weave/trace_server/validation.py`).
 */
import { isRecord } from "../util.js";
import { anything, bool, datetime, dict, int, list, literal, nullable, obj, str } from "../validate.js";

const OBJECT_NAME_CHARS = /[^\w.-]/g;

/** Weave's object id rule (`weave/trace_server/validation.py`, `object_id_validator`). */
export function objectIdProblem(id: string): string | undefined {
  if (id === "") return "Object name cannot be empty";
  const bad = [...new Set(id.match(OBJECT_NAME_CHARS) ?? [])];
  if (bad.length > 0) return `Invalid object name: ${id}. Contains invalid characters: ${JSON.stringify(bad)}.`;
  if (id.length > 128) return `String too long (max 128 characters): ${id}`;
  return undefined;
}

export const objCreateCheck = obj(
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

export const objReadCheck = obj(
  {
    project_id: { check: str(), required: true },
    object_id: { check: str(), required: true },
    digest: { check: str(), required: true },
    metadata_only: { check: nullable(bool()) },
  },
  "forbid",
);

export const tableCreateCheck = obj(
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

const count = nullable(int());
export const tableQueryCheck = obj(
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
export const startCheck = obj({ start: { check: startShape, required: true } }, "forbid");
export const endCheck = obj({ end: { check: endShape, required: true } }, "forbid");
export const batchCheck = obj(
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

export const evalResultsCheck = obj(
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
