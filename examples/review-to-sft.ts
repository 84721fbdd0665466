/**
 * Reviewed traces into training, both roads: rollouts of a trainable model are traced (with
 * their logprobs) and reviewed; the reviewed traces come back as trajectory groups with the
 * reviewer's score as their reward and train an RL step; the approved ones (the best reply of
 * each prompt) become SFT rows with `toSFTRow()` and train an SFT step, after which the model
 * answers those prompts with the approved replies.
 *
 *   npx tsx examples/review-to-sft.ts
 *   INFERLOOP_BASE_URL=https://api.training.wandb.ai INFERLOOP_API_KEY=$WANDB_API_KEY \
 *     INFERLOOP_TRACE_BASE_URL=https://trace.wandb.ai npx tsx examples/review-to-sft.ts \
 *     --project=<entity>/<project> --training-project=rl --base-model=OpenPipe/Qwen3-14B-Instruct
 *
 * The reviewer here is a script (it prefers replies of about eight words); in a real project
 * people review the traces in the W&B UI, and the same calls read what they left.
 */
import type { SFTRow, SkippedTrace } from "../src/index.js";
import { runExample, trainingTarget } from "./_service.js";
import { startTracing, tracedChat } from "./_tracing.js";

const PROMPTS = [
  "Explain what a token is, briefly.",
  "Say something about streaming replies.",
  "Describe a good answer in a few words.",
];
const SAMPLES = 4;
const SYSTEM = { role: "system" as const, content: "Answer in one short sentence." };
/** A score at or above this is an approval: the reply is one to imitate. */
const APPROVED = 0.75;

/** The scripted reviewer's judgement: replies of about 8 words are best. */
function judge(reply: string): number {
  const words = reply.split(/\s+/).filter(Boolean).length;
  return Math.round(Math.max(0, 1 - Math.abs(words - 8) / 8) * 100) / 100;
}

await runExample(async (service) => {
  const projectId = service.projectId;
  const target = trainingTarget(service.fake, "review-sft-demo");
  if (!projectId || !target) {
    console.log("skipped: pass --project=<entity>/<project>, --training-project=... and --base-model=...");
    return;
  }
  const tracing = startTracing(service)!;
  // Message content (and the logprobs asked for) go on the spans, so training can read them.
  const client = service.client.withOptions({ telemetry: { recordContent: true } });
  const model = await client.trainableModels.register({
    project: target.project,
    name: "reviewed-tutor",
    base_model: target.baseModel,
  });

  // 1. Sample and trace. `logprobs: true` keeps each reply's logprobs on its span: an RL job
  // trains only on choices that carry them.
  for (const prompt of PROMPTS)
    for (let seed = 0; seed < SAMPLES; seed++)
      await client.chat.completions.create({
        model: model.inferenceName(),
        messages: [SYSTEM, { role: "user", content: prompt }],
        seed,
        temperature: 1,
        max_completion_tokens: 64,
        logprobs: true,
        return_token_ids: true,
      });
  const calls = await tracing.tracedChatCalls();
  await tracing.stop();
  console.log(`1. sampled and traced ${calls.length} rollouts of ${model.inferenceName()}`);

  // 2. Review: a score on each traced call, left as Weave feedback.
  for (const call of calls)
    await client.feedback.create({
      project_id: projectId,
      weave_ref: `weave:///${projectId}/call/${call.id}`,
      feedback_type: "wandb.annotation.quality",
      annotation_ref: `weave:///${projectId}/object/quality:latest`,
      payload: { value: judge(tracedChat(call).reply) },
    });
  console.log(`2. reviewer scored ${calls.length} rollouts`);

  // 3. The reviewed traces as groups: the review, on any call of a trace, is its reward.
  const skipped: SkippedTrace[] = [];
  const groups = await client.calls.trajectoryGroups(
    { project_id: projectId, filter: { call_ids: calls.map((c) => c.id) } },
    {
      groupBy: (root) => tracedChat(root).prompt,
      reward: (_root, trace) => {
        const review = trace.feedback.find((f) => f.feedback_type === "wandb.annotation.quality");
        return review === undefined ? undefined : Number(review.payload?.["value"]);
      },
      onSkip: (traces) => skipped.push(...traces),
    },
  );
  const trajectories = groups.flatMap((g) => g.trajectories);
  const withLogprobs = trajectories.filter((t) =>
    t.messages_and_choices.some((item) => "logprobs" in item && item.logprobs != null),
  ).length;
  console.log(
    `3. ${trajectories.length} reviewed traces in ${groups.length} groups (${skipped.length} skipped), ${withLogprobs} with their logprobs`,
  );

  // 4. RL road: train on every reviewed trace, the score as the reward.
  const rl = await model.train(groups);
  console.log(`4. RL: job ${rl.jobId} on ${trajectories.length} reviewed traces → step ${rl.step}`);

  // 5. SFT road: the approved traces, the best of each prompt, as rows trainSFT takes.
  const approved = groups
    .map((g) => g.trajectories.reduce((a, b) => ((b.reward ?? 0) > (a.reward ?? 0) ? b : a)))
    .filter((t) => (t.reward ?? 0) >= APPROVED);
  const rows: SFTRow[] = approved.map((t) => t.toSFTRow());
  const sft = await model.trainSFT(rows, { pollInterval: service.fake ? 5 : 2_000 });
  console.log(`5. SFT: ${rows.length} approved traces as rows → ${sft.trainingDataUrl} → step ${sft.step}`);

  // 6. The SFT step answers each approved prompt with the approved reply.
  for (const t of approved) {
    const conversation = t.messages();
    const reply = conversation.pop()!;
    const completion = await model.chat.completions.create({
      model: model.inferenceName(sft.step),
      messages: conversation,
    });
    const said = completion.choices[0]?.message.content ?? "";
    console.log(
      `6. step ${sft.step}, "${String(conversation.at(-1)?.content)}": "${said}" (${said === reply.content ? "the approved reply" : "another reply"})`,
    );
  }
});
