/**
 * The fake's W&B runs with plain fetch (no SDK), in the request shapes of W&B's Go core:
 * `UpsertBucket` makes the run (its config replaces the run's), `RunResumeStatus` reports its
 * history length, tail and summary, and file_stream writes history lines at the offsets named
 * (a resent body rewrites the same lines), keeps the last summary line, counts heartbeats and
 * finishes the run with its exit code.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeService, startFakeService } from "../../src/testing/index.js";
import { postJson } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false });
});
afterAll(() => svc.close());
beforeEach(() => svc.reset());

const wandbAuth = () => ({ authorization: `Basic ${Buffer.from(`api:${svc.apiKey}`).toString("base64")}` });

// The documents of wandb/wandb core/api/graphql/mutation_run.graphql and
// query_run_resume_status.graphql, cut to the fields read here.
const UPSERT = `mutation UpsertBucket($id: String, $name: String, $project: String, $entity: String, $config: JSONString) {
  upsertBucket(input: { id: $id, name: $name, modelName: $project, entityName: $entity, config: $config }) {
    bucket { id name config project { name entity { name } } historyLineCount }
    inserted
  }
}`;
const STATUS = `query RunResumeStatus($project: String, $entity: String, $name: String!) {
  model(name: $project, entityName: $entity) {
    bucket(name: $name, missingOk: true) { id name summaryMetrics historyLineCount historyTail config wandbConfig(keys: ["t"]) }
  }
}`;

async function gql(query: string, variables: Record<string, unknown>) {
  const res = await postJson(svc, "/graphql", { query, variables }, wandbAuth());
  return { status: res.status, body: (await res.json()) as { data?: Record<string, any>; errors?: unknown[] } };
}

const stream = (body: unknown, run = "r1", headers = wandbAuth()) =>
  postJson(svc, `/files/acme/rl/${run}/file_stream`, body, headers);
const history = (offset: number, ...rows: Record<string, unknown>[]) => ({
  files: { "wandb-history.jsonl": { offset, content: rows.map((r) => JSON.stringify(r)) } },
});

describe("the fake's W&B runs", () => {
  it("UpsertBucket makes the run once; RunResumeStatus finds it, or says it is not there", async () => {
    expect((await gql(STATUS, { project: "rl", entity: "acme", name: "r1" })).body.data).toEqual({ model: null });
    const made = await gql(UPSERT, { name: "r1", project: "rl", entity: "acme" });
    expect(made.body.data!.upsertBucket).toMatchObject({
      bucket: { name: "r1", project: { name: "rl", entity: { name: "acme" } }, historyLineCount: 0 },
      inserted: true,
    });
    expect((await gql(UPSERT, { name: "r1", project: "rl", entity: "acme" })).body.data!.upsertBucket.inserted).toBe(
      false,
    );
    const status = await gql(STATUS, { project: "rl", entity: "acme", name: "r1" });
    expect(status.body.data!.model.bucket).toMatchObject({ name: "r1", historyLineCount: 0, historyTail: "[]" });
    expect((await gql(STATUS, { project: "rl", entity: "acme", name: "other" })).body.data!.model.bucket).toBeNull();
  });

  it("a config replaces the run's; one that is not a JSON object is refused as W&B words GraphQL errors", async () => {
    await gql(UPSERT, { name: "r1", project: "rl", entity: "acme", config: '{"a":{"value":1}}' });
    await gql(UPSERT, { name: "r1", project: "rl", entity: "acme", config: '{"b":{"value":2}}' });
    expect(JSON.parse(svc.state.wandbRuns.find("acme", "rl", "r1")!.config)).toEqual({ b: { value: 2 } });
    const bad = await gql(UPSERT, { name: "r1", project: "rl", entity: "acme", config: "[1]" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      data: { upsertBucket: null },
      errors: [{ message: "config must be a JSON object" }],
    });
  });

  it("file_stream writes lines at their offsets: a resent body rewrites them, a gap is refused", async () => {
    await gql(UPSERT, { name: "r1", project: "rl", entity: "acme" });
    expect((await stream(history(0, { _step: 0 }, { _step: 1 }))).status).toBe(200);
    expect((await stream(history(0, { _step: 0 }, { _step: 1 }))).status).toBe(200);
    expect((await stream(history(2, { _step: 2 }))).status).toBe(200);
    expect(svc.state.wandbRuns.history("acme", "rl", "r1").map((r) => r._step)).toEqual([0, 1, 2]);
    const gap = await stream(history(5, { _step: 5 }));
    expect(gap.status).toBe(400);
    expect(svc.state.wandbRuns.history("acme", "rl", "r1")).toHaveLength(3);
    const status = await gql(STATUS, { project: "rl", entity: "acme", name: "r1" });
    expect(status.body.data!.model.bucket.historyLineCount).toBe(3);
    expect(JSON.parse(status.body.data!.model.bucket.historyTail).at(-1)).toBe('{"_step":2}');
  });

  it("keeps the last summary line, counts heartbeats, and finishes the run with its exit code", async () => {
    await gql(UPSERT, { name: "r1", project: "rl", entity: "acme" });
    await stream({ files: { "wandb-summary.json": { offset: 0, content: ['{"a":1}', '{"a":2,"_step":4}'] } } });
    await stream({});
    await stream({ complete: true, exitcode: 1 });
    expect(svc.state.wandbRuns.find("acme", "rl", "r1")).toMatchObject({
      summary: { a: 2, _step: 4 },
      heartbeats: 1,
      state: "failed",
      exitcode: 1,
    });
    const status = await gql(STATUS, { project: "rl", entity: "acme", name: "r1" });
    expect(JSON.parse(status.body.data!.model.bucket.summaryMetrics)).toEqual({ a: 2, _step: 4 });
    // Resumed by an upsert, the run runs again.
    await gql(UPSERT, { name: "r1", project: "rl", entity: "acme" });
    expect(svc.state.wandbRuns.find("acme", "rl", "r1")!.state).toBe("running");
  });

  it("file_stream needs the run, W&B's Basic api:<key>, and well-formed files", async () => {
    expect((await stream({}, "missing")).status).toBe(404);
    await gql(UPSERT, { name: "r1", project: "rl", entity: "acme" });
    expect((await stream({}, "r1", { authorization: "Basic bm9wZTpub3Bl" })).status).toBe(401);
    expect((await stream({ files: { "wandb-history.jsonl": { offset: -1, content: [] } } })).status).toBe(400);
    expect((await stream(history(0, [1] as never))).status).toBe(400);
    expect(svc.state.wandbRuns.history("acme", "rl", "r1")).toEqual([]);
  });
});
