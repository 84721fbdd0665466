// `inferloop models`: the models the inference service serves (`GET /v1/models`).
import type { Command } from "../command.js";

export const models: Command = {
  name: "models",
  summary: "list the models the inference service serves",
  description: "Lists the models of GET /v1/models: one per line (id and owner), or a JSON array with --json.",
  examples: ["inferloop models", "inferloop models --json | jq -r '.[].id'"],
  async run(input, { client, signal, stdout }) {
    const { data } = await client().models.list({ signal });
    if (input.json) await stdout.json(data);
    else {
      const width = Math.max(0, ...data.map((m) => m.id.length)) + 2;
      for (const m of data) await stdout.line(`${m.id.padEnd(width)}${m.owned_by ?? ""}`);
    }
    return 0;
  },
};
