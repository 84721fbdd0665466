/**
 * The review step of the RL loop: query the chat calls the rollouts just traced, put them in
 * the annotation queue, and mark their items completed.
 */
import type { ExampleService } from "./_service.js";
import type { Tracing } from "./_tracing.js";

export async function reviewRollouts(
  service: ExampleService,
  tracing: Tracing | undefined,
  say: (line: string) => void,
): Promise<void> {
  const { client, projectId, queueId } = service;
  if (!tracing || !projectId || !queueId) {
    await tracing?.stop();
    return say("review skipped: needs a project and an annotation queue");
  }
  try {
    const calls = await tracing.tracedChatCalls();
    const tokens = calls.reduce((n, c) => {
      const usage = Object.values(
        (c["summary"] as { usage?: Record<string, { output_tokens?: number }> })?.usage ?? {},
      );
      return n + usage.reduce((m, u) => m + (u.output_tokens ?? 0), 0);
    }, 0);
    say(`traced rollout calls in ${projectId}: ${calls.length} (${tokens} output tokens)`);
    const first = calls[0];
    if (first) say(`  e.g. ${first.op_name}: ${String(Object.values(first.inputs)[0]).slice(0, 60)}...`);
    // Put the traced calls in the queue, then find their items (one per call).
    await client.annotationQueues.items.add(queueId, { project_id: projectId, call_ids: calls.map((c) => c.id) });
    const traced = new Set(calls.map((c) => c.id));
    const itemIds: string[] = [];
    for await (const item of client.annotationQueues.items.list(queueId, { project_id: projectId }))
      if (traced.has(item.call_id)) itemIds.push(item.id);
    let completed = 0;
    for (const id of itemIds) {
      const { item } = await client.annotationQueues.items.progress(queueId, id, {
        annotation_state: "completed",
        project_id: projectId,
      });
      if (item.annotation_state === "completed") completed++;
    }
    say(`annotation items of traced rollouts marked completed: ${completed} of ${itemIds.length}`);
  } finally {
    await tracing.stop();
  }
}
