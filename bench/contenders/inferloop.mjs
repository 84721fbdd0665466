// inferloop, as a user gets it: the built package (dist/), default options (undici transport,
// request validation, retries on, response normalization).
import { Inferloop } from "../../dist/index.js";

export async function createContender(url) {
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
  };
}
