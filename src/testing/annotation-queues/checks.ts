/**
 * Weave's checks of the annotation-queue request bodies: its request models are strict
 * (`extra="forbid"`, an unknown key is a 422), except item progress, whose model ignores
 * unknown keys.
 */
import type { Check } from "../validate.js";
import { bool, int, list, literal, nullable, obj, str } from "../validate.js";

const ITEM_STATES = ["unstarted", "in_progress", "completed", "skipped"];

const sortCheck = obj(
  { field: { check: str(), required: true }, direction: { check: literal(["asc", "desc"]), required: true } },
  "forbid",
);
const count: Check = nullable(int());
export const createCheck = obj(
  {
    project_id: { check: str(), required: true },
    name: { check: str(), required: true },
    description: { check: str() },
    scorer_refs: { check: list(str()), required: true },
    wb_user_id: { check: nullable(str()) },
  },
  "forbid",
);
export const queryCheck = obj(
  {
    project_id: { check: str(), required: true },
    name: { check: nullable(str()) },
    sort_by: { check: nullable(list(sortCheck)) },
    limit: { check: count },
    offset: { check: count },
  },
  "forbid",
);
export const updateCheck = obj(
  {
    project_id: { check: str(), required: true },
    name: { check: nullable(str()) },
    description: { check: nullable(str()) },
    scorer_refs: { check: nullable(list(str())) },
  },
  "forbid",
);
export const statsCheck = obj(
  { project_id: { check: str(), required: true }, queue_ids: { check: list(str()), required: true } },
  "forbid",
);
export const addCheck = obj(
  {
    project_id: { check: str(), required: true },
    call_ids: { check: list(str()), required: true },
    display_fields: { check: list(str()), required: true },
    wb_user_id: { check: nullable(str()) },
  },
  "forbid",
);
export const itemsQueryCheck = obj(
  {
    project_id: { check: str(), required: true },
    filter: {
      check: nullable(
        obj(
          {
            id: { check: nullable(str()) },
            call_id: { check: nullable(str()) },
            call_op_name: { check: nullable(str()) },
            call_trace_id: { check: nullable(str()) },
            added_by: { check: nullable(str()) },
            annotation_states: { check: nullable(list(literal(ITEM_STATES))) },
          },
          "allow",
        ),
      ),
    },
    sort_by: { check: nullable(list(sortCheck)) },
    limit: { check: count },
    offset: { check: count },
    include_position: { check: bool() },
  },
  "forbid",
);

// Current Weave request models ignore unknown keys (with a logged warning), so does the fake.
export const progressCheck = obj(
  { annotation_state: { check: str(), required: true }, project_id: { check: str(), required: true } },
  "allow",
);
