/**
 * Errors and retries: what is refused before sending, what is retried, what reaches you.
 * The fault-injection parts need the fake service and are skipped against a real one.
 *
 *   npx tsx errors-and-retries.ts          (needs: npm install inferloop tsx)
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  Inferloop,
  InternalServerError,
  type Logger,
  RateLimitError,
  RequestValidationError,
} from "inferloop";
import { faults, startFakeService } from "inferloop/testing";

const logger: Logger = {
  error: (m) => console.log(`  log: ${m}`),
  warn: (m) => console.log(`  log: ${m}`),
  info: () => {},
  debug: () => {},
};

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback, whose faults show each case.
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = new Inferloop({ ...(fake ? { baseURL: fake.url, apiKey: fake.apiKey } : {}), logLevel: "warn", logger });
const model = process.env.INFERLOOP_MODEL ?? "Qwen/Qwen3-8B";

try {
  const messages = [{ role: "user" as const, content: "echo ok" }];

  // 1. Bad input never leaves the process.
  try {
    await client.chat.completions.create({ model, messages, seed: 1.5 });
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    console.log(`refused before sending: ${err.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  }

  if (!fake) {
    console.log("skipped the fault-injection part: it needs the fake service (unset INFERLOOP_BASE_URL and the keys)");
    process.exit(0);
  }

  // 2. A 429 with retry-after-ms is waited out and retried; the log says so.
  fake.inject(faults.rateLimited({ retryAfterMs: 50, path: "/v1/chat/completions" }));
  const reply = await client.chat.completions.create({ model, messages });
  console.log(`after one 429: ${reply.choices[0]?.message.content}`);

  // 3. When every attempt fails, the last error is thrown: 1 try + maxRetries.
  fake.inject(faults.serviceUnavailable({ path: "/v1/models", times: 3 }));
  try {
    await client.models.list({ maxRetries: 1 });
  } catch (err) {
    if (!(err instanceof InternalServerError)) throw err;
    console.log(`gave up after 2 attempts: ${err.name} ${err.status}`);
  }
  fake.state.faults.clear();

  // 4. Timeouts: `timeout` until headers, `idleTimeout` between chunks.
  fake.inject(faults.stall({ ms: 2_000, path: "/v1/models" }));
  try {
    await client.models.list({ timeout: 100, maxRetries: 0 });
  } catch (err) {
    if (!(err instanceof APIConnectionTimeoutError)) throw err;
    console.log(`timed out: ${err.message}`);
  }

  // 5. A stream that stops before [DONE] is an error, never a quiet short reply.
  fake.inject(faults.cutStream(3, { path: "/v1/chat/completions" }));
  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: "user", content: "echo one two three four five six" }],
    stream: true,
  });
  try {
    for await (const _chunk of stream);
  } catch (err) {
    if (!(err instanceof APIConnectionError)) throw err;
    console.log(`stream cut off: ${err.name}`);
  }

  // 6. No duplicate jobs: a training-job create that reached the server is not retried
  //    without an idempotency key...
  const job = {
    // Any UUID is a trainable model of the fake service.
    model_id: crypto.randomUUID(),
    trajectory_groups: [
      {
        trajectories: [
          {
            messages_and_choices: [
              { role: "user" as const, content: "hi" },
              {
                index: 0,
                finish_reason: "stop",
                logprobs: { content: [{ token: "hello", logprob: -0.1, bytes: null, top_logprobs: [] }] },
                message: { role: "assistant" as const, content: "hello" },
              },
            ],
            reward: 1,
          },
        ],
      },
    ],
  };
  fake.inject(faults.serviceUnavailable({ path: "/v1/preview/training-jobs" }));
  try {
    await client.trainingJobs.create(job);
  } catch (err) {
    if (!(err instanceof InternalServerError)) throw err;
    console.log(`training job without a key: not retried (${err.status})`);
  }
  // ...and is retried with one.
  fake.inject(faults.serviceUnavailable({ path: "/v1/preview/training-jobs" }));
  const { id } = await client.trainingJobs.create(job, { idempotencyKey: "example-job-1" });
  console.log(`training job with a key: retried and created ${id}; jobs on the service: ${fake.trainingJobs.length}`);

  // RateLimitError carries retryAfter (ms) when the retries run out.
  fake.inject(faults.rateLimited({ retryAfter: 1, path: "/v1/models" }));
  try {
    await client.models.list({ maxRetries: 0 });
  } catch (err) {
    if (!(err instanceof RateLimitError)) throw err;
    console.log(`rate limited, retryAfter = ${err.retryAfter} ms`);
  }
} finally {
  await fake?.close();
}
