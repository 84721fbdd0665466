import { describe, expect, expectTypeOf, it } from "vitest";
import type {
  AnnotationQueueItem,
  AnnotationQueueItemProgressResponse,
  AnnotationState,
} from "../../../src/wire/annotation-queues/index.js";

// The constructed progress response of weave.md section 8, checked by the compiler.
const sampleResponse = {
  item: {
    id: "0195a3d0-44c1-7a10-9e2f-5b6c7d8e9f01",
    project_id: "acme/support-bot",
    queue_id: "0195a3cf-1a2b-7c3d-8e4f-5a6b7c8d9e0f",
    call_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01",
    call_started_at: "2025-03-18T17:04:12.345000Z",
    call_ended_at: "2025-03-18T17:04:14.102000Z",
    call_op_name: "weave:///acme/support-bot/op/answer_ticket:Qm3vX8kLp2rT9sYw4zN7bC1dF6gH0jK5mR8tV2xA4cE",
    call_trace_id: "0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a00",
    display_fields: ["inputs.question", "output.answer"],
    added_by: "VXNlcjoxMjM0NTY=",
    annotation_state: "completed",
    annotator_user_id: "VXNlcjo3ODkw",
    created_at: "2025-03-18T18:00:00.000000Z",
    created_by: "VXNlcjoxMjM0NTY=",
    updated_at: "2025-03-18T18:00:00.000000Z",
    deleted_at: null,
    position_in_queue: null,
  },
} satisfies AnnotationQueueItemProgressResponse;

describe("AnnotationQueueItem", () => {
  it("reads the sample progress response", () => {
    const { item } = JSON.parse(JSON.stringify(sampleResponse)) as AnnotationQueueItemProgressResponse;
    expect(item.annotation_state).toBe("completed");
    expect(item.display_fields).toEqual(["inputs.question", "output.answer"]);
    expect(Date.parse(item.updated_at)).toBe(Date.UTC(2025, 2, 18, 18));
    expectTypeOf(item.annotation_state).toEqualTypeOf<AnnotationState>();
    expectTypeOf(item.position_in_queue).toEqualTypeOf<number | null | undefined>();
    expectTypeOf(item.call_ended_at).toEqualTypeOf<string | null | undefined>();
  });

  it("accepts an item from an older server without the newest fields", () => {
    const item: AnnotationQueueItem = {
      id: "i",
      project_id: "acme/p",
      queue_id: "q",
      call_id: "c",
      call_started_at: "2025-01-01T00:00:00Z",
      call_op_name: "op",
      call_trace_id: "t",
      display_fields: [],
      annotation_state: "unstarted",
      created_at: "2025-01-01T00:00:00Z",
      created_by: "u",
      updated_at: "2025-01-01T00:00:00Z",
    };
    expect(item.annotator_user_id).toBeUndefined();
  });

  it("keeps the state union open for values newer servers may add", () => {
    const future: AnnotationState = "needs_review";
    expect(future).toBe("needs_review");
  });
});
