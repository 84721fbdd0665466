/**
 * The shared Weave cases (`tests/cases/weave-query-cases.ts`) against the fake over raw HTTP:
 * the order of every `sort_by`, what `columns` fills, the derived latency and storage sizes,
 * `$containsToken`, what Weave's ClickHouse server refuses, and the words of progress refusals.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FakeService } from "../../src/testing/index.js";
import { SEED_ITEM_IDS, SEED_PROJECT_ID, SEED_QUEUE_ID, startFakeService } from "../../src/testing/index.js";
import {
  COLUMNS_CASES,
  DERIVED_CASES,
  ORDER_CASES,
  ORDER_PROJECT,
  ORDER_RECORDS,
  REFUSAL_CASES,
  TOKEN_CASES,
} from "../cases/weave-query-cases.js";
import { basic, jsonl, postJson, queryCalls } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false, calls: [...ORDER_RECORDS] });
});
afterEach(() => svc.reset());
afterAll(() => svc.close());

const query = async (body: Record<string, unknown>) =>
  jsonl(await queryCalls(svc, { project_id: ORDER_PROJECT, ...body }));

describe("the fake orders calls as Weave does", () => {
  it.each(ORDER_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const body = c.sort_by === null ? {} : { sort_by: c.sort_by };
    expect(
      (await query(body)).map((r) => r["id"]),
      c.why,
    ).toEqual(c.ids);
    // Pages of two cut the same order (the tie-break makes paging stable).
    const paged: unknown[] = [];
    for (let offset = 0; offset < c.ids.length; offset += 2)
      paged.push(...(await query({ ...body, limit: 2, offset })).map((r) => r["id"]));
    expect(paged).toEqual(c.ids);
  });
});

describe("the fake fills columns as Weave does", () => {
  it.each(COLUMNS_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const [full] = await query({ filter: { call_ids: [c.id] } });
    const [record] = await query({ filter: { call_ids: [c.id] }, columns: c.columns });
    expect(Object.keys(record!).sort()).toEqual(Object.keys(full!).sort());
    for (const key of c.same) expect(record![key], key).toEqual(full![key]);
    for (const key of c.nulls) expect(record![key], key).toBeNull();
    if (c.summary !== undefined) expect(record!["summary"]).toEqual(c.summary);
  });
});

describe("the fake derives latency and storage sizes as Weave does", () => {
  it.each(DERIVED_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const [record] = await query({ filter: { call_ids: [c.id] }, ...c.flags });
    const { latency_ms, ...members } = c.expect;
    for (const [key, value] of Object.entries(members)) expect(record![key], `${key}: ${c.why}`).toBe(value);
    if (latency_ms !== undefined)
      expect((record!["summary"] as { weave: { latency_ms: number } }).weave.latency_ms, c.why).toBe(latency_ms);
  });
});

describe("the fake matches $containsToken as Weave's ClickHouse server does", () => {
  it.each(TOKEN_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    expect(
      (await query({ query: { $expr: c.expr } })).map((r) => r["id"]),
      c.why,
    ).toEqual(c.ids);
  });
});

describe("the fake refuses what Weave's ClickHouse server cannot run", () => {
  it.each(REFUSAL_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const res = await queryCalls(svc, { project_id: ORDER_PROJECT, ...c.body });
    expect(res.status, c.why).toBe(c.status);
    expect(((await res.json()) as { reason: string }).reason).toBe(c.reason);
  });
});
