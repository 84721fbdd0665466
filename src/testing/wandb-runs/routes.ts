/**
 * The run routes: `POST /files/{entity}/{project}/{runId}/file_stream` (Basic auth, the API key
 * as password), where W&B's SDK writes a run's history and summary, in the body shape of
 * `wandb/wandb` `core/internal/filestream/filestreamrequest.go`:
 * `{"files": {"wandb-history.jsonl": {"offset", "content": [lines]}, "wandb-summary.json": {...}},
 * "complete"?, "exitcode"?}`; `{}` is a heartbeat. The run must exist (`upsertBucket` makes it).
 * History lines go at the offset named, replacing lines already there (a resent request
 * rewrites the same lines); an offset past the end is refused, as a gap would lose rows. Other
 * files (`wandb-events.jsonl`, `output.log`) are taken and not kept.
 */
import { jsonResponse } from "../responses.js";
import { type Route, route } from "../route.js";
import type { ResponsePlan } from "../types.js";
import { isRecord } from "../util.js";
import type { WandbRunStore } from "./store.js";

/** What the run routes read of the fake's state. */
export interface WandbRunState {
  wandbRuns: WandbRunStore;
}

const refuse = (status: number, error: string) => jsonResponse(status, { error });

function lines(chunk: unknown): { offset: number; content: string[] } | undefined {
  if (!isRecord(chunk)) return undefined;
  const { offset, content } = chunk;
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0) return undefined;
  if (!Array.isArray(content) || content.some((l) => typeof l !== "string")) return undefined;
  return { offset, content: content as string[] };
}

function jsonLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function fileStream(ctx: {
  req: { json: unknown };
  state: WandbRunState;
  params: { entity: string; project: string; runId: string };
}): ResponsePlan {
  const { entity, project, runId } = ctx.params;
  const run = ctx.state.wandbRuns.find(entity, project, runId);
  if (run === undefined) return refuse(404, `run ${entity}/${project}/${runId} not found`);
  const body = ctx.req.json;
  if (!isRecord(body)) return refuse(400, "the body must be a JSON object");
  const files = body.files ?? {};
  if (!isRecord(files)) return refuse(400, "files must be an object of {offset, content}");
  // Checked whole before anything is kept: a refused request changes nothing.
  const chunks = new Map<string, { offset: number; content: string[] }>();
  for (const [name, chunk] of Object.entries(files)) {
    const c = lines(chunk);
    if (c === undefined) return refuse(400, `files.${name} must be {offset: integer >= 0, content: [strings]}`);
    chunks.set(name, c);
  }
  const history = chunks.get("wandb-history.jsonl");
  if (history !== undefined) {
    if (history.offset > run.historyLines.length)
      return refuse(
        400,
        `wandb-history.jsonl offset ${history.offset} is past the end of the history (${run.historyLines.length} lines)`,
      );
    if (history.content.some((l) => jsonLine(l) === undefined))
      return refuse(400, "every wandb-history.jsonl line must be a JSON object");
  }
  const summary = chunks.get("wandb-summary.json");
  const summaryLine = summary?.content.at(-1);
  const summaryRow = summaryLine === undefined ? undefined : jsonLine(summaryLine);
  if (summaryLine !== undefined && summaryRow === undefined)
    return refuse(400, "the wandb-summary.json line must be a JSON object");
  if (body.complete !== undefined && typeof body.complete !== "boolean")
    return refuse(400, "complete must be a boolean");
  if (body.exitcode !== undefined && body.exitcode !== null && !Number.isSafeInteger(body.exitcode))
    return refuse(400, "exitcode must be an integer");

  if (history !== undefined) run.historyLines.splice(history.offset, history.content.length, ...history.content);
  if (summaryRow !== undefined) run.summary = summaryRow;
  if (chunks.size === 0 && body.complete === undefined) run.heartbeats++;
  if (body.complete === true) {
    const code = typeof body.exitcode === "number" ? body.exitcode : 0;
    run.exitcode = code;
    run.state = code === 0 ? "finished" : "failed";
  }
  // Go's client reads `stopped`, the older Python client `limits`: both are answered.
  return jsonResponse(200, { exitcode: null, limits: {}, stopped: false });
}

/** The run routes: the file_stream of each run. */
export const WANDB_RUN_ROUTES: ReadonlyArray<Route<WandbRunState>> = [
  route({ method: "POST", path: "/files/{entity}/{project}/{runId}/file_stream", auth: "wandb", handle: fileStream }),
];
