import type { RequestOptions } from "../core/pipeline/options.js";
import { APIResource } from "../core/pipeline/resource.js";
import type { LoraDeployParams, LoraDeployResult } from "../wire/loras/types.js";

// Loaded at the first call: a page that deploys no adapter does not carry the deploy.
const deploy = () => import("../lib/loras/lora-deploy.js");

/**
 * LoRA adapters served by W&B Inference: `deploy` stores an adapter as the `lora` artifact W&B
 * Inference loads, and resolves to the chat `model` name that serves it. Such a name is sampled
 * on W&B Inference, with `client.chat`; a trainable model's own checkpoints are sampled on W&B
 * Training, with `model.chat`.
 */
export class Loras extends APIResource {
  /**
   * Deploys a PEFT adapter folder (`dir`, with `project` and `name`) as a `lora` artifact with
   * metadata `wandb.base_model` and storage region `coreweave-us`, as W&B's LoRA guide asks, or
   * a trainable model's `checkpoint` (W&B Training already stores each step as one: it is looked
   * up, nothing is uploaded). Before anything is sent, the base model (`baseModel`, else
   * `adapter_config.json`'s `base_model_name_or_path`) must be one W&B Inference serves adapters
   * for, and the rank `r` at most that model's limit (`LORA_BASE_MODELS`): otherwise it rejects
   * with `RequestValidationError` naming the fix. Node, Bun and Deno (the browser build has no
   * deploy: it reads a folder).
   *
   * @example
   * ```ts
   * const { model } = await client.loras.deploy({
   *   dir: "./support-lora", project: "acme/support", name: "support-lora", baseModel: "OpenPipe/Qwen3-14B-Instruct",
   * });
   * const reply = await client.chat.completions.create({ model, messages: [{ role: "user", content: "Hi" }] });
   *
   * const trained = await client.trainableModels.register({ project: "rl", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" });
   * const { model: step3 } = await client.loras.deploy({ checkpoint: { model: trained, step: 3 } });
   * ```
   */
  deploy(params: LoraDeployParams, options?: RequestOptions): Promise<LoraDeployResult> {
    return deploy().then((d) => d.deployLora(this._http, params, options));
  }
}
