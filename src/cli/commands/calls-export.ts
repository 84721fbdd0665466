// `inferloop calls export`: every call record of a project as JSON lines. The records are
// written as the query hands them over (one at a time, as their lines arrive), and a write waits
// while the output's buffer is full, so memory stays flat whatever the count.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type { CallsQueryParams } from "../../index.js";
import { type Command, type CommandInput, intOption, requiredOption, stringOption } from "../command.js";
import { UsageError } from "../exit-codes.js";
import { Output } from "../output.js";

// Records per request. The records of a page stream as they arrive, so a larger page costs no
// memory, and fewer requests spare the server the work of skipping to each offset.
const DEFAULT_PAGE_SIZE = 10_000;
// At most one progress line per this many ms.
const PROGRESS_EVERY_MS = 1_000;

function jsonOption(input: CommandInput, name: string): Record<string, unknown> | undefined {
  const raw = stringOption(input, name);
  if (raw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {}
  throw new UsageError(`--${name} must be a JSON object, e.g. --${name} '{"trace_roots_only":true}'`);
}

async function openFile(path: string): Promise<Output> {
  const stream = createWriteStream(path);
  try {
    await once(stream, "open");
  } catch (err) {
    throw new UsageError(`cannot write --out ${path}: ${(err as Error).message}`);
  }
  return new Output(stream);
}

export const callsExport: Command = {
  name: "calls export",
  summary: "write a project's call records as JSON lines",
  description: `Queries every call record of a project (POST /calls/stream_query, page after page) and
writes one JSON object per line to stdout or to --out, in the trace server's default order
(started_at). Memory stays flat whatever the count; progress goes to stderr.`,
  options: {
    project: { type: "string", short: "p", value: "entity/project", description: "the project (required)" },
    out: { type: "string", short: "o", value: "file", description: "write to this file instead of stdout" },
    limit: { type: "string", value: "n", description: "at most this many records" },
    filter: { type: "string", value: "json", description: "the query's filter, e.g. '{\"trace_roots_only\":true}'" },
    query: { type: "string", value: "json", description: "a query expression ($expr), as the SDK's q builds it" },
    "page-size": { type: "string", value: "n", description: `records per request (default ${DEFAULT_PAGE_SIZE})` },
  },
  examples: [
    "inferloop calls export --project acme/support-bot --out calls.jsonl",
    "inferloop calls export -p acme/support-bot --filter '{\"trace_roots_only\":true}' | jq -r .op_name",
  ],
  async run(input, { client, signal, stdout, stderr }) {
    const project = requiredOption(input, "project", "acme/support-bot");
    const limit = intOption(input, "limit", { min: 1 });
    const pageSize = intOption(input, "page-size", { min: 1 }) ?? DEFAULT_PAGE_SIZE;
    const filter = jsonOption(input, "filter");
    const query = jsonOption(input, "query");
    const outPath = stringOption(input, "out");
    const params = {
      project_id: project,
      ...(limit !== undefined ? { limit } : {}),
      ...(filter !== undefined ? { filter } : {}),
      ...(query !== undefined ? { query } : {}),
    } as CallsQueryParams;
    const calls = client().calls.query(params, { pageSize, signal });
    const sink = outPath === undefined ? stdout : await openFile(outPath);
    let count = 0;
    let reported = Date.now();
    const progress = async (final: boolean) => {
      const verb = !final ? "exporting:" : sink.closed ? "stopped (the reader closed the output) after" : "exported";
      const line = `${verb} ${count.toLocaleString("en-US")} calls of ${project}${outPath ? ` to ${outPath}` : ""}`;
      if (input.json) {
        if (final && outPath === undefined) await stderr.json({ project, exported: count });
      } else if (stderr.isTTY) await stderr.text(`\r\x1b[2K${line}${final ? "\n" : ""}`);
      else await stderr.line(line);
    };
    try {
      for await (const call of calls) {
        await sink.record(JSON.stringify(call));
        count++;
        // The reader went away (`| head`): stop querying, which closes the request.
        if (sink.closed) break;
        if (Date.now() - reported >= PROGRESS_EVERY_MS) {
          reported = Date.now();
          await progress(false);
        }
      }
    } finally {
      if (sink === stdout) await sink.flush();
      else await sink.end();
    }
    await progress(true);
    if (input.json && outPath !== undefined) await stdout.json({ project, exported: count, out: outPath });
    return 0;
  },
};
