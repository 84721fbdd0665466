/**
 * The review case table (annotation queues, items, progress, feedback) against the fake service
 * over real HTTP: the fake accepts what Weave accepts and refuses what it refuses, with Weave's
 * status and `{reason}`; it orders queues and keeps per-annotator progress as Weave does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeService,
  referenceCalls,
  SEED_ITEM_IDS,
  SEED_PROJECT_ID,
  SEED_QUEUE_ID,
  startFakeService,
} from "../../src/testing/index.js";
import { PROGRESS_CASES, QUEUE_NAMES, QUEUE_SORT_CASES } from "../cases/review-cases.js";
import { basic, postJson } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService({ seedCalls: false, calls: referenceCalls() });
});
afterAll(() => svc.close());
beforeEach(() => svc.reset());

const post = (path: string, body: unknown, headers = basic(svc)) => postJson(svc, path, body, headers);

describe("queue order", () => {
  it.each(QUEUE_SORT_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    svc.state.annotation.queues.clear();
    const ids: Record<string, string> = {};
    for (const name of QUEUE_NAMES) {
      const res = await post("/annotation_queues", { project_id: SEED_PROJECT_ID, name, scorer_refs: [] });
      ids[name] = ((await res.json()) as { id: string }).id;
      await new Promise((r) => setTimeout(r, 2));
    }
    const res = await post("/annotation_queues/query", { project_id: SEED_PROJECT_ID, sort_by: c.sort_by });
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const names = (await res.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { name: string }).name);
    const expected = c.order[0] === "by id" ? [...QUEUE_NAMES].sort((a, b) => (ids[a]! < ids[b]! ? -1 : 1)) : c.order;
    expect(names).toEqual(expected);
  });
});

describe("per-annotator progress", () => {
  it.each(PROGRESS_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const path = `/annotation_queues/${SEED_QUEUE_ID}/items/${SEED_ITEM_IDS[0]}/progress`;
    for (const step of c.steps) {
      // The fake serves one session user; another reviewer's progress is set on its store.
      if (step.by === "other") svc.annotation.setProgress(SEED_QUEUE_ID, SEED_ITEM_IDS[0], step.state, "VXNlcjo3ODkw");
      else {
        const res = await post(path, { project_id: SEED_PROJECT_ID, annotation_state: step.state });
        expect(res.status, `${step.by} → ${step.state}`).toBe(step.refusal ? 400 : 200);
        if (step.refusal) expect(((await res.json()) as { reason: string }).reason).toBe(step.refusal);
      }
      const list = await post(`/annotation_queues/${SEED_QUEUE_ID}/items/query`, {
        project_id: SEED_PROJECT_ID,
        filter: { id: SEED_ITEM_IDS[0] },
      });
      const { items } = (await list.json()) as { items: Array<{ annotation_state: string }> };
      expect(items[0]!.annotation_state).toBe(step.shows);
    }
  });
});
