/**
 * client.loras end to end on the fake over loopback: an adapter folder written in a temp dir is
 * deployed (a `lora` artifact with its base model and region), then chatted with by the name
 * deploy returned, by `:latest` and by `:v0`, on `client.chat` (W&B Inference); a name of no
 * artifact is a 404 as vLLM words it; a trained checkpoint deploys without an upload.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NotFoundError, RequestValidationError } from "../../src/index.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });
const BASE = "meta-llama/Llama-3.1-8B-Instruct";
const hi = [{ role: "user" as const, content: "Say hi" }];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "inferloop-lora-"));
  await writeFile(
    join(dir, "adapter_config.json"),
    JSON.stringify({
      peft_type: "LORA",
      base_model_name_or_path: BASE,
      r: 8,
      lora_alpha: 16,
      target_modules: ["q_proj"],
    }),
  );
  await writeFile(join(dir, "adapter_model.safetensors"), new Uint8Array(256).fill(3));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("client.loras.deploy on the fake", () => {
  it("deploys a folder, and the returned name chats on client.chat (also as :v0)", async () => {
    const { model, artifact, baseModel } = await fake.client.loras.deploy({
      dir,
      project: "acme/support",
      name: "support-lora",
    });
    expect(model).toBe("wandb-artifact:///acme/support/support-lora:latest");
    expect(baseModel).toBe(BASE);
    expect(artifact.version).toBe("v0");

    const stored = fake.svc.state.artifacts.list().find((a) => a.collection === "support-lora")!;
    expect(stored).toMatchObject({ type: "lora", state: "COMMITTED", storageRegion: "coreweave-us" });
    expect(JSON.parse(stored.metadata!)).toEqual({ "wandb.base_model": BASE });

    const reply = await fake.client.chat.completions.create({ model, messages: hi });
    expect(reply.model).toBe(model);
    expect(reply.choices[0]?.message.content).toEqual(expect.any(String));
    const pinned = await fake.client.chat.completions.create({ model: model.replace(":latest", ":v0"), messages: hi });
    expect(pinned.choices).toHaveLength(1);
    // Deployed adapters are served by name, not listed.
    expect((await fake.client.models.list()).data.map((m) => m.id)).not.toContain(model);
  });

  it("answers a name of no artifact, and of an artifact that is no servable adapter, with vLLM's 404", async () => {
    const missing = await caught(() =>
      fake.client.chat.completions.create({ model: "wandb-artifact:///acme/support/nothing:latest", messages: hi }),
    );
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toContain(
      "The model `wandb-artifact:///acme/support/nothing:latest` does not exist.",
    );

    await fake.client.artifacts.upload({
      entity: "acme",
      project: "support",
      name: "data",
      type: "dataset",
      files: [{ name: "train.jsonl", data: "{}\n" }],
    });
    const dataset = await caught(() =>
      fake.client.chat.completions.create({ model: "wandb-artifact:///acme/support/data:v0", messages: hi }),
    );
    expect(dataset).toBeInstanceOf(NotFoundError);
    // A `lora` artifact uploaded without `wandb.base_model`: W&B cannot tell which model loads it.
    await fake.client.artifacts.upload({
      entity: "acme",
      project: "support",
      name: "bare-lora",
      type: "lora",
      files: [{ name: "adapter_model.safetensors", data: new Uint8Array(8) }],
    });
    const bare = await caught(() =>
      fake.client.chat.completions.create({ model: "wandb-artifact:///acme/support/bare-lora:latest", messages: hi }),
    );
    expect(bare).toBeInstanceOf(NotFoundError);
  });

  it("refuses a rank above the limit with nothing sent", async () => {
    await writeFile(join(dir, "adapter_config.json"), JSON.stringify({ base_model_name_or_path: BASE, r: 64 }));
    const before = fake.svc.requests.length;
    const err = await caught(() => fake.client.loras.deploy({ dir, project: "acme/support", name: "big" }));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(fake.svc.requests.length).toBe(before);
  });

  it("deploys a trained checkpoint by step, and client.chat serves it", async () => {
    const trained = await fake.client.trainableModels.register({
      project: "rl",
      name: "agent",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    await trained.trainSFT(
      [
        {
          messages: [
            { role: "user", content: "q" },
            { role: "assistant", content: "a" },
          ],
        },
      ],
      {
        pollInterval: 5,
      },
    );
    const step = await trained.latestStep();
    const { model, artifact } = await fake.client.loras.deploy({ checkpoint: { model: trained, step } });
    expect(model).toBe(`wandb-artifact:///${trained.entity}/rl/agent:step${step}`);
    expect(artifact.existing).toBe(true);
    // No upload: one lookup by name.
    expect(fake.svc.state.artifacts.list()).toHaveLength(1); // the SFT dataset only
    const reply = await fake.client.chat.completions.create({ model, messages: hi });
    expect(reply.model).toBe(model);
  });
});
