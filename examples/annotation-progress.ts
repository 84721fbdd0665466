/**
 * Move an annotation-queue item through its states.
 *
 *   npx tsx annotation-progress.ts          (needs: npm install inferloop tsx)
 *
 * Against your own service, name the item: INFERLOOP_PROJECT_ID (entity/project),
 * INFERLOOP_QUEUE_ID and INFERLOOP_ITEM_ID.
 */
import { BadRequestError, Inferloop } from "inferloop";
import { SEED_ITEM_IDS, SEED_PROJECT_ID, SEED_QUEUE_ID, startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback, with the queue it seeds.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const projectId = process.env.INFERLOOP_PROJECT_ID ?? (fake ? SEED_PROJECT_ID : undefined);
const queueId = process.env.INFERLOOP_QUEUE_ID ?? (fake ? SEED_QUEUE_ID : undefined);
const itemId = process.env.INFERLOOP_ITEM_ID ?? (fake ? SEED_ITEM_IDS[0] : undefined);

try {
  if (!projectId || !queueId || !itemId) {
    console.log(
      "skipped: needs a project, a queue and an item (INFERLOOP_PROJECT_ID, INFERLOOP_QUEUE_ID, INFERLOOP_ITEM_ID)",
    );
  } else {
    const progress = (annotation_state: "in_progress" | "completed" | "skipped") =>
      client.annotationQueues.items.progress(queueId, itemId, { annotation_state, project_id: projectId });

    const started = await progress("in_progress");
    console.log(
      `item ${started.item.id}: ${started.item.annotation_state} (annotator ${started.item.annotator_user_id ?? "?"})`,
    );

    const done = await progress("completed");
    console.log(`item ${done.item.id}: ${done.item.annotation_state} at ${done.item.updated_at}`);

    // Setting the same state again changes nothing, so the SDK may retry this call safely.
    const again = await progress("completed");
    console.log(`completed again: still ${again.item.annotation_state}`);

    // The service decides which moves are allowed; a refused one is a 400.
    try {
      await progress("skipped");
      console.log("completed → skipped: allowed by this service");
    } catch (err) {
      if (!(err instanceof BadRequestError)) throw err;
      console.log(`completed → skipped: refused (${err.status})`);
    }
  }
} finally {
  await fake?.close();
}
