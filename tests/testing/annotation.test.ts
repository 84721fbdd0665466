import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FakeAnnotationQueueItem, FakeService } from "../../src/testing/index.js";
import {
  referenceCalls,
  SEED_ITEM_IDS,
  SEED_PROJECT_ID,
  SEED_QUEUE_ID,
  startFakeService,
} from "../../src/testing/index.js";
import { basic, postJson } from "./helpers.js";

let svc: FakeService;
beforeAll(async () => {
  svc = await startFakeService();
});
afterEach(() => svc.reset());
afterAll(() => svc.close());

function progress(
  itemId: string,
  annotation_state: unknown,
  project_id: unknown = SEED_PROJECT_ID,
  queueId = SEED_QUEUE_ID,
): Promise<Response> {
  return postJson(
    svc,
    `/annotation_queues/${queueId}/items/${itemId}/progress`,
    { annotation_state, project_id },
    basic(svc),
  );
}

async function ok(itemId: string, state: string): Promise<FakeAnnotationQueueItem> {
  const res = await progress(itemId, state);
  expect(res.status).toBe(200);
  return ((await res.json()) as { item: FakeAnnotationQueueItem }).item;
}

async function refused(itemId: string, state: unknown, status = 400): Promise<string> {
  const res = await progress(itemId, state);
  expect(res.status).toBe(status);
  return ((await res.json()) as { reason: string }).reason;
}

const ITEM = SEED_ITEM_IDS[0];

describe("annotation progress", () => {
  it("returns the item with every field, ISO timestamps, and the session's user as annotator", async () => {
    const item = await ok(ITEM, "in_progress");
    const call = referenceCalls()[0]!;
    expect(item).toEqual({
      id: ITEM,
      project_id: SEED_PROJECT_ID,
      queue_id: SEED_QUEUE_ID,
      call_id: call.id,
      call_started_at: call.started_at,
      call_ended_at: call["ended_at"],
      call_op_name: call.op_name,
      call_trace_id: call.trace_id,
      display_fields: ["inputs.question", "output.answer"],
      added_by: expect.any(String),
      annotation_state: "in_progress",
      annotator_user_id: svc.userId,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      created_by: expect.any(String),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      deleted_at: null,
      position_in_queue: null,
    });
  });

  it("allows unstarted → any settable state", async () => {
    expect((await ok(SEED_ITEM_IDS[0], "completed")).annotation_state).toBe("completed");
    expect((await ok(SEED_ITEM_IDS[1], "skipped")).annotation_state).toBe("skipped");
    expect((await ok(SEED_ITEM_IDS[2], "in_progress")).annotation_state).toBe("in_progress");
  });

  it("allows in_progress → completed and in_progress → skipped", async () => {
    await ok(SEED_ITEM_IDS[0], "in_progress");
    expect((await ok(SEED_ITEM_IDS[0], "completed")).annotation_state).toBe("completed");
    await ok(SEED_ITEM_IDS[1], "in_progress");
    expect((await ok(SEED_ITEM_IDS[1], "skipped")).annotation_state).toBe("skipped");
  });

  it("treats the same state again as a no-op returning the item unchanged", async () => {
    const first = await ok(ITEM, "completed");
    const again = await ok(ITEM, "completed");
    expect(again).toEqual(first);
  });

  it("refuses completed ↔ skipped and going back to in_progress", async () => {
    await ok(SEED_ITEM_IDS[0], "completed");
    expect(await refused(SEED_ITEM_IDS[0], "skipped")).toContain(
      "Invalid state transition from 'completed' to 'skipped'",
    );
    expect(await refused(SEED_ITEM_IDS[0], "in_progress")).toContain(
      "Cannot transition to 'in_progress' when a record already exists.",
    );
    await ok(SEED_ITEM_IDS[1], "skipped");
    expect(await refused(SEED_ITEM_IDS[1], "completed")).toContain(
      "Invalid state transition from 'skipped' to 'completed'",
    );
  });

  it("refuses unstarted and unknown states with 400", async () => {
    expect(await refused(ITEM, "unstarted")).toContain("Invalid annotation_state");
    expect(await refused(ITEM, "done")).toContain("Invalid annotation_state");
  });

  it("refuses an unknown item, an unknown queue and a project that does not own the queue with 400", async () => {
    expect(await refused("no-such-item", "completed")).toContain(
      `Queue item 'no-such-item' not found in queue '${SEED_QUEUE_ID}'`,
    );
    const otherQueue = await progress(ITEM, "completed", SEED_PROJECT_ID, "no-such-queue");
    expect(otherQueue.status).toBe(400);
    const wrongProject = await progress(ITEM, "completed", "acme/other-project");
    expect(wrongProject.status).toBe(400);
  });

  it("accepts an unknown body key, as current Weave servers do", async () => {
    const res = await postJson(
      svc,
      `/annotation_queues/${SEED_QUEUE_ID}/items/${SEED_ITEM_IDS[0]}/progress`,
      // The item is completed for this user already: the same state again is a no-op, 200.
      { annotation_state: "completed", project_id: SEED_PROJECT_ID, note: "looked at it" },
      basic(svc),
    );
    expect(res.status).toBe(200);
  });

  it("refuses a malformed body with 422 detail", async () => {
    const res = await postJson(
      svc,
      `/annotation_queues/${SEED_QUEUE_ID}/items/${ITEM}/progress`,
      { annotation_state: 3 },
      basic(svc),
    );
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: Array<{ loc: unknown[]; type: string }> };
    expect(detail).toContainEqual({
      loc: ["body", "annotation_state"],
      msg: "Input should be a valid string",
      type: "string_type",
    });
    expect(detail).toContainEqual({ loc: ["body", "project_id"], msg: "Field required", type: "missing" });
  });

  it("keeps progress per annotator: the item shows the latest row across annotators", async () => {
    const seededByOther = svc.annotation.getItem(SEED_QUEUE_ID, SEED_ITEM_IDS[3])!;
    expect(seededByOther.annotation_state).toBe("completed");
    expect(seededByOther.annotator_user_id).not.toBe(svc.userId);
    // The session user has no row yet, so in_progress is allowed although the item shows completed.
    const mine = await ok(SEED_ITEM_IDS[3], "in_progress");
    expect(mine.annotation_state).toBe("in_progress");
    expect(mine.annotator_user_id).toBe(svc.userId);
  });

  it("lets tests add queues and items", async () => {
    const queue = svc.annotation.addQueue({ project_id: "acme/new", name: "New" });
    const call = { ...referenceCalls()[2]!, project_id: "acme/new" };
    const added = svc.annotation.addItem(queue.id, { call });
    expect(added.annotation_state).toBe("unstarted");
    const res = await progress(added.id, "skipped", "acme/new", queue.id);
    expect(res.status).toBe(200);
    expect(svc.annotation.getItem(queue.id, added.id)!.annotation_state).toBe("skipped");
  });

  it("reset() restores the seeded states", async () => {
    await ok(ITEM, "completed");
    svc.reset();
    expect(svc.annotation.getItem(SEED_QUEUE_ID, ITEM)!.annotation_state).toBe("unstarted");
  });
});
