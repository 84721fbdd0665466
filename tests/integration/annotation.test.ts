/** Annotation-queue item progress over real HTTP: states, typed items, refusals, encoding, auth. */
import { describe, expect, it } from "vitest";
import {
  type AnnotationQueueItem,
  AuthenticationError,
  BadRequestError,
  RequestValidationError,
} from "../../src/index.js";
import { referenceCalls, SEED_ITEM_IDS, SEED_PROJECT_ID, SEED_QUEUE_ID } from "../../src/testing/index.js";
import { caught, clientFor, closedPort, useFakeService } from "./helpers.js";

const ITEM = SEED_ITEM_IDS[0];
const PROJECT = SEED_PROJECT_ID;

const fake = useFakeService({ seedCalls: false });

const isoString = (s: unknown) =>
  typeof s === "string" && !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s);

describe("annotationQueues.items.progress", () => {
  it("moves an item from unstarted to in_progress to completed, with the annotator set", async () => {
    expect(fake.svc.annotation.getItem(SEED_QUEUE_ID, ITEM)!.annotation_state).toBe("unstarted");

    const first = await fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, ITEM, {
      annotation_state: "in_progress",
      project_id: PROJECT,
    });
    const item: AnnotationQueueItem = first.item;
    expect(item.annotation_state).toBe("in_progress");
    expect(item.id).toBe(ITEM);
    expect(item.queue_id).toBe(SEED_QUEUE_ID);
    expect(item.project_id).toBe(PROJECT);
    expect(item.annotator_user_id).toBe(fake.svc.userId);
    expect(item.call_id).toBe(referenceCalls()[0]!.id);
    for (const field of ["created_at", "updated_at", "call_started_at"] as const)
      expect(isoString(item[field])).toBe(true);
    expect(Array.isArray(item.display_fields)).toBe(true);
    expect(fake.svc.annotation.getItem(SEED_QUEUE_ID, ITEM)!.annotation_state).toBe("in_progress");

    const second = await fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, ITEM, {
      annotation_state: "completed",
      project_id: PROJECT,
    });
    expect(second.item.annotation_state).toBe("completed");
    expect(second.item.annotator_user_id).toBe(fake.svc.userId);
    expect(Date.parse(second.item.updated_at)).toBeGreaterThanOrEqual(Date.parse(item.updated_at));
    expect(fake.svc.annotation.getItem(SEED_QUEUE_ID, ITEM)!.annotation_state).toBe("completed");

    // Setting the same state again is accepted (a no-op): safe to retry.
    const again = await fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, ITEM, {
      annotation_state: "completed",
      project_id: PROJECT,
    });
    expect(again.item.annotation_state).toBe("completed");

    const req = fake.svc.requests[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe(`/annotation_queues/${SEED_QUEUE_ID}/items/${ITEM}/progress`);
    expect(req.json).toStrictEqual({ annotation_state: "in_progress", project_id: PROJECT });
  });

  it("skips an item", async () => {
    const { item } = await fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, SEED_ITEM_IDS[1], {
      annotation_state: "skipped",
      project_id: PROJECT,
    });
    expect(item.annotation_state).toBe("skipped");
  });

  it("a refused transition gives BadRequestError (400) with the server's reason", async () => {
    await fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, ITEM, {
      annotation_state: "completed",
      project_id: PROJECT,
    });
    const err = await caught(() =>
      fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, ITEM, {
        annotation_state: "skipped",
        project_id: PROJECT,
      }),
    );
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).status).toBe(400);
    expect((err as Error).message).toContain("Invalid state transition from 'completed' to 'skipped'");
    expect(fake.svc.annotation.getItem(SEED_QUEUE_ID, ITEM)!.annotation_state).toBe("completed");
  });

  it("an unknown item, or the wrong project, gives BadRequestError", async () => {
    const unknown = await caught(() =>
      fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, "no-such-item", {
        annotation_state: "completed",
        project_id: PROJECT,
      }),
    );
    expect(unknown).toBeInstanceOf(BadRequestError);
    const wrongProject = await caught(() =>
      fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, ITEM, {
        annotation_state: "completed",
        project_id: "acme/elsewhere",
      }),
    );
    expect(wrongProject).toBeInstanceOf(BadRequestError);
  });

  const invalid: Array<[string, string, string, Record<string, unknown>, string]> = [
    [
      "state unstarted (not settable)",
      SEED_QUEUE_ID,
      ITEM,
      { annotation_state: "unstarted", project_id: PROJECT },
      "annotation_state",
    ],
    ["state unknown", SEED_QUEUE_ID, ITEM, { annotation_state: "done", project_id: PROJECT }, "annotation_state"],
    ["state missing", SEED_QUEUE_ID, ITEM, { project_id: PROJECT }, "annotation_state"],
    [
      "project_id without entity",
      SEED_QUEUE_ID,
      ITEM,
      { annotation_state: "completed", project_id: "support-bot" },
      "project_id",
    ],
    [
      "project_id with three parts",
      SEED_QUEUE_ID,
      ITEM,
      { annotation_state: "completed", project_id: "a/b/c" },
      "project_id",
    ],
    ["project_id missing", SEED_QUEUE_ID, ITEM, { annotation_state: "completed" }, "project_id"],
    ["unknown field", SEED_QUEUE_ID, ITEM, { annotation_state: "completed", project_id: PROJECT, note: "x" }, "note"],
    ["empty queue id", "", ITEM, { annotation_state: "completed", project_id: PROJECT }, "queueId"],
    ["empty item id", SEED_QUEUE_ID, "", { annotation_state: "completed", project_id: PROJECT }, "itemId"],
    ["item id '..'", SEED_QUEUE_ID, "..", { annotation_state: "completed", project_id: PROJECT }, "itemId"],
    ["queue id '.'", ".", ITEM, { annotation_state: "completed", project_id: PROJECT }, "queueId"],
  ];

  it.each(invalid)("%s → RequestValidationError at %s, nothing sent", async (_name, queueId, itemId, params, path) => {
    const err = await caught(() => fake.client.annotationQueues.items.progress(queueId, itemId, params as never));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues.map((i) => i.path)).toContain(path);
    expect(fake.svc.requests).toHaveLength(0);
  });

  it("percent-encodes ids on the wire (a slash and a space), and the server finds the item", async () => {
    const queueId = "team/queue one";
    const itemId = "item/ 2";
    fake.svc.annotation.addQueue({ id: queueId, project_id: PROJECT });
    fake.svc.annotation.addItem(queueId, { call: referenceCalls()[1]!, id: itemId });
    const { item } = await fake.client.annotationQueues.items.progress(queueId, itemId, {
      annotation_state: "in_progress",
      project_id: PROJECT,
    });
    expect(item.id).toBe(itemId);
    expect(item.queue_id).toBe(queueId);
    expect(fake.svc.requests[0]!.path).toBe("/annotation_queues/team%2Fqueue%20one/items/item%2F%202/progress");
  });

  it("sends Basic auth from username and password; wrong credentials give AuthenticationError", async () => {
    await fake.client.annotationQueues.items.progress(SEED_QUEUE_ID, ITEM, {
      annotation_state: "in_progress",
      project_id: PROJECT,
    });
    const expected = `Basic ${Buffer.from(`${fake.svc.username}:${fake.svc.password}`).toString("base64")}`;
    expect(fake.svc.requests[0]!.headers.authorization).toBe(expected);
    const err = await caught(() =>
      clientFor(fake.svc, { password: "wrong-pass-xyz" }).annotationQueues.items.progress(SEED_QUEUE_ID, ITEM, {
        annotation_state: "completed",
        project_id: PROJECT,
      }),
    );
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify(err) + String(err)).not.toContain("wrong-pass-xyz");
  });

  it("goes to traceBaseURL when it is set, not to baseURL", async () => {
    const deadPort = await closedPort();
    const split = clientFor(fake.svc, { baseURL: `http://127.0.0.1:${deadPort}`, traceBaseURL: fake.svc.url });
    const { item } = await split.annotationQueues.items.progress(SEED_QUEUE_ID, ITEM, {
      annotation_state: "in_progress",
      project_id: PROJECT,
    });
    expect(item.annotation_state).toBe("in_progress");
    expect(fake.svc.requests).toHaveLength(1);
  });
});
