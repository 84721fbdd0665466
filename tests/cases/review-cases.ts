/**
 * Annotation-queue and feedback requests and what Weave's trace server does with them, in the
 * shared row format (`request-case.ts`: run by the SDK's and the fake's request-case runners),
 * and the behaviour cases the fake must follow (sorts, duplicates, per-annotator progress), run
 * by both the fake's tests (`tests/testing/review-cases.test.ts`) and the SDK's integration tests.
 *
 * `source` names the file of `wandb/weave` the rule comes from.
 */
import { SEED_ITEM_IDS, SEED_PROJECT_ID, SEED_QUEUE_ID } from "../../src/testing/index.js";
import type { RequestCase } from "./request-case.js";

const CALL = "weave:///acme/support-bot/call/0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01";
const SPEC = "weave:///acme/support-bot/object/quality:latest";

const REVIEW_ROWS: Array<Omit<RequestCase, "params"> & { request: Record<string, unknown> }> = [
  {
    name: "a queue with a name and no scorers",
    operation: "annotation_queues.create",
    request: { name: "Rollout review", scorer_refs: [] },
    real: { accepted: true },
    sdk: "sends",
    source: "weave/trace_server/trace_server_interface.py AnnotationQueueCreateReq",
  },
  {
    name: "a queue without scorer_refs",
    operation: "annotation_queues.create",
    request: { name: "Rollout review" },
    real: { status: 422 },
    sdk: { refuses: "scorer_refs" },
    source: "weave/trace_server/trace_server_interface.py AnnotationQueueCreateReq (scorer_refs required)",
  },
  {
    name: "a queue with an unknown key",
    operation: "annotation_queues.create",
    request: { name: "Rollout review", scorer_refs: [], owner: "me" },
    real: { status: 422 },
    sdk: { refuses: "owner" },
    source: "weave/trace_server/trace_server_interface.py BaseModelStrict (extra=forbid)",
  },
  {
    name: "items without display_fields (the SDK sends [])",
    operation: "annotation_queues.items.add",
    request: { call_ids: ["0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01"] },
    real: { accepted: true },
    sdk: "sends",
    sdkSends: { call_ids: ["0195a3c1-7d2e-7b41-9a0c-3f5e8d1b2a01"], display_fields: [] },
    source: "weave/trace_server/trace_server_interface.py AnnotationQueueAddCallsReq (display_fields required)",
  },
  {
    name: "an empty call_ids",
    operation: "annotation_queues.items.add",
    request: { call_ids: [], display_fields: [] },
    real: { accepted: true },
    sdk: { refuses: "call_ids" },
    source: "adds nothing: refused by the SDK as a mistake, accepted by Weave",
  },
  {
    name: "an item list with include_position null",
    operation: "annotation_queues.items.list",
    request: { include_position: null },
    real: { status: 422 },
    sdk: { refuses: "include_position" },
    source: "weave/trace_server/trace_server_interface.py AnnotationQueueItemsQueryReq (include_position: bool)",
  },
  {
    name: "an item list filtered by a state that does not exist",
    operation: "annotation_queues.items.list",
    request: { filter: { annotation_states: ["done"] } },
    real: { status: 422 },
    sdk: { refuses: "filter.annotation_states.0" },
    source: "weave/trace_server/trace_server_interface.py AnnotationState",
  },
  {
    name: "progress to unstarted",
    operation: "annotation_queues.items.progress",
    request: { annotation_state: "unstarted" },
    real: {
      status: 400,
      reason: "Invalid annotation_state 'unstarted'. Must be one of: completed, in_progress, skipped",
    },
    sdk: { refuses: "annotation_state" },
    source: "weave/trace_server/clickhouse/annotation_queues.py annotator_queue_items_progress_update",
  },
  {
    name: "a reaction",
    operation: "feedback.create",
    request: { weave_ref: CALL, feedback_type: "wandb.reaction.1", payload: { emoji: "👍" } },
    real: { accepted: true },
    sdk: "sends",
    source: "weave/trace_server/feedback.py process_feedback_payload",
  },
  {
    name: "a reaction without an emoji",
    operation: "feedback.create",
    request: { weave_ref: CALL, feedback_type: "wandb.reaction.1", payload: { text: "nice" } },
    real: { status: 400, reason: "Invalid payload for feedback_type wandb.reaction.1" },
    sdk: { refuses: "payload.emoji" },
    source: "weave/trace_server/interface/feedback_types.py FeedbackPayloadReactionReq",
  },
  {
    name: "an annotation with its spec ref and a value",
    operation: "feedback.create",
    request: {
      weave_ref: CALL,
      feedback_type: "wandb.annotation.quality",
      annotation_ref: SPEC,
      payload: { value: 1 },
    },
    real: { accepted: true },
    sdk: "sends",
    source: "weave/trace_server/feedback.py validate_feedback_create_req",
  },
  {
    name: "an annotation value of 0",
    operation: "feedback.create",
    request: {
      weave_ref: CALL,
      feedback_type: "wandb.annotation.quality",
      annotation_ref: SPEC,
      payload: { value: 0 },
    },
    real: { accepted: true },
    sdk: "sends",
    source: "weave/trace_server/interface/feedback_types.py AnnotationPayloadSchema (value: Any)",
  },
  {
    name: "an annotation without annotation_ref",
    operation: "feedback.create",
    request: { weave_ref: CALL, feedback_type: "wandb.annotation.quality", payload: { value: 1 } },
    real: { status: 400, reason: "annotation_ref is required for annotation feedback" },
    sdk: { refuses: "annotation_ref" },
    source: "weave/trace_server/feedback.py validate_feedback_create_req",
  },
  {
    name: "an annotation whose spec has another name",
    operation: "feedback.create",
    request: {
      weave_ref: CALL,
      feedback_type: "wandb.annotation.quality",
      annotation_ref: "weave:///acme/support-bot/object/tone:latest",
      payload: { value: 1 },
    },
    real: { status: 400, reason: "annotation_ref must point to an object with name quality" },
    sdk: { refuses: "annotation_ref" },
    source: "weave/trace_server/feedback.py validate_feedback_create_req",
  },
  {
    name: "an annotation without payload.value",
    operation: "feedback.create",
    request: {
      weave_ref: CALL,
      feedback_type: "wandb.annotation.quality",
      annotation_ref: SPEC,
      payload: { score: 1 },
    },
    real: { status: 400, reason: "Invalid payload for feedback_type wandb.annotation.quality" },
    sdk: { refuses: "payload.value" },
    source: "weave/trace_server/interface/feedback_types.py AnnotationPayloadSchema",
  },
  {
    name: "annotation_ref on a custom type",
    operation: "feedback.create",
    request: { weave_ref: CALL, feedback_type: "score", annotation_ref: SPEC, payload: { value: 1 } },
    real: { status: 400, reason: "annotation_ref is not allowed for non-annotation feedback" },
    sdk: { refuses: "annotation_ref" },
    source: "weave/trace_server/feedback.py validate_feedback_create_req",
  },
  {
    name: "a weave_ref that is not a weave:/// ref",
    operation: "feedback.create",
    request: { weave_ref: "call/0195a3c1", feedback_type: "score", payload: { value: 1 } },
    real: { status: 400, reason: "Invalid weave_ref" },
    sdk: { refuses: "weave_ref" },
    source: "weave/shared/refs_internal.py parse_internal_uri",
  },
  {
    name: "a custom type with any payload",
    operation: "feedback.create",
    request: { weave_ref: CALL, feedback_type: "reward", payload: { value: 0.5, reviewer: "ana" } },
    real: { accepted: true },
    sdk: "sends",
    source: "weave/trace_server/feedback.py (no schema for other types)",
  },
  {
    name: "a purge by feedback_type",
    operation: "feedback.purge",
    request: { query: { $expr: { $eq: [{ $getField: "feedback_type" }, { $literal: "score" }] } } },
    real: { status: 400, reason: "Can only purge feedback by specifying one or more feedback ids" },
    sdk: { refuses: "query" },
    source: "weave/trace_server/feedback.py validate_feedback_purge_req",
  },
  {
    name: "a purge by id",
    operation: "feedback.purge",
    request: { query: { $expr: { $eq: [{ $getField: "id" }, { $literal: "0195a3c9-0000-7000-8000-000000000001" }] } } },
    real: { accepted: true },
    sdk: "sends",
    source: "weave/trace_server/feedback.py validate_feedback_purge_req",
  },
];

/** The rows, each sent for the seeded project (and queue and item where the path has them). */
export const REVIEW_REQUEST_CASES: readonly RequestCase[] = REVIEW_ROWS.map(({ request, ...row }) => ({
  ...row,
  params: { project_id: SEED_PROJECT_ID, ...request },
  ...(row.sdkSends ? { sdkSends: { project_id: SEED_PROJECT_ID, ...row.sdkSends } } : {}),
  pathArguments: { queueId: SEED_QUEUE_ID, itemId: SEED_ITEM_IDS[0]! },
}));

/** Queues created in this order, one a millisecond apart. */
export const QUEUE_NAMES = ["Beta", "alpha", "Gamma"] as const;

/** How Weave orders queues (`annotation_queues_query_builder.py`): names in list order. */
export const QUEUE_SORT_CASES: Array<{
  name: string;
  sort_by?: Array<{ field: string; direction: "asc" | "desc" }>;
  order: string[];
}> = [
  { name: "default: newest first", order: ["Gamma", "alpha", "Beta"] },
  { name: "created_at asc", sort_by: [{ field: "created_at", direction: "asc" }], order: ["Beta", "alpha", "Gamma"] },
  {
    name: "a field that cannot be sorted by is ignored (the id decides)",
    sort_by: [{ field: "description", direction: "desc" }],
    order: ["by id"],
  },
];

/**
 * Per-annotator progress (`annotator_queue_items_progress_update`): each step by `me` or by
 * `other`, what the step answers, and the state the item then shows.
 */
const TO_SKIPPED =
  "Invalid state transition from 'completed' to 'skipped'. Only transitions from 'in_progress' or 'unstarted' are allowed.";
const TO_IN_PROGRESS =
  "Cannot transition to 'in_progress' when a record already exists. 'in_progress' can only be set on new items.";

/**
 * The annotation-state rule, once (`weave/trace_server/...annotation_queues...` progress): each
 * step by this reviewer (`me`) or another (`other`), whether Weave takes it (or the reason of its
 * 400), and the state the item then shows. Run by the fake's tests and, for the refusals, by the
 * SDK's integration tests.
 */
export const PROGRESS_CASES: Array<{
  name: string;
  steps: Array<{
    by: "me" | "other";
    state: "in_progress" | "completed" | "skipped";
    refusal?: string;
    shows: string;
  }>;
}> = [
  {
    name: "in_progress then completed",
    steps: [
      { by: "me", state: "in_progress", shows: "in_progress" },
      { by: "me", state: "completed", shows: "completed" },
    ],
  },
  {
    name: "in_progress then skipped",
    steps: [
      { by: "me", state: "in_progress", shows: "in_progress" },
      { by: "me", state: "skipped", shows: "skipped" },
    ],
  },
  {
    name: "the same state twice is a no-op",
    steps: [
      { by: "me", state: "skipped", shows: "skipped" },
      { by: "me", state: "skipped", shows: "skipped" },
    ],
  },
  {
    name: "completed to skipped is refused",
    steps: [
      { by: "me", state: "completed", shows: "completed" },
      { by: "me", state: "skipped", refusal: TO_SKIPPED, shows: "completed" },
    ],
  },
  {
    name: "back to in_progress over a record is refused",
    steps: [
      { by: "me", state: "completed", shows: "completed" },
      { by: "me", state: "in_progress", refusal: TO_IN_PROGRESS, shows: "completed" },
    ],
  },
  {
    name: "each annotator has their own progress; the item shows the latest",
    steps: [
      { by: "other", state: "completed", shows: "completed" },
      { by: "me", state: "in_progress", shows: "in_progress" },
      { by: "me", state: "skipped", shows: "skipped" },
    ],
  },
];

/** Recorded bodies of Weave's answers (constructed from its response models), for msw unit tests. */
export const RECORDED = {
  queue: {
    id: "0195a3cf-1a2b-7c3d-8e4f-5a6b7c8d9e0f",
    project_id: "acme/support-bot",
    name: "Support triage",
    description: "Tickets to review",
    scorer_refs: ["weave:///acme/support-bot/object/quality:latest"],
    created_at: "2025-03-18T18:00:00.000000Z",
    created_by: "VXNlcjoxMjM0NTY=",
    updated_at: "2025-03-18T18:00:00.000000Z",
    deleted_at: null,
  },
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
    annotation_state: "unstarted",
    annotator_user_id: null,
    created_at: "2025-03-18T18:00:00.000000Z",
    created_by: "VXNlcjoxMjM0NTY=",
    updated_at: "2025-03-18T18:00:00.000000Z",
    deleted_at: null,
    position_in_queue: null,
  },
  feedbackCreated: {
    id: "0195a3e1-0b1c-7d2e-8f30-4a5b6c7d8e9f",
    created_at: "2025-03-18T18:05:00.000000Z",
    wb_user_id: "VXNlcjoxMjM0NTY=",
    payload: { emoji: "👍", alias: ":thumbs_up:", detoned: "👍", detoned_alias: ":thumbs_up:" },
  },
  feedbackRow: {
    id: "0195a3e1-0b1c-7d2e-8f30-4a5b6c7d8e9f",
    project_id: "acme/support-bot",
    weave_ref: CALL,
    wb_user_id: "VXNlcjoxMjM0NTY=",
    creator: null,
    created_at: "2025-03-18T18:05:00.000000Z",
    feedback_type: "wandb.annotation.quality",
    payload: { value: 1 },
    annotation_ref: SPEC,
    runnable_ref: null,
    call_ref: null,
    trigger_ref: null,
  },
} as const;
