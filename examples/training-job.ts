/**
 * Create an RL training job. An `idempotencyKey` makes the create safe to retry: the service
 * returns the same job for the same key instead of creating a second one.
 *
 *   npx tsx examples/training-job.ts [--training-model=UUID]
 */
import { randomUUID } from "node:crypto";
import type { TrainingJobCreateParams, TrajectoryParams } from "../src/index.js";
import { howToSet, runExample } from "./_service.js";

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

await runExample(async ({ client, fake, trainingModelId }) => {
  if (!trainingModelId) {
    console.log(`skipped: no model id (${howToSet("trainingModelId")})`);
    return;
  }
  const params: TrainingJobCreateParams = {
    model_id: trainingModelId,
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
});
