/**
 * Walk call records page by page with a query expression built with `q`.
 *
 *   npx tsx examples/calls-pages.ts [--project=entity/project]
 */
import { type CallRecord, q } from "../src/index.js";
import { howToSet, runExample } from "./_service.js";

const latencyMs = (call: CallRecord) => call.summary?.weave?.latency_ms ?? 0;

await runExample(async ({ client, projectId }) => {
  if (!projectId) {
    console.log(`skipped: no project id (${howToSet("projectId")})`);
    return;
  }

  // Root calls slower than 1.5 s that asked about passwords or billing, newest first.
  const query = client.calls.query(
    {
      project_id: projectId,
      filter: { trace_roots_only: true },
      query: q.where(
        q.gt(q.field("summary.weave.latency_ms").as("double"), 1500),
        q.or(
          q.contains(q.field("inputs.question"), "password", { caseInsensitive: true }),
          q.contains(q.field("inputs.question"), "bill", { caseInsensitive: true }),
        ),
      ),
      sort_by: [
        { field: "started_at", direction: "desc" },
        { field: "id", direction: "asc" },
      ],
    },
    { pageSize: 10 },
  );

  let total = 0;
  let page = 0;
  for await (const records of query.pages()) {
    page += 1;
    total += records.length;
    const slowest = Math.max(...records.map(latencyMs));
    console.log(`page ${page}: ${records.length} records (${total} so far), slowest ${slowest} ms`);
  }
  console.log(`${total} matching calls in ${page} pages`);

  // Record by record, with the caller's own limit: only as many requests as needed.
  const firstThree = await client.calls.query({ project_id: projectId, limit: 3 }).toArray();
  for (const call of firstThree) console.log(`  ${call.started_at}  ${call.id}  ${call.op_name.split("/").pop()}`);
});
