// The raw floor for the hostile-server bench: undici.request and a minimal JSONL splitter, no
// compression (what a client that never asks for it gets).
import { createContender as floor } from "./floor.mjs";

export async function createContender() {
  const clients = new Map();
  return {
    async query(url, projectId, pageSize, onRecord) {
      if (!clients.has(url)) clients.set(url, await floor(url));
      await clients.get(url).query(projectId, pageSize, onRecord);
    },
  };
}
