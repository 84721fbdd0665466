// inferloop as a user gets it (dist/), for the hostile-server bench: default options, so a call
// query asks for compression and a stream is decoded by the SDK's own SSE reader.
import { Inferloop } from "../../dist/index.js";

export function clientApi(Client) {
  return async function createContender() {
    const clients = new Map();
    const client = (url) => {
      if (!clients.has(url)) clients.set(url, new Client({ baseURL: url, apiKey: "bench-key" }));
      return clients.get(url);
    };
    return {
      async query(url, projectId, pageSize, onRecord) {
        for await (const call of client(url).calls.query({ project_id: projectId }, { pageSize })) onRecord(call);
      },
      async streamAt(url, onChunk) {
        const stream = await client(url).chat.completions.create({
          model: "Qwen/Qwen3-8B",
          messages: [{ role: "user", content: "hi" }],
          stream: true,
        });
        for await (const chunk of stream) onChunk(chunk);
      },
      async streamFrom(fetch, onChunk) {
        const c = new Client({ baseURL: "http://127.0.0.1:9", apiKey: "bench-key", fetch });
        const stream = await c.chat.completions.create({
          model: "Qwen/Qwen3-8B",
          messages: [{ role: "user", content: "hi" }],
          stream: true,
        });
        for await (const chunk of stream) onChunk(chunk);
      },
    };
  };
}

export const createContender = clientApi(Inferloop);
