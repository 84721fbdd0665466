/**
 * Move an annotation-queue item through its states.
 *
 *   npx tsx examples/annotation-progress.ts [--project=entity/project --queue=ID --item=ID]
 */
import { BadRequestError } from "../src/index.js";
import { howToSet, runExample } from "./_service.js";

await runExample(async ({ client, projectId, queueId, itemId }) => {
  if (!projectId || !queueId || !itemId) {
    console.log(`skipped: needs a project, a queue and an item (${howToSet("queueId")}; ${howToSet("itemId")})`);
    return;
  }
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
});
