/**
 * A registered model's handle on the wire (msw): the members W&B Training sends are kept on
 * it, except one named like a method of the handle, which would hide that method.
 */
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { BASE, makeClient, useMsw } from "../core/msw-setup.js";

const { server } = useMsw();

describe("a trainable model's handle", () => {
  it("keeps the server's members but never lets one hide a method, the lib's included", async () => {
    server.use(
      http.post(`${BASE}/v1/preview/models`, () =>
        HttpResponse.json({
          id: "m1",
          entity: "acme",
          project: "rl",
          name: "agent",
          base_model: "Qwen/Qwen3-8B",
          run_id: "r1",
          lora_rank: 8,
          chat: "a member",
          trainLoop: "a member",
          pruneCheckpoints: 3,
        }),
      ),
    );
    const model = await makeClient({ maxRetries: 0 }).trainableModels.register({
      project: "rl",
      name: "agent",
      base_model: "Qwen/Qwen3-8B",
    });
    expect(model.lora_rank).toBe(8);
    expect(model.run_id).toBe("r1");
    expect(typeof model.trainLoop).toBe("function");
    expect(typeof model.pruneCheckpoints).toBe("function");
    expect(typeof model.chat.completions.create).toBe("function");
  });
});
