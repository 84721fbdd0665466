/**
 * Human review as reward: rollouts of a trainable model are traced, a queue is made of them, a
 * reviewer works through the queue and leaves an annotation on each rollout, the reviewed
 * traces come back as trajectory groups with the reviewer's score as their reward, the model
 * trains on them, and the new checkpoint is sampled.
 *
 *   npx tsx examples/review-loop.ts          (or: npm run review-loop)
 *   INFERLOOP_BASE_URL=https://api.training.wandb.ai INFERLOOP_API_KEY=$WANDB_API_KEY \
 *     INFERLOOP_TRACE_BASE_URL=https://trace.wandb.ai npx tsx examples/review-loop.ts \
 *     --project=<entity>/<project> --training-project=rl --base-model=OpenPipe/Qwen3-14B-Instruct
 *
 * The reviewer here is a script (it prefers replies of about eight words); in a real project
 * people review the queue in the W&B UI, and the same `trajectoryGroups` call reads what they left.
 */
import { runExample, trainingTarget } from "./_service.js";
import { startTracing, tracedChat } from "./_tracing.js";

const PROMPTS = [
  "Explain what a token is, briefly.",
  "Say something about streaming replies.",
  "Describe a good answer in a few words.",
];
const SAMPLES = 4;

/** The scripted reviewer's judgement: replies of about 8 words are best. */
function judge(reply: string): number {
  const words = reply.split(/\s+/).filter(Boolean).length;
  return Math.round(Math.max(0, 1 - Math.abs(words - 8) / 8) * 100) / 100;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

await runExample(async (service) => {
  const { fake } = service;
  const projectId = service.projectId;
  const target = trainingTarget(fake, "review-demo");
  if (!projectId || !target) {
    console.log("skipped: pass --project=<entity>/<project>, --training-project=... and --base-model=...");
    return;
  }
  const { project, baseModel } = target;
  console.log(`running against ${service.description}`);
  const tracing = startTracing(service)!;
  // Message content goes on the spans (off by default), so reviewers and training can read it.
  const client = service.client.withOptions({ telemetry: { recordContent: true } });

  // 1. Sample: rollouts of the trainable model, each chat call traced as its own trace.
  const model = await client.trainableModels.register({ project, name: "reviewed-agent", base_model: baseModel });
  const before = await model.latestStep();
  // One rollout: the same request before training and after, on the given checkpoint.
  const rollout = (prompt: string, seed: number, step?: number) =>
    client.chat.completions.create({
      model: model.inferenceName(step),
      messages: [
        { role: "system", content: "Answer in one short sentence." },
        { role: "user", content: prompt },
      ],
      seed,
      temperature: 1,
      max_completion_tokens: 64,
      // Kept on the spans with the reply, so the reviewed rollouts train like captured ones.
      logprobs: true,
      return_token_ids: true,
    });
  for (const prompt of PROMPTS) for (let seed = 0; seed < SAMPLES; seed++) await rollout(prompt, seed);
  const calls = await tracing.tracedChatCalls();
  await tracing.stop();
  console.log(
    `1. sampled ${calls.length} rollouts of ${model.inferenceName()} (step ${before}), traced to ${projectId}`,
  );

  // 2. A queue of the traced rollouts.
  const spec = `weave:///${projectId}/object/quality:latest`;
  const { id: queueId } = await client.annotationQueues.create({
    project_id: projectId,
    name: `Rollouts of ${model.name}, step ${before}`,
    description: "Score each reply: 1 is the answer we want",
    scorer_refs: [spec],
  });
  const added = await client.annotationQueues.items.add(queueId, {
    project_id: projectId,
    call_ids: calls.map((c) => c.id),
    display_fields: ["inputs", "output"],
  });
  console.log(`2. queue ${queueId}: ${added.added_count} rollouts added (${added.duplicates} already there)`);

  // 3. The reviewer works through the queue: open an item, score the reply, mark it done.
  const byId = new Map(calls.map((c) => [c.id, c]));
  let reviewed = 0;
  for await (const item of client.annotationQueues.items.list(queueId, { project_id: projectId })) {
    await client.annotationQueues.items.progress(queueId, item.id, {
      project_id: projectId,
      annotation_state: "in_progress",
    });
    const { reply } = tracedChat(byId.get(item.call_id)!);
    await client.feedback.create({
      project_id: projectId,
      weave_ref: `weave:///${projectId}/call/${item.call_id}`,
      feedback_type: "wandb.annotation.quality",
      annotation_ref: spec,
      payload: { value: judge(reply) },
      queue_id: queueId,
    });
    await client.annotationQueues.items.progress(queueId, item.id, {
      project_id: projectId,
      annotation_state: "completed",
    });
    reviewed++;
  }
  const { stats } = await client.annotationQueues.stats({ project_id: projectId, queue_ids: [queueId] });
  console.log(
    `3. reviewer scored ${reviewed} rollouts; queue progress ${stats[0]!.completed_items}/${stats[0]!.total_items}`,
  );

  // 4. The reviewed traces come back as groups (one per prompt), the review as the reward.
  const groups = await client.calls.trajectoryGroups(
    { project_id: projectId, filter: { call_ids: calls.map((c) => c.id) } },
    {
      groupBy: (root) => tracedChat(root).prompt,
      reward: (root) => {
        const review = root.summary?.weave?.feedback?.find((f) => f.feedback_type === "wandb.annotation.quality");
        return review === undefined ? undefined : Number(review.payload?.["value"]);
      },
    },
  );
  const rewards = groups.flatMap((g) => g.trajectories.map((t) => t.reward ?? 0));
  console.log(
    `4. reviewed traces as ${groups.length} groups of ${groups.map((g) => g.trajectories.length).join("/")} trajectories, mean reward ${mean(rewards).toFixed(2)}`,
  );

  // 5. Train on what the reviewer said.
  const { jobId, step } = await model.train(groups);
  console.log(`5. training job ${jobId} → step ${step}`);

  // One reviewed rollout, end to end: the feedback left on its call, the reward the job got.
  const sample = calls[0]!;
  const [row] = await client.feedback
    .query({
      project_id: projectId,
      query: { $expr: { $eq: [{ $getField: "weave_ref" }, { $literal: `weave:///${projectId}/call/${sample.id}` }] } },
    })
    .toArray();
  const reply = tracedChat(sample).reply;
  const g = groups.findIndex((group) => group.trajectories.some((t) => t.metadata["trace_id"] === sample.trace_id));
  const i = groups[g]!.trajectories.findIndex((t) => t.metadata["trace_id"] === sample.trace_id);
  // What the job received: the fake keeps the request; a real service keeps it to itself.
  const received =
    fake?.trainingJobs.find((j) => j.id === jobId)?.rewards[g]?.[i] ?? groups[g]!.trajectories[i]!.reward;
  console.log(
    `   reviewed rollout ${sample.id} ("${reply.slice(0, 32)}..."): feedback ${row?.feedback_type} = ${JSON.stringify(row?.payload?.["value"])} → reward ${received} in training job ${jobId} (group ${g + 1}, trajectory ${i + 1})`,
  );

  // 6. Sample the new checkpoint with the same prompts and the same reviewer.
  const after: number[] = [];
  for (const prompt of PROMPTS)
    for (let seed = 0; seed < SAMPLES; seed++) {
      const completion = await rollout(prompt, seed, step);
      after.push(judge(completion.choices[0]?.message.content ?? ""));
    }
  console.log(
    `6. step ${step} sampled: the reviewer's mean score ${mean(rewards).toFixed(2)} → ${mean(after).toFixed(2)}`,
  );
});
