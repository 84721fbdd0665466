// The benchmark scenarios. Each one drives a contender's three operations (chat, stream,
// query) the same way and checks what came back, so a contender that skips work fails
// instead of looking fast.
import { rolloutContentLength, rolloutLogprobSum, sseContentLength } from "./fixtures.mjs";
import { trainingJobParams } from "./training-fixture.mjs";

const MESSAGES = [
  { role: "system", content: "You are a concise support assistant." },
  { role: "user", content: "How do I reset my password?" },
];
const chatParams = { model: "Qwen/Qwen3-8B", messages: MESSAGES, max_completion_tokens: 64, temperature: 0.7 };
const streamParams = (chunks) => ({ model: "Qwen/Qwen3-8B", messages: MESSAGES, max_completion_tokens: chunks });

async function chatCalls(c, total, concurrency) {
  let next = 0;
  let chars = 0;
  const worker = async () => {
    while (next < total) {
      next++;
      const completion = await c.chat(chatParams);
      chars += completion.choices[0].message.content.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  expect(chars > 0 && chars % total === 0, `chat content over ${total} calls`);
}

async function streams(c, count, chunks, concurrency) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      let n = 0;
      let chars = 0;
      await c.stream(streamParams(chunks), (chunk) => {
        n++;
        chars += chunk.choices[0]?.delta?.content?.length ?? 0;
      });
      expect(
        n === chunks && chars === sseContentLength(chunks),
        `stream of ${chunks} chunks: got ${n} chunks, ${chars} chars`,
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function query(c, records, pageSize) {
  let n = 0;
  let bytes = 0;
  await c.query(`bench/calls-${records}`, pageSize, (call) => {
    n++;
    bytes += call.id.length; // touch every record
  });
  expect(n === records && bytes === records * 36, `call query of ${records}: got ${n}`);
}

/** `count` rollout streams of `tokens` tokens each (logprobs with `top` alternatives and token
 * ids on every chunk), all at once up to `concurrency`, each accumulated into its final
 * completion and recorded into a trajectory. Every trajectory is kept to the end, as a rollout
 * keeps its group until it is scored and sent: peak RSS counts what they hold. */
async function rollouts(c, count, tokens, top, concurrency, { read = false } = {}) {
  const params = { ...streamParams(tokens), logprobs: true, top_logprobs: top, return_token_ids: true };
  const kept = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const r = read ? await c.readLogprobs(params) : await c.rollout(params);
      expect(
        r.content === rolloutContentLength(tokens) &&
          r.entries === tokens &&
          r.top === top &&
          (r.ids === undefined || r.ids === tokens),
        `rollout of ${tokens} tokens: got ${r.content} chars, ${r.entries} logprob entries, ${r.ids} token ids`,
      );
      if (read) expect(r.sum === rolloutLogprobSum(tokens, top), `logprobs of ${tokens} tokens: sum ${r.sum}`);
      kept.push(r.keep);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  expect(kept.length === count, `rollouts: ${kept.length} of ${count}`);
}

// Built once per process, during the untimed warm-up: building it is not the client's work.
let bigJob;
async function trainingJob(c, params, minBytes) {
  const { id, bytes } = await c.train(params);
  expect(typeof id === "string" && bytes >= minBytes, `training job: ${bytes} bytes received`);
}

function expect(ok, what) {
  if (!ok) throw new Error(`check failed: ${what}`);
}

/**
 * name -> { label, needs (the contender operation), warm (untimed, same code paths, so every
 * contender is measured warm: JIT and pool), run }.
 */
export const SCENARIOS = {
  "chat-seq": {
    label: "2,000 chat calls, sequential",
    needs: "chat",
    warm: (c) => chatCalls(c, 200, 1),
    run: (c) => chatCalls(c, 2000, 1),
  },
  "chat-c32": {
    label: "4,000 chat calls, concurrency 32",
    needs: "chat",
    warm: (c) => chatCalls(c, 200, 32),
    run: (c) => chatCalls(c, 4000, 32),
  },
  "stream-200k": {
    label: "1 stream of 200,000 chunks",
    needs: "stream",
    warm: (c) => streams(c, 1, 5000, 1),
    run: (c) => streams(c, 1, 200_000, 1),
  },
  "streams-300x200": {
    label: "300 streams of 200 chunks, concurrency 4",
    needs: "stream",
    warm: (c) => streams(c, 20, 200, 4),
    run: (c) => streams(c, 300, 200, 4),
  },
  "rollout-256x512": {
    label: "rollout: 256 concurrent streams × 512 tokens, top_logprobs 5, token ids, into trajectories",
    needs: "rollout",
    warm: (c) => rollouts(c, 16, 512, 5, 16),
    run: (c) => rollouts(c, 256, 512, 5, 256),
  },
  // W&B allows 2,000 requests in flight per user: a step's rollouts all at once, every one kept.
  "rollout-2000x128": {
    label: "rollout: 2,000 concurrent streams × 128 tokens, top_logprobs 5, token ids, into trajectories",
    needs: "rollout",
    warm: (c) => rollouts(c, 64, 128, 5, 64),
    run: (c) => rollouts(c, 2000, 128, 5, 2000),
  },
  // The same streams read by a client that keeps completions, not trajectories: every logprob of
  // each final completion is read (what a confidence score or an own rollout store does).
  "logprobs-256x512": {
    label:
      "logprobs read: 256 concurrent streams × 512 tokens, top_logprobs 5; every logprob of each final completion read, completions kept",
    needs: "rollout",
    warm: (c) => rollouts(c, 16, 512, 5, 16, { read: true }),
    run: (c) => rollouts(c, 256, 512, 5, 256, { read: true }),
  },
  "query-100k-1page": {
    label: "call query, 100k records, 1 page",
    needs: "query",
    warm: (c) => query(c, 2000, 2000),
    run: (c) => query(c, 100_000, 100_000),
  },
  "query-100k-paged": {
    label: "call query, 100k records, pages of 1000",
    needs: "query",
    warm: (c) => query(c, 2000, 1000),
    run: (c) => query(c, 100_000, 1000),
  },
  "training-64x8x4k": {
    label: "training job, 64 groups × 8 trajectories × 4,000 tokens",
    needs: "train",
    warm: async (c) => {
      bigJob = trainingJobParams(64, 8, 4000);
      await trainingJob(c, trainingJobParams(2, 8, 4000), 2 * 8 * 4000 * 40);
    },
    run: (c) => trainingJob(c, bigJob, 64 * 8 * 4000 * 40),
  },
  "query-1m-1page": {
    label: "call query, 1M records, 1 page (RSS flatness)",
    needs: "query",
    warm: (c) => query(c, 2000, 2000),
    run: (c) => query(c, 1_000_000, 1_000_000),
  },
};
