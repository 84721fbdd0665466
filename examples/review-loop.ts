/**
 * Human review as reward: rollouts of a trainable model are traced, a queue is made of them, a
 * reviewer works through the queue and leaves an annotation on each rollout, the reviewed
 * traces come back as trajectory groups with the reviewer's score as their reward, the model
 * trains on them, and the new checkpoint is sampled.
 *
 *   npx tsx review-loop.ts          (needs: npm install inferloop tsx and OpenTelemetry:
 *     @opentelemetry/api @opentelemetry/sdk-trace-base @opentelemetry/resources
 *     @opentelemetry/exporter-trace-otlp-proto)
 *
 * On W&B (WANDB_API_KEY set), name the Weave project, INFERLOOP_PROJECT_ID (entity/project),
 * and where to train, INFERLOOP_TRAINING_PROJECT (a project) and INFERLOOP_BASE_MODEL (one of
 * `client.trainableModels.baseModels()`).
 *
 * The reviewer here is a script (it prefers replies of about eight words); in a real project
 * people review the queue in the W&B UI, and the same `trajectoryGroups` call reads what they left.
 */
import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { type CallRecord, Inferloop } from "inferloop";
import { DEFAULT_BASE_MODELS, SEED_PROJECT_ID, startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback, which traces and trains too.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
// Message content goes on the spans (off by default), so reviewers and training can read it.
const client = new Inferloop({
  ...(fake ? { baseURL: fake.url, apiKey: fake.apiKey } : {}),
  telemetry: { recordContent: true },
});
const projectId = process.env.INFERLOOP_PROJECT_ID ?? (fake ? SEED_PROJECT_ID : undefined);
const project = process.env.INFERLOOP_TRAINING_PROJECT ?? (fake ? "review-demo" : undefined);
const baseModel = process.env.INFERLOOP_BASE_MODEL ?? (fake ? DEFAULT_BASE_MODELS[0] : undefined);

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

/** The reply and the last user message of a chat call traced as a GenAI span. */
function chatOf(call: CallRecord): { prompt: string; reply: string } {
  const messages = JSON.parse(String(call.inputs["gen_ai.input.messages"] ?? "[]")) as Array<{ content: string }>;
  const output = (call.output ?? {}) as Record<string, string>;
  const replies = JSON.parse(output["gen_ai.output.messages"] ?? "[]") as Array<{ content: string }>;
  return { prompt: messages.at(-1)?.content ?? "", reply: replies[0]?.content ?? "" };
}

/**
 * Traces the chat calls to the trace server as an app would: inferloop's GenAI spans exported
 * by OpenTelemetry's OTLP protobuf exporter to `/otel/v1/traces`, routed to the project by the
 * `wandb.entity` / `wandb.project` resource attributes. Resolves, when stopped, to the chat
 * calls traced meanwhile.
 */
function startTracing(projectId: string): { stop(): Promise<CallRecord[]> } {
  const [entity, name] = projectId.split("/");
  // The trace routes' own auth: the W&B API key.
  const apiKey =
    fake?.password ?? process.env.INFERLOOP_PASSWORD ?? process.env.INFERLOOP_API_KEY ?? process.env.WANDB_API_KEY;
  const exporter = new OTLPTraceExporter({
    url: `${client.traceBaseURL}/otel/v1/traces`,
    headers: { "wandb-api-key": apiKey ?? "" },
  });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      "service.name": "inferloop-example",
      "wandb.entity": entity,
      "wandb.project": name,
    }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  trace.setGlobalTracerProvider(provider);
  const since = new Date().toISOString();
  return {
    async stop() {
      await provider.forceFlush();
      trace.disable();
      await provider.shutdown();
      const calls: CallRecord[] = [];
      for await (const call of client.calls.query({ project_id: projectId }))
        if (call.op_name.startsWith("chat ") && call.started_at >= since) calls.push(call);
      return calls;
    },
  };
}

try {
  if (!projectId || !project || !baseModel) {
    console.log("skipped: set INFERLOOP_PROJECT_ID, INFERLOOP_TRAINING_PROJECT and INFERLOOP_BASE_MODEL");
    process.exit(0);
  }
  console.log(`running against ${client.baseURL}`);
  const tracing = startTracing(projectId);

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
  const calls = await tracing.stop();
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
    const { reply } = chatOf(byId.get(item.call_id)!);
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
      groupBy: (root) => chatOf(root).prompt,
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
  const reply = chatOf(sample).reply;
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
} finally {
  await fake?.close();
}
