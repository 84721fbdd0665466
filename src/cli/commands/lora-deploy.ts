// `inferloop lora deploy <dir>`: a PEFT adapter folder as a LoRA that W&B Inference serves.
import { argument, type Command } from "../command.js";

export const loraDeploy: Command = {
  name: "lora deploy",
  summary: "deploy a PEFT adapter folder as a LoRA W&B Inference serves",
  description: `Uploads the adapter folder (adapter_config.json, adapter_model.safetensors, ...) as a W&B
artifact of type lora with the metadata and storage region W&B Inference reads, and prints the
model name to chat with. The base model and the rank (adapter_config.json's r) are checked
before anything is sent.`,
  arguments: [{ name: "dir", description: "the adapter folder" }],
  options: {
    project: {
      type: "string",
      short: "p",
      value: "entity/project",
      description: "where the artifact is stored (required)",
    },
    name: { type: "string", value: "name", description: "the artifact's name (required)" },
    "base-model": {
      type: "string",
      value: "id",
      description: "the base model, as W&B names it (default: adapter_config.json's base_model_name_or_path)",
    },
  },
  examples: [
    "inferloop lora deploy ./my-adapter --project acme/support --name support-lora --base-model Qwen/Qwen3-8B",
  ],
  async run(input, { client, signal, stdout }) {
    const dir = argument(input, "dir");
    const { project, name } = input.options;
    const baseModel = input.options["base-model"];
    const deployed = await client().loras.deploy(
      {
        dir,
        ...(typeof project === "string" ? { project } : {}),
        ...(typeof name === "string" ? { name } : {}),
        ...(typeof baseModel === "string" ? { baseModel } : {}),
      },
      { signal },
    );
    if (input.json) await stdout.json(deployed);
    else
      await stdout.line(`deployed ${deployed.artifact.ref} (base ${deployed.baseModel}): chat with ${deployed.model}`);
    return 0;
  },
};
