import { topLevelFieldHint } from "../../core/checks/field-hint.js";
import { inputIssues } from "../../core/checks/input-checks.js";
import type { Finding } from "../../core/errors/findings.js";
import { offsetPages } from "../../core/lists/paging.js";
import { endpoint } from "../../core/pipeline/endpoint.js";
import { readObject } from "../../core/pipeline/read-body.js";
import {
  type CallsQueryParams,
  callReadParamsSchema,
  callsQueryOptionsSchema,
  callsQueryParamsSchema,
  DEFAULT_CALLS_ACCEPT,
} from "./request-schema.js";
import type { CallRecord } from "./types.js";

// The schema is published typed by its interface; at run time it is the strict object it was built as.
const queryKeyHint = topLevelFieldHint(Object.keys((callsQueryParamsSchema as unknown as { shape: object }).shape));

/**
 * A trace server stores `op_name` as an op ref (`weave:///entity/project/op/name:digest`), so
 * a bare name in `filter.op_names` matches nothing, without an error. Said once per client
 * (every query would repeat it), with the ref that matches every version of the op (`:*`).
 */
function bareOpName(params: CallsQueryParams): Finding | undefined {
  const bare = params.filter?.op_names?.find((name) => !name.startsWith("weave:///"));
  if (bare === undefined) return undefined;
  return {
    code: "bare_op_name",
    message: `op_names entry "${bare}" is not an op ref (weave:///<entity>/<project>/op/<name>:<digest>) and matches no call; for every version write "weave:///${params.project_id}/op/${bare}:*"`,
    oncePerLog: true,
  };
}

// A real Weave server ignores the spec's svc_* filter names and answers unfiltered, with every
// user's calls and no error: said at run time, since logging is off by default.
function specFilterNames(filter: CallsQueryParams["filter"]): Finding[] {
  const found: Finding[] = [];
  if (filter == null) return found;
  for (const [spec, weave] of [
    ["svc_user_ids", "wb_user_ids"],
    ["svc_run_ids", "wb_run_ids"],
  ] as const)
    if (filter[spec] != null)
      found.push({
        code: spec,
        message: `filter.${spec} is ignored by Weave servers, which then return every user's calls; write filter.${weave} instead (svc_* only filters on services that implement the spec).`,
      });
  return found;
}

/**
 * The trace server requires `direction` on every sort item, while the spec leaves it out: an
 * item without one is sent as ascending, instead of failing with a 422.
 */
function withSortDirections(params: CallsQueryParams): CallsQueryParams {
  const sort = params.sort_by;
  if (!Array.isArray(sort) || sort.every((s) => s.direction)) return params;
  return { ...params, sort_by: sort.map((s) => (s.direction ? s : { ...s, direction: "asc" as const })) };
}

// The records come as JSONL, streamed page by page: each record is handed over as its line is parsed.
export const callsQuery = endpoint({
  operation: "calls.query",
  method: "POST",
  path: "/calls/stream_query",
  service: "trace",
  retry: "safe",
  body: {
    schema: callsQueryParamsSchema,
    issues: (issues) => inputIssues(issues, queryKeyHint),
    prepare: withSortDirections,
    review: (params: CallsQueryParams) => {
      const bare = bareOpName(params);
      const names = specFilterNames(params.filter);
      return bare === undefined ? names : [...names, bare];
    },
  },
  page: offsetPages<CallRecord>("call record", { lines: "JSONL record" }, callsQueryOptionsSchema),
  // A query's own `accept` replaces it.
  hooks: { headers: { accept: DEFAULT_CALLS_ACCEPT } },
});

// One call by id (Weave's `CallReadReq`, `weave/trace_server/trace_server_interface.py`): an id
// the project does not have is answered 200 with `{ "call": null }`.
export const callsRetrieve = endpoint({
  operation: "calls.retrieve",
  method: "POST",
  path: "/call/read",
  service: "trace",
  retry: "safe",
  body: callReadParamsSchema,
  read: async (res, spec): Promise<CallRecord | null> => (await readObject(res, spec))["call"] as CallRecord | null,
});
