/**
 * Annotation queues and feedback on the wire, against Weave's recorded answers (msw): each
 * endpoint's method, path, query, body, Basic auth on the trace base URL, how its answer is
 * read, and Weave's `{reason}` errors as typed errors carrying the reason. Also the review case
 * table against the SDK's validation: refused ⇒ `RequestValidationError` naming the field,
 * nothing sent; accepted ⇒ sent as written.
 */
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { BadRequestError, type Inferloop, NotFoundError, q, RequestValidationError } from "../../src/index.js";
import { RECORDED } from "../cases/review-cases.js";
import { makeClient, PASSWORD, TRACE, useMsw } from "../core/msw-setup.js";

const { server, seen } = useMsw();
const PROJECT = "acme/support-bot";
const QUEUE = RECORDED.queue.id;
const client = () => makeClient({ traceBaseURL: TRACE, password: PASSWORD, maxRetries: 0 });
const BASIC = `Basic ${Buffer.from(`api:${PASSWORD}`).toString("base64")}`;

/** Answers every trace route with `answer` and keeps the bodies sent. */
function capture(method: "post" | "get" | "put" | "delete", path: string, answer: () => Response): unknown[] {
  const bodies: unknown[] = [];
  server.use(
    http[method](`${TRACE}${path}`, async ({ request }) => {
      const text = await request.text();
      bodies.push(text === "" ? undefined : JSON.parse(text));
      return answer();
    }),
  );
  return bodies;
}

describe("annotation queues on the wire", () => {
  it("create posts the body as written and reads the id", async () => {
    const bodies = capture("post", "/annotation_queues", () => HttpResponse.json({ id: QUEUE }));
    const res = await client().annotationQueues.create({ project_id: PROJECT, name: "Review", scorer_refs: [] });
    expect(res).toEqual({ id: QUEUE });
    expect(bodies).toEqual([{ project_id: PROJECT, name: "Review", scorer_refs: [] }]);
    expect(seen[0]!.headers.get("authorization")).toBe(BASIC);
    expect(seen[0]!.url.origin).toBe(TRACE);
  });

  it("list posts to /annotation_queues/query asking for NDJSON and streams the queues", async () => {
    const line = JSON.stringify(RECORDED.queue);
    const bodies = capture(
      "post",
      "/annotation_queues/query",
      () =>
        new HttpResponse(`${line}\n${line.replace("Support triage", "Other")}\n`, {
          headers: { "content-type": "application/x-ndjson" },
        }),
    );
    const queues = await client()
      .annotationQueues.list({ project_id: PROJECT, name: "tri" }, { pageSize: 5 })
      .toArray();
    expect(queues.map((q) => q.name)).toEqual(["Support triage", "Other"]);
    expect(bodies).toEqual([{ project_id: PROJECT, name: "tri", limit: 5, offset: 0 }]);
    expect(seen[0]!.headers.get("accept")).toBe("application/x-ndjson");
  });

  it("retrieve, update and delete resolve to the queue Weave wraps in { queue }", async () => {
    capture("get", `/annotation_queues/${QUEUE}`, () => HttpResponse.json({ queue: RECORDED.queue }));
    const updates = capture("put", `/annotation_queues/${QUEUE}`, () =>
      HttpResponse.json({ queue: { ...RECORDED.queue, description: "step 3" } }),
    );
    capture("delete", `/annotation_queues/${QUEUE}`, () =>
      HttpResponse.json({ queue: { ...RECORDED.queue, deleted_at: "2025-03-19T00:00:00.000000Z" } }),
    );
    const c = client();
    expect(await c.annotationQueues.retrieve(QUEUE, { project_id: PROJECT })).toEqual(RECORDED.queue);
    expect((await c.annotationQueues.update(QUEUE, { project_id: PROJECT, description: "step 3" })).description).toBe(
      "step 3",
    );
    expect((await c.annotationQueues.delete(QUEUE, { project_id: PROJECT })).deleted_at).toBe(
      "2025-03-19T00:00:00.000000Z",
    );
    expect(updates).toEqual([{ project_id: PROJECT, description: "step 3" }]);
    expect(seen.map((s) => `${s.method} ${s.url.pathname}${s.url.search}`)).toEqual([
      `GET /annotation_queues/${QUEUE}?project_id=acme%2Fsupport-bot`,
      `PUT /annotation_queues/${QUEUE}`,
      `DELETE /annotation_queues/${QUEUE}?project_id=acme%2Fsupport-bot`,
    ]);
  });

  it("stats reads { stats }", async () => {
    const stats = [{ queue_id: QUEUE, total_items: 4, completed_items: 1 }];
    const bodies = capture("post", "/annotation_queues/stats", () => HttpResponse.json({ stats }));
    expect(await client().annotationQueues.stats({ project_id: PROJECT, queue_ids: [QUEUE] })).toEqual({ stats });
    expect(bodies).toEqual([{ project_id: PROJECT, queue_ids: [QUEUE] }]);
  });

  it("items.add sends display_fields as [] when left out and reads the counts", async () => {
    const bodies = capture("post", `/annotation_queues/${QUEUE}/items`, () =>
      HttpResponse.json({ added_count: 1, duplicates: 1 }),
    );
    const res = await client().annotationQueues.items.add(QUEUE, { project_id: PROJECT, call_ids: ["a", "b"] });
    expect(res).toEqual({ added_count: 1, duplicates: 1 });
    expect(bodies).toEqual([{ project_id: PROJECT, call_ids: ["a", "b"], display_fields: [] }]);
  });

  it("items.list pages with limit/offset over { items } and stops at a short page", async () => {
    const page = (n: number) => Array.from({ length: n }, (_, i) => ({ ...RECORDED.item, id: `item-${i}` }));
    let calls = 0;
    const bodies = capture("post", `/annotation_queues/${QUEUE}/items/query`, () =>
      HttpResponse.json({ items: page(calls++ === 0 ? 2 : 1) }),
    );
    const pages = [];
    for await (const p of client().annotationQueues.items.list(QUEUE, { project_id: PROJECT }, { pageSize: 2 }).pages())
      pages.push(p.length);
    expect(pages).toEqual([2, 1]);
    expect(bodies).toEqual([
      { project_id: PROJECT, limit: 2, offset: 0 },
      { project_id: PROJECT, limit: 2, offset: 2 },
    ]);
  });

  it("leaves include_position out unless given (Weave refuses null)", async () => {
    const bodies = capture("post", `/annotation_queues/${QUEUE}/items/query`, () => HttpResponse.json({ items: [] }));
    await client().annotationQueues.items.list(QUEUE, { project_id: PROJECT }).toArray();
    await client().annotationQueues.items.list(QUEUE, { project_id: PROJECT, include_position: true }).toArray();
    expect(bodies.map((b) => "include_position" in (b as object))).toEqual([false, true]);
  });

  it("refuses a queue id that is not a path segment, nothing sent", async () => {
    for (const id of ["a/b", "", "..", "a?b"]) {
      const err = await client()
        .annotationQueues.retrieve(id, { project_id: PROJECT })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).issues[0]!.path).toBe("queueId");
    }
    expect(seen).toEqual([]);
  });

  it("turns Weave's { reason } bodies into typed errors carrying the reason", async () => {
    capture("get", `/annotation_queues/${QUEUE}`, () =>
      HttpResponse.json({ reason: `Queue ${QUEUE} not found` }, { status: 404 }),
    );
    capture("post", `/annotation_queues/${QUEUE}/items/item-1/progress`, () =>
      HttpResponse.json({ reason: "Invalid state transition from 'completed' to 'skipped'" }, { status: 400 }),
    );
    const missing = await client()
      .annotationQueues.retrieve(QUEUE, { project_id: PROJECT })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).message).toContain(`Queue ${QUEUE} not found`);
    expect((missing as NotFoundError).body).toEqual({ reason: `Queue ${QUEUE} not found` });
    const refused = await client()
      .annotationQueues.items.progress(QUEUE, "item-1", { project_id: PROJECT, annotation_state: "skipped" })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toContain("Invalid state transition from 'completed' to 'skipped'");
  });
});

describe("feedback on the wire", () => {
  const ref = `weave:///${PROJECT}/call/${RECORDED.item.call_id}`;

  it("create posts the body as written and reads { id, created_at, wb_user_id, payload }", async () => {
    const bodies = capture("post", "/feedback/create", () => HttpResponse.json(RECORDED.feedbackCreated));
    const params = { project_id: PROJECT, weave_ref: ref, feedback_type: "wandb.reaction.1", payload: { emoji: "👍" } };
    expect(await client().feedback.create(params)).toEqual(RECORDED.feedbackCreated);
    expect(bodies).toEqual([params]);
  });

  it("a create is not retried once sent", async () => {
    let n = 0;
    server.use(
      http.post(`${TRACE}/feedback/create`, () => {
        n++;
        return HttpResponse.json(
          { reason: "Temporary backend error" },
          { status: 502, headers: { "retry-after-ms": "1" } },
        );
      }),
    );
    const c = makeClient({ traceBaseURL: TRACE, password: PASSWORD, maxRetries: 2 });
    await expect(
      c.feedback.create({ project_id: PROJECT, weave_ref: ref, feedback_type: "note", payload: {} }),
    ).rejects.toThrow("Temporary backend error");
    expect(n).toBe(1);
  });

  it("query pages over { result }", async () => {
    const bodies = capture("post", "/feedback/query", () => HttpResponse.json({ result: [RECORDED.feedbackRow] }));
    const rows = await client()
      .feedback.query({
        project_id: PROJECT,
        query: q.where(q.eq(q.field("weave_ref"), ref)),
        fields: ["id", "payload"],
      })
      .toArray();
    expect(rows).toEqual([RECORDED.feedbackRow]);
    expect(bodies).toEqual([
      {
        project_id: PROJECT,
        query: { $expr: { $eq: [{ $getField: "weave_ref" }, { $literal: ref }] } },
        fields: ["id", "payload"],
        limit: 1000,
        offset: 0,
      },
    ]);
  });

  it("replace and purge post their bodies", async () => {
    const replaced = capture("post", "/feedback/replace", () => HttpResponse.json(RECORDED.feedbackCreated));
    const purged = capture("post", "/feedback/purge", () => HttpResponse.json({}));
    const c = client();
    const params = {
      project_id: PROJECT,
      weave_ref: ref,
      feedback_type: "reward",
      payload: { value: 0 },
      feedback_id: RECORDED.feedbackRow.id,
    };
    expect((await c.feedback.replace(params)).id).toBe(RECORDED.feedbackCreated.id);
    await c.feedback.purge({ project_id: PROJECT, query: q.where(q.eq(q.field("id"), "f1")) });
    expect(replaced).toEqual([params]);
    expect(purged).toEqual([
      { project_id: PROJECT, query: { $expr: { $eq: [{ $getField: "id" }, { $literal: "f1" }] } } },
    ]);
  });
});
