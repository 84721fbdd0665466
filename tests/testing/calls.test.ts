import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";
import { referenceCalls, SEED_OTHER_PROJECT_ID, SEED_PROJECT_ID, startFakeService } from "../../src/testing/index.js";
import { jsonl, queryCalls } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService();
});
afterAll(() => svc.close());

const P = SEED_PROJECT_ID;
const [ROOT, CHILD, ERRORED, RUNNING] = referenceCalls().map((c) => c.id);

async function ids(body: Record<string, unknown>): Promise<string[]> {
  const res = await queryCalls(svc, { project_id: P, ...body });
  expect(res.status).toBe(200);
  return (await jsonl(res)).map((r) => r["id"] as string);
}

async function all(body: Record<string, unknown>): Promise<Array<Record<string, any>>> {
  return jsonl(await queryCalls(svc, { project_id: P, ...body }));
}

const eq = (field: string, value: unknown) => ({ $eq: [{ $getField: field }, { $literal: value }] });

describe("calls: framing and defaults", () => {
  it("streams JSONL with application/jsonl by default, or the accept header's type", async () => {
    const res = await queryCalls(svc, { project_id: P, limit: 3 });
    expect(res.headers.get("content-type")).toBe("application/jsonl");
    const text = await res.text();
    expect(text.split("\n")).toHaveLength(4);
    expect(text.endsWith("\n")).toBe(true);
    const other = await queryCalls(svc, { project_id: P, limit: 1 }, { accept: "application/json" });
    expect(other.headers.get("content-type")).toBe("application/json");
    expect((await other.text()).trim().split("\n")).toHaveLength(1);
  });

  it("returns only the project's calls, in started_at order, with derived summary.weave", async () => {
    const records = await all({});
    expect(records.length).toBe(304);
    expect(records.every((r) => r["project_id"] === P)).toBe(true);
    const starts = records.map((r) => r["started_at"] as string);
    expect([...starts].sort()).toEqual(starts);
    const root = records.find((r) => r["id"] === ROOT)!;
    expect(root["summary"]["weave"]).toEqual({ status: "success", trace_name: "answer_ticket", latency_ms: 1757 });
    expect(records.find((r) => r["id"] === ERRORED)!["summary"]["weave"]).toEqual({
      status: "error",
      display_name: "classify-intent",
      latency_ms: 418,
    });
    expect(records.find((r) => r["id"] === RUNNING)!["summary"]["weave"]).toEqual({
      status: "running",
      trace_name: "retrieve_docs",
    });
    expect(root["storage_size_bytes"]).toBeNull();
    const other = await jsonl(await queryCalls(svc, { project_id: SEED_OTHER_PROJECT_ID }));
    expect(other).toHaveLength(12);
  });

  it("adds costs and feedback only when asked", async () => {
    const [plain] = await all({ filter: { call_ids: [ROOT] } });
    expect(plain!["summary"]["weave"]["costs"]).toBeUndefined();
    expect(plain!["summary"]["weave"]["feedback"]).toBeUndefined();
    const [full] = await all({
      filter: { call_ids: [ROOT] },
      include_costs: true,
      include_feedback: true,
      include_storage_size: true,
      include_usernames: true,
    });
    expect(full!["summary"]["weave"]["costs"]["gpt-4o-mini-2024-07-18"]["prompt_tokens_total_cost"]).toBe(0.0000618);
    expect(full!["summary"]["weave"]["feedback"][0]["feedback_type"]).toBe("wandb.reaction.1");
    expect(full!["storage_size_bytes"]).toBeGreaterThan(0);
    expect(full!["wb_username"]).toBe("alice");
    const generatedWithUsage = (await all({ include_costs: true, limit: 50 })).filter(
      (r) => r["summary"]["usage"] !== undefined && r["id"] !== ROOT && r["id"] !== CHILD,
    );
    expect(generatedWithUsage.length).toBeGreaterThan(0);
    expect(Object.values(generatedWithUsage[0]!["summary"]["weave"]["costs"] as object)[0]).toHaveProperty(
      "completion_tokens_total_cost",
    );
  });
});

describe("calls: filter members", () => {
  it("call_ids, trace_ids, parent_ids, thread_ids, turn_ids", async () => {
    expect(await ids({ filter: { call_ids: [CHILD, ROOT] } })).toEqual([ROOT, CHILD]);
    expect(await ids({ filter: { trace_ids: ["0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a00"] } })).toEqual([ROOT, CHILD]);
    expect(await ids({ filter: { parent_ids: [ROOT] } })).toEqual([CHILD]);
    expect(await ids({ filter: { thread_ids: ["ticket-48213"] } })).toEqual([ROOT, CHILD]);
    expect(await ids({ filter: { turn_ids: [ROOT] } })).toEqual([ROOT, CHILD]);
  });

  it("op_names (exact and :* wildcard), trace_roots_only", async () => {
    const op = "weave:///acme/support-bot/op/retrieve_docs:Hn4Jm6Kp8Lr0Ns2Pt4Qv6Rx8Sz0Tb2Uc4Vd6We8Xf0";
    expect(await ids({ filter: { op_names: [op] } })).toEqual([RUNNING]);
    const wildcard = await all({ filter: { op_names: ["weave:///acme/support-bot/op/retrieve_docs:*"] } });
    expect(wildcard.length).toBe(101);
    const roots = await all({ filter: { trace_roots_only: true } });
    expect(roots.every((r) => r["parent_id"] === null)).toBe(true);
    expect(roots.length).toBe(103);
  });

  it("ignores svc_user_ids and svc_run_ids, as Weave does; wb_* filter", async () => {
    const everyone = await ids({});
    expect(await ids({ filter: { svc_user_ids: ["VXNlcjo3ODkw"] } })).toEqual(everyone);
    expect(await ids({ filter: { svc_run_ids: ["acme/support-bot/k3j2h1g0"] } })).toEqual(everyone);
    const bob = await all({ filter: { wb_user_ids: ["VXNlcjo3ODkw"] } });
    expect(bob.length).toBeGreaterThan(1);
    expect(bob.every((r) => r["wb_user_id"] === "VXNlcjo3ODkw")).toBe(true);
    expect(await ids({ filter: { wb_run_ids: ["acme/support-bot/k3j2h1g0"] } })).toEqual([ERRORED]);
  });

  it("orders by time value, not text, and breaks ties of explicit sorts by id", async () => {
    const base = referenceCalls()[0]!;
    const at = (id: string, started_at: string, tier: string) => ({
      ...base,
      id,
      trace_id: id,
      parent_id: null,
      started_at,
      inputs: { tier },
    });
    const svc2 = await startFakeService({
      seedCalls: false,
      calls: [
        at("c", "2026-03-18T17:04:14.005000Z", "pro"),
        at("b", "2026-03-18T17:04:14Z", "pro"),
        at("a", "2026-03-18T17:04:15Z", "pro"),
      ],
    });
    try {
      const q = async (body: object) =>
        (await jsonl(await queryCalls(svc2, { project_id: P, ...body }))).map((r) => r["id"]);
      // "...:14Z" is before "...:14.005000Z" in time, after it as text.
      expect(await q({})).toEqual(["b", "c", "a"]);
      expect(await q({ sort_by: [{ field: "started_at", direction: "desc" }] })).toEqual(["a", "c", "b"]);
      // Equal sort keys: the id decides, ascending whatever the key's direction (W&B's ClickHouse
      // server adds `id asc` after the caller's keys).
      expect(await q({ sort_by: [{ field: "inputs.tier", direction: "desc" }] })).toEqual(["a", "b", "c"]);
      expect(await q({ sort_by: [{ field: "inputs.tier", direction: "asc" }] })).toEqual(["a", "b", "c"]);
    } finally {
      await svc2.close();
    }
  });

  it("input_refs and output_refs match weave refs inside inputs and output", async () => {
    const ref = "weave:///acme/support-bot/object/dataset:abc";
    const svc2 = await startFakeService({
      seedCalls: false,
      calls: [
        { ...referenceCalls()[0]!, inputs: { dataset: ref } },
        { ...referenceCalls()[1]!, output: { items: [ref] } },
      ],
    });
    try {
      const q = async (filter: object) =>
        (await jsonl(await queryCalls(svc2, { project_id: P, filter }))).map((r) => r["id"]);
      expect(await q({ input_refs: [ref] })).toEqual([ROOT]);
      expect(await q({ output_refs: [ref] })).toEqual([CHILD]);
    } finally {
      await svc2.close();
    }
  });
});

describe("calls: query expressions", () => {
  it("$eq on a derived field, $not, $and, $or", async () => {
    const errors = await all({ query: { $expr: eq("summary.weave.status", "error") } });
    expect(errors.length).toBeGreaterThan(1);
    expect(errors.every((r) => r["summary"]["weave"]["status"] === "error")).toBe(true);
    const notErrors = await all({ query: { $expr: { $not: [eq("summary.weave.status", "error")] } } });
    expect(errors.length + notErrors.length).toBe(304);
    expect(
      await ids({
        query: { $expr: { $and: [eq("summary.weave.status", "error"), eq("display_name", "classify-intent")] } },
      }),
    ).toEqual([ERRORED]);
    expect(await ids({ query: { $expr: { $or: [eq("id", ROOT), eq("id", RUNNING)] } } })).toEqual([ROOT, RUNNING]);
  });

  it("$gt/$gte/$lt/$lte with $convert, $in, $contains, numeric list indexes", async () => {
    const latency = { $convert: { input: { $getField: "summary.weave.latency_ms" }, to: "double" } };
    const slow = await all({ query: { $expr: { $gt: [latency, { $literal: 2000 }] } } });
    expect(slow.length).toBeGreaterThan(0);
    expect(slow.every((r) => r["summary"]["weave"]["latency_ms"] > 2000)).toBe(true);
    const lte = await all({ query: { $expr: { $lte: [latency, { $literal: 418 }] } } });
    expect(lte.every((r) => r["summary"]["weave"]["latency_ms"] <= 418)).toBe(true);
    expect(lte.map((r) => r["id"])).toContain(ERRORED);
    expect(
      await ids({ query: { $expr: { $in: [{ $getField: "id" }, [{ $literal: CHILD }, { $literal: RUNNING }]] } } }),
    ).toEqual([CHILD, RUNNING]);
    expect(
      await ids({
        query: {
          $expr: {
            $contains: {
              input: { $getField: "inputs.question" },
              substr: { $literal: "RESET MY" },
              case_insensitive: true,
            },
          },
        },
        filter: { call_ids: [ROOT, CHILD] },
      }),
    ).toEqual([ROOT]);
    expect(
      await ids({
        query: { $expr: { $contains: { input: { $getField: "inputs.question" }, substr: { $literal: "RESET MY" } } } },
        filter: { call_ids: [ROOT] },
      }),
    ).toEqual([]);
    expect(
      await ids({
        query: { $expr: eq("inputs.messages.1.content", "How do I reset my password?") },
        filter: { call_ids: [ROOT, CHILD] },
      }),
    ).toEqual([CHILD]);
    const exists = { $convert: { input: { $getField: "exception" }, to: "exists" } };
    expect((await all({ query: { $expr: exists } })).every((r) => r["exception"] !== null)).toBe(true);
  });
});

describe("calls: sort, paging, columns", () => {
  it("sorts by dotted fields, derived ones included, with missing values last", async () => {
    const byLatency = await all({ sort_by: [{ field: "summary.weave.latency_ms", direction: "desc" }] });
    const latencies = byLatency.map((r) => r["summary"]["weave"]["latency_ms"] as number | undefined);
    const present = latencies.filter((l) => l !== undefined);
    expect([...present].sort((a, b) => b! - a!)).toEqual(present);
    expect(latencies.slice(present.length).every((l) => l === undefined)).toBe(true);
    const byStatus = await all({
      sort_by: [
        { field: "summary.weave.status", direction: "asc" },
        { field: "id", direction: "desc" },
      ],
      limit: 5,
    });
    expect(byStatus[0]!["summary"]["weave"]["status"]).toBe("error");
  });

  it("pages with limit and offset consistently", async () => {
    const whole = await ids({});
    const pages: string[] = [];
    for (let offset = 0; offset < whole.length; offset += 100) pages.push(...(await ids({ limit: 100, offset })));
    expect(pages).toEqual(whole);
    expect(await ids({ limit: 0 })).toEqual([]);
    expect(await ids({ offset: 10_000 })).toEqual([]);
    const sorted = await ids({ sort_by: [{ field: "id", direction: "desc" }] });
    expect(await ids({ sort_by: [{ field: "id", direction: "desc" }], offset: 5, limit: 3 })).toEqual(
      sorted.slice(5, 8),
    );
  });

  it("columns return every field, the unrequested ones null, as Weave does", async () => {
    const [full] = await all({ filter: { call_ids: [ROOT] } });
    const [record] = await all({ filter: { call_ids: [ROOT] }, columns: ["output", "summary.weave.latency_ms"] });
    expect(Object.keys(record!).sort()).toEqual(Object.keys(full!).sort());
    // Asking for summary brings ended_at, exception and display_name, which it derives from.
    for (const key of ["id", "op_name", "output", "project_id", "started_at", "summary", "trace_id", "ended_at"])
      expect(record![key], key).toEqual(full![key]);
    expect(record!["wb_run_id"]).toBeNull();
    expect(record!["inputs"]).toEqual({});
    expect(record!["output"]["citations"]).toEqual(["kb/2231"]);
  });
});

describe("calls: unknown keys, as current Weave servers treat them", () => {
  it("ignores an unknown top-level key and an unknown filter key: the query runs unfiltered", async () => {
    const all = await jsonl(await queryCalls(svc, { project_id: P }));
    const res = await queryCalls(svc, { project_id: P, bogus: 1, filter: { user_ids: ["nobody"] } });
    expect(res.status).toBe(200);
    expect((await jsonl(res)).length).toBe(all.length);
  });
});

describe("calls: validation", () => {
  const cases: Array<[string, Record<string, unknown>, Array<string | number>, string]> = [
    ["missing project_id", {}, ["body", "project_id"], "missing"],
    ["a bad type", { project_id: P, limit: "10" }, ["body", "limit"], "int_type"],
    [
      "a bad sort direction",
      { project_id: P, sort_by: [{ field: "id", direction: "up" }] },
      ["body", "sort_by", 0, "direction"],
      "literal_error",
    ],
    [
      "$not with two operands",
      { project_id: P, query: { $expr: { $not: [{ $literal: 1 }, { $literal: 2 }] } } },
      ["body", "query", "$expr", "$not"],
      "too_short",
    ],
    [
      "$eq with one operand",
      { project_id: P, query: { $expr: { $eq: [{ $literal: 1 }] } } },
      ["body", "query", "$expr", "$eq"],
      "too_short",
    ],
    [
      "an unknown operator",
      { project_id: P, query: { $expr: { $regex: [] } } },
      ["body", "query", "$expr", "$regex"],
      "union_tag_invalid",
    ],
    [
      "a bad $convert target",
      { project_id: P, query: { $expr: { $convert: { input: { $literal: 1 }, to: "float" } } } },
      ["body", "query", "$expr", "$convert", "to"],
      "literal_error",
    ],
  ];
  it.each(cases)("refuses %s with 422 detail", async (_name, body, loc, type) => {
    const res = await queryCalls(svc, body);
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: Array<{ loc: unknown[]; msg: string; type: string }> };
    expect(detail).toContainEqual({ loc, msg: expect.any(String), type });
  });

  it("refuses a filter list longer than 1000 with 400", async () => {
    const res = await queryCalls(svc, {
      project_id: P,
      filter: { call_ids: Array.from({ length: 1001 }, (_, i) => `id-${i}`) },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { reason: string }).reason).toContain(
      "'call_ids' request length is greater than max length (1000)",
    );
  });
});

describe("calls: large result sets", () => {
  it("streams 200k synthetic records progressively", async () => {
    const big = await startFakeService({ seedCalls: false, syntheticCalls: 200_000 });
    try {
      const res = await queryCalls(big, { project_id: "acme/synthetic" });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let lines = 0;
      let tail = "";
      let firstId: string | undefined;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = tail + decoder.decode(value, { stream: true });
        const parts = text.split("\n");
        tail = parts.pop()!;
        if (firstId === undefined && parts[0] !== undefined) firstId = (JSON.parse(parts[0]) as { id: string }).id;
        lines += parts.length;
      }
      expect(tail).toBe("");
      expect(lines).toBe(200_000);
      expect(firstId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
      expect(big.calls.size).toBe(0);
    } finally {
      await big.close();
    }
  }, 180_000);

  it("a 200k-record query written under backpressure leaks no listeners (no MaxListenersExceededWarning)", async () => {
    const big = await startFakeService({ seedCalls: false, syntheticCalls: 200_000 });
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w.name);
    };
    process.on("warning", onWarning);
    try {
      const res = await queryCalls(big, { project_id: "acme/synthetic" });
      const reader = res.body!.getReader();
      let bytes = 0;
      let reads = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        // A reader slower than the server: the socket fills and the server waits for "drain"
        // again and again, the pattern that used to leave one "close" listener per wait.
        if (++reads % 4 === 0) await new Promise((r) => setImmediate(r));
      }
      expect(bytes).toBeGreaterThan(20 * 1024 * 1024);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
      await big.close();
    }
  }, 180_000);

  it("accepts bulk inserts from a generator and pages through them", async () => {
    const { generateCalls } = await import("../../src/testing/index.js");
    const bulk = await startFakeService({ seedCalls: false });
    try {
      expect(bulk.calls.insert(generateCalls(5000, { projectId: "acme/bulk" }))).toBe(5000);
      const page = await jsonl(await queryCalls(bulk, { project_id: "acme/bulk", offset: 4990, limit: 100 }));
      expect(page).toHaveLength(10);
    } finally {
      await bulk.close();
    }
  });
});
