/**
 * The trace server routes an evaluation writes and reads (Basic auth, `traceBaseURL`), as
 * `wandb/weave` `weave/trace_server/reference/generate.py` declares them. Objects, tables and
 * files are content-addressed and calls carry ids the client chose (the server merges the parts
 * of one call id), so sending any of these twice stores nothing twice: each is retried like a GET.
 *
 * @module
 */

import { shapeError } from "../../core/decoding/response-checks.js";
import { SerializedJSON } from "../../core/json/json-value.js";
import { endpoint } from "../../core/pipeline/endpoint.js";
import type { APIResponse } from "../../core/pipeline/http-client.js";
import { readHaving, readObject } from "../../core/pipeline/read-body.js";
import type { RequestSpec } from "../../core/pipeline/request-spec.js";
import {
  built,
  type CallUpsertBatchBody,
  type EvalResultsQueryBody,
  type ObjCreateBody,
  type ObjReadBody,
  type TableCreateBody,
  type TableQueryBody,
} from "./request-schema.js";
import type {
  EvaluationResults,
  WeaveFileCreated,
  WeaveObjectCreated,
  WeaveObjectRead,
  WeaveTableCreated,
  WeaveTableRows,
} from "./types.js";

/** A JSON object with a non-empty string `digest`: what was stored is named by it. */
async function readDigest<T>(res: APIResponse, spec: RequestSpec): Promise<T> {
  const body = await readObject(res, spec);
  if (typeof body["digest"] !== "string" || body["digest"] === "")
    throw shapeError(`${spec.operation} response`, "digest", body["digest"], "a non-empty string");
  return body as T;
}

const BOUNDARY = "inferloop-weave-file-5b1e0c7d";

/** A text file for `POST /file/create` (an op's source, shown in Weave's op view). */
export interface FileCreateBody {
  project_id: string;
  name: string;
  content: string;
}

// `/file/create` is a form (`project_id`, `file`): its text goes out as written, in one piece.
function fileForm(file: FileCreateBody): SerializedJSON {
  const part = (head: string, body: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; ${head}\r\n${body}\r\n`;
  return new SerializedJSON(
    part(`name="project_id"\r\n`, file.project_id) +
      part(`name="file"; filename="${file.name}"\r\nContent-Type: text/plain; charset=utf-8\r\n`, file.content) +
      `--${BOUNDARY}--\r\n`,
  );
}

export const fileCreate = endpoint({
  operation: "evaluations.file_create",
  method: "POST",
  path: "/file/create",
  service: "trace",
  retry: "safe",
  hooks: { headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` } },
  body: { ...built<FileCreateBody>(), prepare: fileForm, inPieces: true },
  read: readDigest<WeaveFileCreated>,
});

export const objCreate = endpoint({
  operation: "evaluations.obj_create",
  method: "POST",
  path: "/obj/create",
  service: "trace",
  retry: "safe",
  body: built<ObjCreateBody>(),
  read: readDigest<WeaveObjectCreated>,
});

export const objRead = endpoint({
  operation: "evaluations.obj_read",
  method: "POST",
  path: "/obj/read",
  service: "trace",
  retry: "safe",
  body: built<ObjReadBody>(),
  read: readHaving<WeaveObjectRead>("obj", "object"),
});

export const tableCreate = endpoint({
  operation: "evaluations.table_create",
  method: "POST",
  path: "/table/create",
  service: "trace",
  retry: "safe",
  body: built<TableCreateBody>(),
  read: readDigest<WeaveTableCreated>,
});

export const tableQuery = endpoint({
  operation: "evaluations.table_query",
  method: "POST",
  path: "/table/query",
  service: "trace",
  retry: "safe",
  body: built<TableQueryBody>(),
  read: readHaving<WeaveTableRows>("rows", "array"),
});

export const callUpsertBatch = endpoint({
  operation: "evaluations.call_upsert_batch",
  method: "POST",
  path: "/call/upsert_batch",
  service: "trace",
  retry: "safe",
  body: { ...built<CallUpsertBatchBody>(), inPieces: true },
  read: readObject<Record<string, unknown>>,
});

// Weave's newer evaluation API: reads any evaluation back, grouped by dataset row.
export const evalResultsQuery = endpoint({
  operation: "evaluations.results",
  method: "POST",
  path: "/v2/{entity}/{project}/eval_results/query",
  service: "trace",
  retry: "safe",
  body: built<EvalResultsQueryBody>(),
  read: readHaving<EvaluationResults>("rows", "array"),
});
