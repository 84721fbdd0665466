/**
 * Reviewed traces into training, both roads: rollouts of a trainable model are traced (with
 * their logprobs) and reviewed; the reviewed traces come back as trajectory groups with the
 * reviewer's score as their reward and train an RL step; the approved ones (the best reply of
 * each prompt) become SFT rows with `toSFTRow()` and train an SFT step, after which the model
 * answers those prompts with the approved replies.
 *
 *   npx tsx examples/review-to-sft.ts          # against the fake service, started here
 *   WANDB_API_KEY=... INFERLOOP_PROJECT_ID=<entity>/<project> INFERLOOP_TRAINING_PROJECT=rl \
 *     INFERLOOP_BASE_MODEL=OpenPipe/Qwen3-14B-Instruct npx tsx examples/review-to-sft.ts
 *
 * The reviewer here is a script (it prefers replies of about eight words); in a real project
 * people review the traces in the W&B UI, and the same calls read what they left.
 */
import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { type CallRecord, Inferloop, type SFTRow, type SkippedTrace } from "inferloop";
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
const project = process.env.INFERLOOP_TRAINING_PROJECT ?? (fake ? "review-sft-demo" : undefined);
const baseModel = process.env.INFERLOOP_BASE_MODEL ?? (fake ? DEFAULT_BASE_MODELS[0] : undefined);

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
  const model = await client.trainableModels.register({ project, name: "reviewed-tutor", base_model: baseModel });

  // 1. Sample and trace. `logprobs: true` keeps each reply's logprobs on its span: an RL job
  // trains only on choices that carry them.
  for (const prompt of PROMPTS)
    for (let seed = 0; seed < SAMPLES; seed++)
      await model.chat.completions.create({
        model: model.inferenceName(),
        messages: [SYSTEM, { role: "user", content: prompt }],
        seed,
        temperature: 1,
        max_completion_tokens: 64,
        logprobs: true,
        return_token_ids: true,
      });
  const calls = await tracing.stop();
  console.log(`1. sampled and traced ${calls.length} rollouts of ${model.inferenceName()}`);

  // 2. Review: a score on each traced call, left as Weave feedback.
  for (const call of calls)
    await client.feedback.create({
      project_id: projectId,
      weave_ref: `weave:///${projectId}/call/${call.id}`,
      feedback_type: "wandb.annotation.quality",
      annotation_ref: `weave:///${projectId}/object/quality:latest`,
      payload: { value: judge(chatOf(call).reply) },
    });
  console.log(`2. reviewer scored ${calls.length} rollouts`);

  // 3. The reviewed traces as groups: the review, on any call of a trace, is its reward.
  const skipped: SkippedTrace[] = [];
  const groups = await client.calls.trajectoryGroups(
    { project_id: projectId, filter: { call_ids: calls.map((c) => c.id) } },
    {
      groupBy: (root) => chatOf(root).prompt,
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
  const sft = await model.trainSFT(rows, { pollInterval: fake ? 5 : 2_000 });
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
} finally {
  await fake?.close();
}
