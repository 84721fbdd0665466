/**
 * Create an RL training job. An `idempotencyKey` makes the create safe to retry: the service
 * returns the same job for the same key instead of creating a second one.
 *
 *   npx tsx training-job.ts          (needs: npm install inferloop tsx)
 *
 * Against your own service, name the trainable model: INFERLOOP_TRAINING_MODEL_ID (its id).
 */
import { randomUUID } from "node:crypto";
import { Inferloop, type TrainingJobCreateParams, type TrajectoryParams } from "inferloop";
import { startFakeService } from "inferloop/testing";

// The service the environment names (INFERLOOP_BASE_URL, or a key alone: W&B's hosts), else
// the fake service of inferloop/testing, started here on loopback (any UUID is a model there).
const configured = ["INFERLOOP_BASE_URL", "INFERLOOP_API_KEY", "WANDB_API_KEY"].some((name) => process.env[name]);
const fake = configured ? undefined : await startFakeService();
const client = fake ? new Inferloop({ baseURL: fake.url, apiKey: fake.apiKey }) : new Inferloop();
const modelId = process.env.INFERLOOP_TRAINING_MODEL_ID ?? (fake ? randomUUID() : undefined);

function rollout(answer: string, reward: number): TrajectoryParams {
  return {
    messages_and_choices: [
      { role: "system", content: "Answer with a number only." },
      { role: "user", content: "What is 6 * 7?" },
      {
        finish_reason: "stop",
        index: 0,
        // The trainer trains a choice only with the logprobs it was sampled with: sample with `logprobs: true`.
        logprobs: { content: [{ token: answer, logprob: -0.3, bytes: null, top_logprobs: [] }] },
        message: { role: "assistant", content: answer },
      },
    ],
    reward,
    metrics: { correct: reward === 1 },
    start_time: new Date().toISOString(),
  };
}

try {
  if (!modelId) {
    console.log("skipped: no model id (set INFERLOOP_TRAINING_MODEL_ID)");
  } else {
    const params: TrainingJobCreateParams = {
      model_id: modelId,
      trajectory_groups: [{ trajectories: [rollout("42", 1), rollout("48", 0), rollout("forty-two", 0.5)] }],
      experimental_config: { learning_rate: 1e-5, ppo: true },
    };

    // One key per logical job: keep it with the job's inputs if you may retry later.
    const idempotencyKey = randomUUID();
    const { id } = await client.trainingJobs.create(params, { idempotencyKey, maxRetries: 4 });
    console.log(`created training job ${id}`);

    const again = await client.trainingJobs.create(params, { idempotencyKey });
    console.log(`same key again: ${again.id === id ? "same job, nothing duplicated" : `a new job ${again.id}`}`);
    if (fake) console.log(`jobs on the fake service: ${fake.trainingJobs.length}`);
  }
} finally {
  await fake?.close();
}
