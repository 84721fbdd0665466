/**
 * The shared Weave cases (`tests/cases/weave-query-cases.ts`) through the SDK: a user paging a
 * sorted query with `client.calls.query` gets Weave's order whole, page after page; `columns`
 * come back as Weave fills them, latency and storage sizes as Weave derives them;
 * `$containsToken` (raw and from `q.containsToken`) matches whole tokens; what Weave's server
 * cannot run is refused before sending; a refused progress step is an error carrying Weave's words.
 */
import { describe, expect, it } from "vitest";
import { BadRequestError, q, RequestValidationError } from "../../src/index.js";
import { SEED_ITEM_IDS, SEED_PROJECT_ID, SEED_QUEUE_ID } from "../../src/testing/index.js";
import { PROGRESS_CASES } from "../cases/review-cases.js";
import {
  COLUMNS_CASES,
  DERIVED_CASES,
  ORDER_CASES,
  ORDER_PROJECT,
  ORDER_RECORDS,
  REFUSAL_CASES,
  TOKEN_CASES,
} from "../cases/weave-query-cases.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false, calls: [...ORDER_RECORDS] });

describe("calls.query pages Weave's order", () => {
  it.each(ORDER_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const params =
      c.sort_by === null ? { project_id: ORDER_PROJECT } : { project_id: ORDER_PROJECT, sort_by: c.sort_by };
    const calls = await fake.client.calls.query(params, { pageSize: 2 }).toArray();
    expect(
      calls.map((r) => r.id),
      c.why,
    ).toEqual(c.ids);
  });
});

describe("calls.query with columns", () => {
  it.each(COLUMNS_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const [full] = await fake.client.calls.query({ project_id: ORDER_PROJECT, filter: { call_ids: [c.id] } }).toArray();
    const [record] = await fake.client.calls
      .query({ project_id: ORDER_PROJECT, filter: { call_ids: [c.id] }, columns: c.columns })
      .toArray();
    const r = record as unknown as Record<string, unknown>;
    const f = full as unknown as Record<string, unknown>;
    for (const key of c.same) expect(r[key], key).toEqual(f[key]);
    for (const key of c.nulls) expect(r[key], key).toBeNull();
    if (c.summary !== undefined) expect(r["summary"]).toEqual(c.summary);
  });
});

describe("calls.query returns latency and storage sizes as Weave derives them", () => {
  it.each(DERIVED_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const [record] = await fake.client.calls
      .query({ project_id: ORDER_PROJECT, filter: { call_ids: [c.id] }, ...c.flags })
      .toArray();
    const { latency_ms, ...members } = c.expect;
    for (const [key, value] of Object.entries(members))
      expect((record as unknown as Record<string, unknown>)[key], `${key}: ${c.why}`).toBe(value);
    if (latency_ms !== undefined) expect(record!.summary?.weave?.latency_ms, c.why).toBe(latency_ms);
  });
});

describe("calls.query with $containsToken", () => {
  it.each(TOKEN_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const calls = await fake.client.calls
      .query({ project_id: ORDER_PROJECT, query: { $expr: c.expr } as never })
      .toArray();
    expect(
      calls.map((r) => r.id),
      c.why,
    ).toEqual(c.ids);
  });

  it("q.containsToken builds the raw tree of the first two cases", () => {
    expect(q.where(q.containsToken(q.field("inputs.q"), "reset"))).toStrictEqual({ $expr: TOKEN_CASES[0]!.expr });
    expect(q.where(q.containsToken(q.field("inputs.q"), "reset", { caseInsensitive: true }))).toStrictEqual({
      $expr: TOKEN_CASES[1]!.expr,
    });
  });
});

describe("calls.query refuses before sending what Weave's server cannot run", () => {
  it.each(REFUSAL_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const before = fake.svc.requests.length;
    const err = await caught(() =>
      fake.client.calls.query({ project_id: ORDER_PROJECT, ...c.body } as never).toArray(),
    );
    expect(err, c.why).toBeInstanceOf(RequestValidationError);
    expect(fake.svc.requests.length).toBe(before);
  });
});

describe("annotationQueues.items.progress refusals", () => {
  const refused = PROGRESS_CASES.filter((c) => c.steps.every((s) => s.by === "me") && c.steps.some((s) => s.refusal));
  it.each(refused.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    for (const step of c.steps) {
      const send = () =>
        fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, SEED_ITEM_IDS[0], {
          annotation_state: step.state,
          project_id: SEED_PROJECT_ID,
        });
      if (step.refusal === undefined) {
        await send();
        continue;
      }
      const err = await caught(send);
      expect(err).toBeInstanceOf(BadRequestError);
      expect((err as Error).message).toContain(step.refusal);
    }
  });
});
