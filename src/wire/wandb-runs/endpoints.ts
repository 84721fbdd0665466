/**
 * The three requests that write metrics into a W&B run, as W&B's own SDK sends them since its Go
 * core (`wandb/wandb` `core/api/graphql/query_run_resume_status.graphql`,
 * `core/api/graphql/mutation_run.graphql`, `core/internal/filestream/`): the run's resume
 * status, `upsertBucket` (creates or updates the run, and carries its config), and the
 * file_stream POST that appends history lines. All on the `wandb` service (`wandbBaseURL`,
 * Basic `api:<key>`), and all safe to send twice: the query reads, the upsert is by run id, and
 * a file_stream body names the line offsets it writes, so a repeat rewrites the same lines.
 */

import * as z from "zod/mini";
import { expectObject, isObject, shapeError } from "../../core/decoding/response-checks.js";
import { endpoint } from "../../core/pipeline/endpoint.js";
import { readObject } from "../../core/pipeline/read-body.js";
import { graphqlEndpoint, jsonStringValue } from "../graphql.js";
import type { RunResumeState, UpsertedRun } from "./types.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const count = (v: unknown): number => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : 0);

/** A `JSONString` that should hold an object; `undefined` otherwise. */
function jsonObject(v: unknown): Record<string, unknown> | undefined {
  const parsed = jsonStringValue(v);
  return isObject(parsed) ? parsed : undefined;
}

/** `historyTail`: a JSON string of a list of JSON strings, one per line. */
function historyTail(v: unknown): Record<string, unknown>[] {
  const list = jsonStringValue(v);
  if (!Array.isArray(list)) return [];
  return list.flatMap((line) => {
    const row = jsonObject(line);
    return row === undefined ? [] : [row];
  });
}

export const runResumeStatus = graphqlEndpoint<
  { project: string; entity: string; name: string },
  RunResumeState | null
>({
  operation: "wandb_runs.resume_status",
  operationName: "RunResumeStatus",
  retry: "safe",
  query: `query RunResumeStatus($project: String, $entity: String, $name: String!) {
  model(name: $project, entityName: $entity) {
    bucket(name: $name, missingOk: true) { id name summaryMetrics historyLineCount historyTail config }
  }
}`,
  read: (data) => {
    // No project, or no run in it: a run that does not exist yet.
    if (!isObject(data.model) || !isObject(data.model.bucket)) return null;
    const bucket = data.model.bucket;
    const what = "RunResumeStatus answer";
    const id = str(bucket.id);
    const name = str(bucket.name);
    if (id === undefined) throw shapeError(what, "model.bucket.id", bucket.id, "a non-empty string");
    if (name === undefined) throw shapeError(what, "model.bucket.name", bucket.name, "a non-empty string");
    return {
      id,
      name,
      historyLineCount: count(bucket.historyLineCount),
      summary: jsonObject(bucket.summaryMetrics) ?? {},
      historyTail: historyTail(bucket.historyTail),
      config: bucket.config == null ? {} : jsonObject(bucket.config),
    };
  },
});

/** `upsertBucket`'s variables: the run id, its project and entity, and (when changed) the whole config. */
export interface UpsertBucketVariables extends Record<string, unknown> {
  /** The storage id from the resume status, when the run exists. */
  id?: string;
  name: string;
  project: string;
  entity: string;
  /** The run's whole config as a JSON string (`{"key": {"value": ...}}`): W&B replaces it. */
  config?: string;
}

export const upsertBucket = graphqlEndpoint<UpsertBucketVariables, UpsertedRun>({
  operation: "wandb_runs.upsert",
  operationName: "UpsertBucket",
  retry: "safe",
  query: `mutation UpsertBucket($id: String, $name: String, $project: String, $entity: String, $config: JSONString) {
  upsertBucket(input: { id: $id, name: $name, modelName: $project, entityName: $entity, config: $config }) {
    bucket { id name project { name entity { name } } historyLineCount }
    inserted
  }
}`,
  read: (data) => {
    const what = "upsertBucket answer";
    const bucket = expectObject(
      expectObject(data.upsertBucket, what, "upsertBucket").bucket,
      what,
      "upsertBucket.bucket",
    );
    const project = expectObject(bucket.project, what, "upsertBucket.bucket.project");
    const entity = expectObject(project.entity, what, "upsertBucket.bucket.project.entity");
    const need = (o: Record<string, unknown>, key: string, path: string): string => {
      const v = str(o[key]);
      if (v === undefined) throw shapeError(what, path, o[key], "a non-empty string");
      return v;
    };
    return {
      id: need(bucket, "id", "upsertBucket.bucket.id"),
      name: need(bucket, "name", "upsertBucket.bucket.name"),
      project: need(project, "name", "upsertBucket.bucket.project.name"),
      entity: need(entity, "name", "upsertBucket.bucket.project.entity.name"),
      historyLineCount: count(bucket.historyLineCount),
    };
  },
});

const chunk = z.object({ offset: z.int().check(z.nonnegative()), content: z.array(z.string()) });

/** The body of one file_stream request (see `FileStreamBody`). */
export const fileStreamBodySchema = z.strictObject({
  files: z.optional(z.record(z.string(), chunk)),
  complete: z.optional(z.boolean()),
  exitcode: z.optional(z.int()),
});

/** What a file_stream answer says: `stopped` when someone pressed Stop on the run's page. */
export interface FileStreamAnswer {
  stopped: boolean;
}

export const fileStream = endpoint({
  operation: "wandb_runs.file_stream",
  method: "POST",
  path: "/files/{entity}/{project}/{runId}/file_stream",
  service: "wandb",
  retry: "safe",
  body: fileStreamBodySchema,
  hooks: { encodePathArguments: true },
  read: async (res, spec): Promise<FileStreamAnswer> => {
    // Go's client reads only `stopped` (core/internal/filestream/filestreamimpl.go); any object is fine.
    const body = await readObject(res, spec);
    return { stopped: body.stopped === true };
  },
});
