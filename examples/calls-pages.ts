/**
 * Walk call records page by page with a query expression built with `q`.
 *
 *   npx tsx calls-pages.ts          (needs: npm install inferloop tsx)
 *
 * Against your own service, name the project: INFERLOOP_PROJECT_ID (entity/project).
 */
import { type CallRecord, Inferloop, q } from "inferloop";
import { SEED_PROJECT_ID, startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback, with the calls it seeds.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const projectId = process.env.INFERLOOP_PROJECT_ID ?? (fake ? SEED_PROJECT_ID : undefined);

const latencyMs = (call: CallRecord) => call.summary?.weave?.latency_ms ?? 0;

try {
  if (!projectId) {
    console.log("skipped: no project id (set INFERLOOP_PROJECT_ID)");
  } else {
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
  }
} finally {
  await fake?.close();
}
