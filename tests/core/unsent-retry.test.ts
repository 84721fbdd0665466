// trainingJobs.create may be sent again only when the request provably never reached the
// server. A refused connection on loopback is such a case, for both transports.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { APIConnectionError, Inferloop, type Logger, type TrainingJobCreateParams } from "../../src/index.js";
import { catchWarningsOfEachTest } from "../warnings.js";

// The training jobs here are about requests, not their contents: the SDK's findings on them are expected.
catchWarningsOfEachTest([
  "INFERLOOP_UNIFORM_REWARDS",
  "INFERLOOP_MISSING_REWARD",
  "INFERLOOP_NO_TRAJECTORIES",
  "INFERLOOP_MISSING_LOGPROBS",
]);

const MODEL_ID = "5f1c1a7e-8a40-4c55-9c2e-3d3a8f0e6b11";
const job: TrainingJobCreateParams = {
  model_id: MODEL_ID,
  trajectory_groups: [
    {
      trajectories: [
        {
          messages_and_choices: [
            { role: "user", content: "hi" },
            {
              index: 0,
              finish_reason: "stop",
              logprobs: { content: [{ token: "hello", logprob: -0.1, bytes: null, top_logprobs: [] }] },
              message: { role: "assistant", content: "hello" },
            },
          ],
          reward: 0,
        },
      ],
    },
  ],
};

/** A loopback port that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function countingLogger() {
  const retries: string[] = [];
  // Only the retry lines: the create also warns that this one-trajectory group has no signal.
  const logger: Logger = {
    error() {},
    info() {},
    debug() {},
    warn: (m: string) => void (/retrying/.test(m) && retries.push(m)),
  };
  return { logger, retries };
}

describe("a refused connection counts as unsent", () => {
  it("with the undici transport: trainingJobs.create is retried", async () => {
    const { logger, retries } = countingLogger();
    const client = new Inferloop({
      baseURL: `http://127.0.0.1:${await closedPort()}`,
      apiKey: "sk-x-123456",
      maxRetries: 1,
      logger,
      logLevel: "warn",
    });
    await expect(client.trainingJobs.create(job)).rejects.toBeInstanceOf(APIConnectionError);
    expect(retries).toHaveLength(1);
  });

  it("with the fetch transport: trainingJobs.create is retried", async () => {
    let calls = 0;
    const client = new Inferloop({
      baseURL: `http://127.0.0.1:${await closedPort()}`,
      apiKey: "sk-x-123456",
      maxRetries: 1,
      fetch: (url, init) => {
        calls++;
        return fetch(url, init);
      },
    });
    await expect(client.trainingJobs.create(job)).rejects.toBeInstanceOf(APIConnectionError);
    expect(calls).toBe(2);
  });

  it("with the fetch transport: a connection error of unknown kind is not retried for trainingJobs.create", async () => {
    let calls = 0;
    const client = new Inferloop({
      baseURL: "http://127.0.0.1:9",
      apiKey: "sk-x-123456",
      maxRetries: 2,
      fetch: () => {
        calls++;
        return Promise.reject(new TypeError("fetch failed"));
      },
    });
    await expect(client.trainingJobs.create(job)).rejects.toBeInstanceOf(APIConnectionError);
    expect(calls).toBe(1);
  });
});
