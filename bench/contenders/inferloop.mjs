// inferloop, as a user gets it: the built package (dist/), default options (undici transport,
// request validation, retries on, response normalization). `dist` points it at another build
// (the A/B base of `BENCH_BASE`).
export async function createContender(url, dist = new URL("../../dist/index.js", import.meta.url).href) {
  const { Inferloop, Trajectory } = await import(dist);
  const client = new Inferloop({ baseURL: url, apiKey: "bench-key" });
  return {
    chat: (params) => client.chat.completions.create(params),
    async stream(params, onChunk) {
      const stream = await client.chat.completions.create({ ...params, stream: true });
      for await (const chunk of stream) onChunk(chunk);
    },
    async query(projectId, pageSize, onRecord) {
      for await (const call of client.calls.query({ project_id: projectId }, { pageSize })) onRecord(call);
    },
    train: (params) => client.trainingJobs.create(params),
    async rollout(params) {
      const stream = await client.chat.completions.create({ ...params, stream: true });
      const completion = await stream.finalCompletion();
      // A build from before the trajectory API (an old A/B base) keeps the choice as it is.
      const t = Trajectory
        ? new Trajectory({ messages_and_choices: [...params.messages] }).record(completion)
        : { messages_and_choices: [...params.messages, completion.choices[0]] };
      // Checked on the choice the trajectory keeps, as the floor's is.
      return rolloutSummary(t, t.messages_and_choices.at(-1));
    },
    async readLogprobs(params) {
      const stream = await client.chat.completions.create({ ...params, stream: true });
      const completion = await stream.finalCompletion();
      const choice = completion.choices[0];
      return { ...rolloutSummary(completion, choice), sum: logprobSum(choice) };
    },
  };
}

/** The sum of every logprob of a choice, each token's then its alternatives', in order. */
export function logprobSum(choice) {
  let sum = 0;
  for (const e of choice.logprobs.content) {
    sum += e.logprob;
    for (const a of e.top_logprobs) sum += a.logprob;
  }
  return sum;
}

/** What the rollout scenario checks, and the trajectory it keeps. */
export function rolloutSummary(keep, choice) {
  return {
    keep,
    content: choice.message.content.length,
    entries: choice.logprobs.content.length,
    top: choice.logprobs.content[0].top_logprobs.length,
    ids: choice.token_ids?.length,
  };
}
