/**
 * `npm run demo`: a walk through the five operations of the SDK.
 *
 * With no configuration it starts the fake service from `inferloop/testing` on loopback and
 * runs against it. With INFERLOOP_BASE_URL and INFERLOOP_API_KEY set, it runs against that
 * service instead (fault injection is skipped there); pass the ids it needs as arguments or
 * variables: --project / INFERLOOP_PROJECT_ID, --queue / INFERLOOP_QUEUE_ID,
 * --item / INFERLOOP_ITEM_ID, --training-model / INFERLOOP_TRAINING_MODEL_ID, --model / INFERLOOP_MODEL.
 */
import { randomUUID } from "node:crypto";
import { APIError, type Logger, q, RequestValidationError, type TrainingJobCreateParams } from "../src/index.js";
import { faults } from "../src/testing/index.js";
import { runRlLoop } from "./_rl-loop.js";
import { type ExampleService, howToSet, runExample } from "./_service.js";

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

async function streamChat({ client, model, fake }: ExampleService): Promise<void> {
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

async function listModels({ client }: ExampleService): Promise<void> {
  heading("Models");
  const { data } = await client.models.list();
  for (const m of data) say(`- ${m.id} ${dim(`(owned by ${m.owned_by})`)}`);
}

async function walkCalls({ client, projectId }: ExampleService): Promise<void> {
  heading("Call records, page by page");
  if (!projectId) return skipped(`no project id (${howToSet("projectId")})`);
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

async function moveAnnotationItem({ client, fake, projectId, queueId, itemId }: ExampleService): Promise<void> {
  heading("Annotation item through its states");
  if (!projectId || !queueId || !itemId)
    return skipped(`needs a project, queue and item (${howToSet("queueId")}, ${howToSet("itemId")})`);
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

async function createTrainingJob({ client, fake, trainingModelId }: ExampleService): Promise<void> {
  heading("Training job, with an idempotency key");
  if (!trainingModelId) return skipped(`no model id (${howToSet("trainingModelId")})`);
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

async function refuseBadInput({ client, fake, model }: ExampleService): Promise<void> {
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

async function retryFault({ client, fake }: ExampleService): Promise<void> {
  heading("A failed request, retried");
  if (!fake) return skipped("fault injection needs the fake service (INFERLOOP_BASE_URL is set)");
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

console.log(bold("inferloop demo"));
await runExample(async (service) => {
  console.log(`running against ${service.description}`);
  if (service.fake) console.log(dim("(set INFERLOOP_BASE_URL and INFERLOOP_API_KEY to use your own service)"));
  await streamChat(service);
  await listModels(service);
  await walkCalls(service);
  await moveAnnotationItem(service);
  await createTrainingJob(service);
  await refuseBadInput(service);
  await retryFault(service);
  heading("The RL loop, closed: roll out, score, train, sample the new step; review");
  await runRlLoop(service, say, { steps: 2 });
  console.log(`\n${bold("Done.")}${service.fake ? " The fake service is closed." : ""}`);
});
