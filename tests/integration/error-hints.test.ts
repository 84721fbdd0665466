/**
 * Errors that name the fix, on the fake over loopback: a model name in the wrong case gets the
 * served name, and a trained model's step past its newest gets the newest, on `client.chat` and
 * on a model's own `chat` (the Training host) alike.
 */
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/index.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });
const hi = [{ role: "user" as const, content: "hi" }];

describe("a model the fake does not serve", () => {
  it("names the served model a wrong-case name meant", async () => {
    const err = await caught(() => fake.client.chat.completions.create({ model: "qwen/qwen3-8b", messages: hi }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(
      '404 The model `qwen/qwen3-8b` does not exist. (did you mean "Qwen/Qwen3-8B"?)',
    );
  });

  it("names a trained model's newest step when asked for a later one", async () => {
    const model = await fake.client.trainableModels.register({
      project: "rl",
      name: "agent",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    await model.trainSFT([{ messages: [...hi, { role: "assistant", content: "hello" }] }], { pollInterval: 5 });
    const step = await model.latestStep();
    const err = await caught(() => model.chat.completions.create({ model: model.inferenceName(99), messages: hi }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toContain(
      `(the newest step of ${model.entity}/rl/agent is ${step}: wandb-artifact:///${model.entity}/rl/agent:step${step})`,
    );
  });
});
