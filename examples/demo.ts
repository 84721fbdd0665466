/**
 * `npm run demo`: a walk through the SDK: chat, models, call records, annotation, a training job,
 * what is refused before sending, a retried failure, and the RL loop.
 *
 *   npx tsx demo.ts          (needs: npm install inferloop tsx)
 *
 * With nothing set, it starts the fake service of `inferloop/testing` on loopback and runs
 * against it. With INFERLOOP_BASE_URL (or a key alone: W&B's hosts) set, it runs against that
 * service (fault injection is skipped there); name what it needs there: INFERLOOP_MODEL,
 * INFERLOOP_PROJECT_ID, INFERLOOP_QUEUE_ID, INFERLOOP_ITEM_ID, INFERLOOP_TRAINING_MODEL_ID,
 * INFERLOOP_TRAINING_PROJECT and INFERLOOP_BASE_MODEL (a step that lacks its ids says so).
 */
import { randomUUID } from "node:crypto";
import {
  APIError,
  gatherTrajectoryGroups,
  Inferloop,
  type Logger,
  q,
  RequestValidationError,
  type TrainingJobCreateParams,
  Trajectory,
} from "inferloop";
import {
  DEFAULT_BASE_MODELS,
  faults,
  SEED_ITEM_IDS,
  SEED_PROJECT_ID,
  SEED_QUEUE_ID,
  startFakeService,
} from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback, with what it seeds.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const env = (name: string, onFake: string) => process.env[name] || (fake ? onFake : undefined);
const model = env("INFERLOOP_MODEL", "Qwen/Qwen3-8B") ?? "Qwen/Qwen3-8B";
const projectId = env("INFERLOOP_PROJECT_ID", SEED_PROJECT_ID);
const queueId = env("INFERLOOP_QUEUE_ID", SEED_QUEUE_ID);
const itemId = env("INFERLOOP_ITEM_ID", SEED_ITEM_IDS[0]);
// Any UUID is a trainable model of the fake service.
const trainingModelId = env("INFERLOOP_TRAINING_MODEL_ID", randomUUID());
const trainingProject = env("INFERLOOP_TRAINING_PROJECT", "rl-demo");
const baseModel = env("INFERLOOP_BASE_MODEL", DEFAULT_BASE_MODELS[0]!);

const isTTY = process.stdout.isTTY === true;
const color = isTTY && !process.env.NO_COLOR;
const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[22m` : s);
const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[22m` : s);

let step = 0;
function heading(title: string): void {
  step += 1;
  console.log(`\n${bold(`${step}. ${title}`)}`);
}

function say(line: string): void {
  console.log(`   ${line}`);
}

function skipped(why: string): void {
  say(dim(`skipped: ${why}`));
}

async function streamChat(): Promise<void> {
  heading("Chat, streamed as it arrives");
  // The fake service answers a message starting with "echo " with exactly the rest of it.
  const prompt = fake
    ? "echo Hello from inferloop! Each piece of this reply is printed as soon as it arrives."
    : "In two sentences, what is streaming in an HTTP API?";
  say(`> ${prompt}`);
  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: "user", content: prompt }],
    stream: true,
    stream_options: { include_usage: true },
  });
  process.stdout.write("   < ");
  let pieces = 0;
  for await (const text of stream.textStream()) {
    process.stdout.write(text);
    pieces += 1;
  }
  process.stdout.write("\n");
  const completion = await stream.finalCompletion();
  say(
    dim(
      `${pieces} pieces, finish_reason=${completion.choices[0]?.finish_reason}, ` +
        `${completion.usage?.completion_tokens ?? "?"} completion tokens, request id ${stream.requestId ?? "(none)"}`,
    ),
  );
}

async function listModels(): Promise<void> {
  heading("Models");
  const { data } = await client.models.list();
  for (const m of data) say(`- ${m.id} ${dim(`(owned by ${m.owned_by})`)}`);
}

async function walkCalls(): Promise<void> {
  heading("Call records, page by page");
  if (!projectId) return skipped("no project id (set INFERLOOP_PROJECT_ID)");
  const query = client.calls.query(
    {
      project_id: projectId,
      filter: { trace_roots_only: true },
      query: q.where(q.gt(q.field("summary.weave.latency_ms").as("double"), 1000)),
      sort_by: [
        { field: "started_at", direction: "desc" },
        { field: "id", direction: "asc" },
      ],
    },
    { pageSize: 25 },
  );
  say(`root calls of ${projectId} slower than 1 s, newest first, 25 per request`);
  let pages = 0;
  let records = 0;
  let slowest = { id: "", ms: 0 };
  for await (const page of query.pages()) {
    pages += 1;
    records += page.length;
    for (const call of page) {
      const ms = call.summary?.weave?.latency_ms ?? 0;
      if (ms > slowest.ms) slowest = { id: call.id, ms };
    }
    const line = `page ${pages}: ${page.length} records (${records} so far)`;
    if (isTTY) process.stdout.write(`\r   ${line}\x1b[K`);
    else say(line);
  }
  if (isTTY) process.stdout.write("\n");
  say(`${records} records in ${pages} pages; slowest ${slowest.id} at ${slowest.ms} ms`);
}

async function moveAnnotationItem(): Promise<void> {
  heading("Annotation item through its states");
  if (!projectId || !queueId || !itemId)
    return skipped("needs a project, queue and item (set INFERLOOP_PROJECT_ID, INFERLOOP_QUEUE_ID, INFERLOOP_ITEM_ID)");
  const before = fake?.annotation.getItem(queueId, itemId)?.annotation_state;
  say(`item ${itemId} of queue ${queueId}${before ? `: ${before}` : ""}`);
  for (const annotation_state of ["in_progress", "completed"] as const) {
    const { item } = await client.annotationQueues.items.progress(queueId, itemId, {
      annotation_state,
      project_id: projectId,
    });
    say(`→ ${item.annotation_state} ${dim(`(updated_at ${item.updated_at})`)}`);
  }
  try {
    await client.annotationQueues.items.progress(queueId, itemId, {
      annotation_state: "skipped",
      project_id: projectId,
    });
    say("→ skipped (this service allows completed → skipped)");
  } catch (err) {
    if (!(err instanceof APIError)) throw err;
    say(`completed → skipped refused by the service: ${err.name}: ${dim(err.message)}`);
  }
}

async function createTrainingJob(): Promise<void> {
  heading("Training job, with an idempotency key");
  if (!trainingModelId) return skipped("no model id (set INFERLOOP_TRAINING_MODEL_ID)");
  const idempotencyKey = randomUUID();
  const params: TrainingJobCreateParams = {
    model_id: trainingModelId,
    trajectory_groups: [
      {
        trajectories: [
          {
            messages_and_choices: [
              { role: "user", content: "What is 2+2?" },
              {
                index: 0,
                finish_reason: "stop",
                logprobs: { content: [{ token: "4", logprob: -0.1, bytes: null, top_logprobs: [] }] },
                message: { role: "assistant", content: "4" },
              },
            ],
            reward: 1,
          },
          {
            messages_and_choices: [
              { role: "user", content: "What is 2+2?" },
              {
                index: 0,
                finish_reason: "stop",
                logprobs: { content: [{ token: "5", logprob: -0.1, bytes: null, top_logprobs: [] }] },
                message: { role: "assistant", content: "5" },
              },
            ],
            reward: 0,
          },
        ],
      },
    ],
    experimental_config: { learning_rate: 1e-5 },
  };
  const job = await client.trainingJobs.create(params, { idempotencyKey });
  say(`created job ${job.id} ${dim(`(Idempotency-Key ${idempotencyKey})`)}`);
  if (fake) {
    // Sending the same request with the same key is safe: the service returns the same job.
    const again = await client.trainingJobs.create(params, { idempotencyKey });
    say(
      `sent again with the same key → ${again.id === job.id ? "the same job" : `another job ${again.id}`}; jobs on the service: ${fake.trainingJobs.length}`,
    );
  }
}

async function refuseBadInput(): Promise<void> {
  heading("Bad input is refused before anything is sent");
  const sentBefore = fake?.requests.length;
  try {
    await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "hi" }],
      // tool_choice "auto" needs tools to choose from; the SDK checks that before sending.
      tool_choice: "auto",
    });
    say("unexpected: the request was accepted");
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    say(`${err.name}: ${err.message}`);
    for (const issue of err.issues) say(dim(`  issue at "${issue.path}": ${issue.message}`));
  }
  if (fake) say(`requests the service received meanwhile: ${fake.requests.length - sentBefore!}`);
}

async function retryFault(): Promise<void> {
  heading("A failed request, retried");
  if (!fake) return skipped("fault injection needs the fake service (INFERLOOP_BASE_URL or a key is set)");
  // Print the SDK's warn-level log lines: each retry is announced there.
  const logger: Logger = {
    error: (m) => say(dim(`log error: ${m}`)),
    warn: (m) => say(dim(`log warn:  ${m}`)),
    info: () => {},
    debug: () => {},
  };
  const logged = client.withOptions({ logLevel: "warn", logger });
  fake.inject(faults.serviceUnavailable({ path: "/v1/models", times: 1 }));
  say("the service will answer the next GET /v1/models with 503 once");
  const before = fake.requests.length;
  const { data } = await logged.models.list();
  const attempts = fake.requests.length - before;
  say(`succeeded with ${data.length} models after ${attempts} attempts`);
}

/** A reply of about 8 words scores best. */
function reward(reply: string): number {
  const words = reply.split(/\s+/).filter(Boolean).length;
  return Math.round(Math.max(0, 1 - Math.abs(words - 8) / 8) * 100) / 100;
}

async function rlLoop(): Promise<void> {
  heading("The RL loop, closed: roll out, score, train, sample the new step");
  if (!trainingProject || !baseModel)
    return skipped("set INFERLOOP_TRAINING_PROJECT and INFERLOOP_BASE_MODEL (see trainableModels.baseModels())");
  // Findings about a job (a group whose rewards are all equal teaches nothing) come through this
  // logger, in the demo's own output; without a logger each kind is a process warning, once.
  const ignore = () => {};
  const logged = client.withOptions({
    logLevel: "warn",
    logger: { error: (m) => say(dim(m)), warn: (m) => say(dim(m)), info: ignore, debug: ignore },
  });
  const agent = await logged.trainableModels.register({
    project: trainingProject,
    name: "agent",
    base_model: baseModel,
  });
  const start = await agent.latestStep();
  say(`model ${agent.inferenceName()} at step ${start}`);
  const prompts = ["Explain what a token is, briefly.", "Say something about streaming replies."];
  // Groups of 4 rollouts per prompt on `modelName`, each scored by `reward`.
  const rollOut = (modelName: string, signal?: AbortSignal) =>
    gatherTrajectoryGroups(
      prompts.map((prompt) =>
        Array.from({ length: 4 }, (_, seed) => async (rolloutSignal: AbortSignal) => {
          const t = new Trajectory({ messages_and_choices: [{ role: "user", content: prompt }] });
          // The model's own chat: the host that serves its checkpoints (W&B Training on W&B).
          const completion = await t.sample(
            agent,
            { model: modelName, seed, temperature: 1, max_completion_tokens: 64 },
            { signal: rolloutSignal },
          );
          t.reward = reward(completion.choices[0]?.message.content ?? "");
          return t;
        }),
      ),
      signal ? { signal } : {},
    );
  let gradientSteps = 0;
  let loss = Number.NaN;
  let firstReward: number | undefined;
  for await (const s of agent.trainLoop({
    steps: start + 2,
    maxStepsOffPolicy: 0,
    pollInterval: fake ? 20 : 2_000,
    rollouts: ({ modelName, signal }) => rollOut(modelName, signal),
    onEvent: (e) => {
      if (e.type === "job" && e.event.type === "gradient_step") {
        gradientSteps++;
        if (typeof e.event.data.loss === "number") loss = e.event.data.loss;
      }
    },
  })) {
    firstReward ??= s.reward;
    say(`training: ${gradientSteps} gradient steps, loss ${loss.toFixed(4)}`);
    say(`created RL training job ${s.jobId} from ${prompts.length} groups → step ${s.step}`);
    gradientSteps = 0;
  }
  const last = await rollOut(agent.inferenceName());
  const lastReward = last.flatMap((g) => g.trajectories.map((t) => t.reward ?? 0));
  const mean = lastReward.reduce((a, b) => a + b, 0) / lastReward.length;
  say(`mean reward ${(firstReward ?? 0).toFixed(2)} → ${mean.toFixed(2)} over 2 steps`);
}

console.log(bold("inferloop demo"));
try {
  console.log(
    `running against ${fake ? `the built-in fake service at ${fake.url}` : `the service at ${client.baseURL}`}`,
  );
  if (fake) console.log(dim("(set INFERLOOP_BASE_URL and INFERLOOP_API_KEY to use your own service)"));
  await streamChat();
  await listModels();
  await walkCalls();
  await moveAnnotationItem();
  await createTrainingJob();
  await refuseBadInput();
  await retryFault();
  await rlLoop();
  console.log(`\n${bold("Done.")}${fake ? " The fake service is closed." : ""}`);
} finally {
  await fake?.close();
}
