/**
 * The shared evaluation cases (`tests/cases/evaluation-cases.ts`) against the fake over raw
 * HTTP: `eval_results/query` groups the calls as Weave's server does; and the routes an
 * evaluation writes (files, objects, tables, calls) answer as Weave's request models do.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";
import { startFakeService } from "../../src/testing/index.js";
import {
  DIGESTS,
  EVAL_A,
  EVAL_PROJECT,
  EVAL_RECORDS,
  EVAL_RESULTS_CASES,
  ROOT_METADATA,
  ROWS,
  TRIAL_A1,
} from "../cases/evaluation-cases.js";
import { basic, jsonl, postJson, queryCalls } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false, calls: [...EVAL_RECORDS] });
});
afterEach(() => svc.reset());
afterAll(() => svc.close());

const post = (path: string, body: unknown) => postJson(svc, path, body, basic(svc));
const results = async (body: Record<string, unknown>) => {
  const res = await post(`/v2/${EVAL_PROJECT}/eval_results/query`, body);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, any>;
};

describe("eval_results/query groups an evaluation's calls as Weave does", () => {
  it.each(EVAL_RESULTS_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const answer = await results(c.body);
    expect(answer["total_rows"], c.why).toBe(c.total_rows);
    expect(answer["rows"].map((r: { row_digest: string }) => r.row_digest)).toEqual(c.rows.map((r) => DIGESTS[r.row]));
    c.rows.forEach((expected, i) => {
      const row = answer["rows"][i];
      expect(row.raw_data_row).toEqual(expected.raw ? ROWS[expected.row] : null);
      const scores = Object.fromEntries(
        row.evaluations.map((e: { evaluation_call_id: string; trials: Array<{ scores: unknown }> }) => [
          e.evaluation_call_id,
          e.trials.map((t) => t.scores),
        ]),
      );
      expect(scores, `${expected.row}: ${c.why}`).toEqual(expected.evaluations);
    });
    if (c.summary === undefined) {
      expect(answer["summary"]).toBeNull();
      return;
    }
    expect(answer["summary"].row_count).toBe(c.row_count);
    const evaluations = answer["summary"].evaluations as Array<Record<string, any>>;
    expect(evaluations.map((e) => e["evaluation_call_id"]).sort()).toEqual(Object.keys(c.summary).sort());
    for (const e of evaluations) {
      const want = c.summary[e["evaluation_call_id"]]!;
      expect(e["trial_count"]).toBe(want.trial_count);
      expect(e).toMatchObject(ROOT_METADATA[e["evaluation_call_id"] as keyof typeof ROOT_METADATA]);
      const stats = (e["scorer_stats"] as Array<Record<string, any>>).map((s) => [
        s["scorer_key"],
        s["path"],
        s["value_type"],
        s["trial_count"],
        s["value_type"] === "binary" ? s["pass_rate"] : s["numeric_mean"],
      ]);
      expect(stats.sort()).toEqual([...want.stats].sort());
    }
  });

  it("takes a trial's latency and tokens from its predict call, and names its scorer calls", async () => {
    const answer = await results({ evaluation_call_ids: [EVAL_A] });
    const r1 = answer["rows"].find((r: { row_digest: string }) => r.row_digest === DIGESTS.r1);
    const trial = r1.evaluations[0].trials[0];
    expect(trial).toMatchObject(TRIAL_A1);
    expect(trial.predict_call_id).toBe(
      EVAL_RECORDS.find((c) => c.op_name.includes("/Model.predict:") && c.inputs["inputs"] === ROWS.r1)?.id,
    );
    expect(Object.keys(trial.scorer_call_ids).sort()).toEqual(["exact", "exact.score", "overlap", "overlap.score"]);
  });

  it("refuses a body Weave's request model refuses (422)", async () => {
    const res = await post(`/v2/${EVAL_PROJECT}/eval_results/query`, { evaluation_call_ids: "x", limit: "ten" });
    expect(res.status).toBe(422);
    const detail = ((await res.json()) as { detail: Array<{ loc: unknown[] }> }).detail;
    expect(detail.map((d) => d.loc.at(-1)).sort()).toEqual(["evaluation_call_ids", "limit"]);
  });
});

describe("the routes an evaluation writes", () => {
  it("stores objects by content: the same value is the same digest and version", async () => {
    const val = { _type: "Model", _class_name: "Model", _bases: ["Object", "BaseModel"], name: "base" };
    const first = await (
      await post("/obj/create", { obj: { project_id: EVAL_PROJECT, object_id: "base", val } })
    ).json();
    const again = await (
      await post("/obj/create", { obj: { project_id: EVAL_PROJECT, object_id: "base", val } })
    ).json();
    const other = await (
      await post("/obj/create", { obj: { project_id: EVAL_PROJECT, object_id: "base", val: { ...val, name: "b2" } } })
    ).json();
    expect(again).toEqual(first);
    expect(other.digest).not.toBe(first.digest);
    const read = await (
      await post("/obj/read", { project_id: EVAL_PROJECT, object_id: "base", digest: first.digest })
    ).json();
    expect(read.obj).toMatchObject({ val, version_index: 0, base_object_class: "Model", is_latest: 0 });
    const latest = await (
      await post("/obj/read", { project_id: EVAL_PROJECT, object_id: "base", digest: "latest" })
    ).json();
    expect(latest.obj).toMatchObject({ digest: other.digest, version_index: 1, is_latest: 1 });
    expect((await post("/obj/read", { project_id: EVAL_PROJECT, object_id: "base", digest: "nope" })).status).toBe(404);
    const bad = await post("/obj/create", { obj: { project_id: EVAL_PROJECT, object_id: "a/b", val } });
    expect(bad.status).toBe(400);
  });

  it("stores a table's rows with their digests, and pages them", async () => {
    const rows = [ROWS.r1, ROWS.r2, ROWS.r3];
    const made = await (await post("/table/create", { table: { project_id: EVAL_PROJECT, rows } })).json();
    expect(made.row_digests).toEqual([DIGESTS.r1, DIGESTS.r2, DIGESTS.r3]);
    const page = await (
      await post("/table/query", { project_id: EVAL_PROJECT, digest: made.digest, limit: 2, offset: 1 })
    ).json();
    expect(page.rows).toEqual([
      { digest: DIGESTS.r2, val: ROWS.r2, original_index: 1 },
      { digest: DIGESTS.r3, val: ROWS.r3, original_index: 2 },
    ]);
  });

  it("takes a file as a form and answers its digest", async () => {
    const form = new FormData();
    form.set("project_id", EVAL_PROJECT);
    form.set("file", new Blob(["def f(): ..."], { type: "text/plain" }), "obj.py");
    const res = await fetch(`${svc.url}/file/create`, { method: "POST", headers: basic(svc), body: form });
    expect(res.status).toBe(200);
    const { digest } = (await res.json()) as { digest: string };
    expect(svc.state.weave.files.get(`${EVAL_PROJECT}\u0000${digest}`)).toBe("def f(): ...");
    const missing = await fetch(`${svc.url}/file/create`, {
      method: "POST",
      headers: basic(svc),
      body: new FormData(),
    });
    expect(missing.status).toBe(422);
  });

  it("stores started and ended calls with the others: the calls query shows them", async () => {
    const start = {
      project_id: EVAL_PROJECT,
      id: "call-1",
      trace_id: "trace-1",
      op_name: `weave:///${EVAL_PROJECT}/op/Evaluation.evaluate:x`,
      started_at: "2026-03-02T10:00:00Z",
      attributes: { _weave_eval_meta: { imperative: true } },
      inputs: {},
    };
    expect(await (await post("/call/start", { start })).json()).toEqual({ id: "call-1", trace_id: "trace-1" });
    let [call] = await jsonl(await queryCalls(svc, { project_id: EVAL_PROJECT, filter: { call_ids: ["call-1"] } }));
    expect(call!["summary"].weave.status).toBe("running");
    const end = {
      project_id: EVAL_PROJECT,
      id: "call-1",
      ended_at: "2026-03-02T10:00:02Z",
      output: { x: 1 },
      summary: {},
    };
    expect(await (await post("/call/end", { end })).json()).toEqual({});
    [call] = await jsonl(await queryCalls(svc, { project_id: EVAL_PROJECT, filter: { call_ids: ["call-1"] } }));
    expect(call).toMatchObject({ output: { x: 1 }, ended_at: "2026-03-02T10:00:02Z", exception: null });
    expect(call!["summary"].weave).toMatchObject({ status: "success", latency_ms: 2000 });
  });

  it("takes starts and ends in one batch, an end before its start, and a start sent twice", async () => {
    const start = (id: string) => ({
      mode: "start",
      req: {
        start: {
          project_id: EVAL_PROJECT,
          id,
          trace_id: "t",
          op_name: "weave:///acme/evals/op/Model.predict:x",
          started_at: "2026-03-02T10:00:00Z",
          attributes: {},
          inputs: {},
        },
      },
    });
    const end = (id: string, exception?: string) => ({
      mode: "end",
      req: { end: { project_id: EVAL_PROJECT, id, ended_at: "2026-03-02T10:00:01Z", summary: {}, exception } },
    });
    const res = await post("/call/upsert_batch", {
      batch: [end("b", "boom"), start("a"), start("b"), end("a"), start("a")],
    });
    expect(((await res.json()) as { res: unknown[] }).res).toEqual([
      {},
      { id: "a", trace_id: "t" },
      { id: "b", trace_id: "t" },
      {},
      { id: "a", trace_id: "t" },
    ]);
    const calls = await jsonl(await queryCalls(svc, { project_id: EVAL_PROJECT, filter: { call_ids: ["a", "b"] } }));
    expect(calls.map((c) => [c["id"], c["summary"].weave.status])).toEqual([
      ["a", "success"],
      ["b", "error"],
    ]);
  });

  it("refuses what CallStartReq, CallEndReq and CallCreateBatchReq refuse (422)", async () => {
    const noOp = await post("/call/start", {
      start: { project_id: EVAL_PROJECT, started_at: "2026-03-02T10:00:00Z", attributes: {}, inputs: {} },
    });
    expect(noOp.status).toBe(422);
    const extra = await post("/call/end", {
      end: { project_id: EVAL_PROJECT, id: "x", ended_at: "2026-03-02T10:00:00Z", summary: {} },
      more: 1,
    });
    expect(extra.status).toBe(422);
    const mode = await post("/call/upsert_batch", { batch: [{ mode: "finish", req: {} }] });
    expect(mode.status).toBe(422);
    const anonymous = await postJson(svc, "/obj/create", { obj: {} }, {});
    expect(anonymous.status).toBe(401);
  });
});
