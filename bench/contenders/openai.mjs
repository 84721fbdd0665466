// The official openai client (v7), pointed at the local server's /v1. It has no call query, so
// `query` is absent and those scenarios are skipped for it.
import OpenAI from "openai";

export async function createContender(url) {
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "bench-key" });
  return {
    chat: (params) => client.chat.completions.create(params),
    async stream(params, onChunk) {
      const stream = await client.chat.completions.create({ ...params, stream: true });
      for await (const chunk of stream) onChunk(chunk);
    },
  };
}
