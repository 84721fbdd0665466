// The official openai client (v7), pointed at the local server's /v1. It has no call query, so
// `query` is absent and those scenarios are skipped for it.
import OpenAI from "openai";
import { logprobSum, rolloutSummary } from "./inferloop.mjs";

export async function createContender(url) {
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "bench-key" });
  return {
    chat: (params) => client.chat.completions.create(params),
    async stream(params, onChunk) {
      const stream = await client.chat.completions.create({ ...params, stream: true });
      for await (const chunk of stream) onChunk(chunk);
    },
    // Its stream helper accumulates the final completion; it does not append `token_ids`
    // (vLLM's extension), so the scenario does not count them for openai.
    async rollout(params) {
      const completion = await client.chat.completions.stream(params).finalChatCompletion();
      const choice = completion.choices[0];
      const keep = { messages_and_choices: [...params.messages, choice], reward: undefined };
      return { ...rolloutSummary(keep, choice), ids: undefined };
    },
    async readLogprobs(params) {
      const completion = await client.chat.completions.stream(params).finalChatCompletion();
      const choice = completion.choices[0];
      return { ...rolloutSummary(completion, choice), ids: undefined, sum: logprobSum(choice) };
    },
  };
}
