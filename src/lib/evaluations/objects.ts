/**
 * The objects an evaluation publishes, shaped as Weave's own clients shape them (`wandb/weave`
 * `sdks/node/src/evaluationLogger.ts` and `weaveClient.ts`; `weave/trace_server/object_creation_utils.py`):
 * the ops the calls are named by (a source file and a `CustomWeaveType` Op object each), the
 * Dataset (its rows in a table), the Model, one Scorer per scorer, and the Evaluation. Weave's
 * views find them by their `_type`, `_class_name` and `_bases`.
 *
 * @module
 */
import { callEndpoint } from "../../core/pipeline/endpoint.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { fileCreate, objCreate, tableCreate } from "../../wire/evaluations/endpoints.js";

/** The longest object id Weave takes. */
const MAX_OBJECT_ID = 128;

/**
 * An object id from a name, as Weave's TypeScript client makes one: each run of characters
 * other than letters, digits, `_` and `.` becomes `-`, separators are not doubled, and none
 * leads or trails.
 *
 * @example
 * ```ts
 * objectId("Qwen/Qwen3-8B"); // "Qwen-Qwen3-8B"
 * ```
 */
export function objectId(name: string): string {
  return name
    .replace(/[^\w.]+/g, "-")
    .replace(/[._-]{2,}/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, MAX_OBJECT_ID);
}

/** Where objects are published, and the options their requests go with. */
export interface Publisher {
  http: HttpClient;
  projectId: string;
  options: RequestOptions | undefined;
}

const objectRef = (p: Publisher, id: string, digest: string) => `weave:///${p.projectId}/object/${id}:${digest}`;

/** Publishes an object version; resolves to its ref. */
export async function publishObject(p: Publisher, id: string, val: Record<string, unknown>): Promise<string> {
  const { digest } = await callEndpoint(
    p.http,
    objCreate,
    { params: { obj: { project_id: p.projectId, object_id: id, val } } },
    p.options,
  );
  return objectRef(p, id, digest);
}

/** An object of one of Weave's classes (`Dataset`, `Model`, `Evaluation`...). */
export function weaveObject(className: string, bases: string[], members: Record<string, unknown>) {
  return { _type: className, _class_name: className, _bases: [...bases, "Object", "BaseModel"], ...members };
}

/**
 * Publishes an op: its source as a file, then the Op object naming that file. Resolves to the
 * op's ref, which calls carry as their `op_name`. The source is shown in Weave's op view: the
 * calls are recorded, not run there.
 */
export async function publishOp(p: Publisher, name: string, signature: string): Promise<string> {
  const source = `def ${signature}:\n    """Recorded by inferloop (TypeScript): the calls carry their inputs and outputs."""\n    ...\n`;
  const file = await callEndpoint(
    p.http,
    fileCreate,
    { params: { project_id: p.projectId, name: "obj.py", content: source } },
    p.options,
  );
  const { digest } = await callEndpoint(
    p.http,
    objCreate,
    {
      params: {
        obj: {
          project_id: p.projectId,
          object_id: name,
          val: { _type: "CustomWeaveType", weave_type: { type: "Op" }, files: { "obj.py": file.digest } },
        },
      },
    },
    p.options,
  );
  return `weave:///${p.projectId}/op/${name}:${digest}`;
}

/** Publishes rows as a table and a Dataset object holding it; resolves to the Dataset's ref. */
export async function publishDataset(p: Publisher, name: string, rows: readonly object[]): Promise<string> {
  const table = await callEndpoint(
    p.http,
    tableCreate,
    { params: { table: { project_id: p.projectId, rows: rows as Record<string, unknown>[] } } },
    p.options,
  );
  const val = weaveObject("Dataset", [], {
    name,
    description: null,
    rows: `weave:///${p.projectId}/table/${table.digest}`,
  });
  return publishObject(p, objectId(name), val);
}
