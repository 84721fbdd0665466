import type { ArtifactUploadResult } from "../artifacts/types.js";

/**
 * A trained checkpoint of a trainable model: W&B Training keeps each step as a `lora` artifact
 * named after the model, aliased `step{N}`. A `TrainableModel` (from
 * `client.trainableModels.register`) is one `model`; so is a plain object with the same members.
 */
export interface LoraCheckpoint {
  model: { entity: string; project: string; name: string; base_model: string };
  /** The trained step to serve. */
  step: number;
}

/**
 * The parameters of `client.loras.deploy`: an adapter folder (`dir`, with `project` and `name`),
 * or a trainable model's `checkpoint`.
 */
export interface LoraDeployParams {
  /** A PEFT adapter folder (`adapter_config.json`, `adapter_model.safetensors`, ...): every file
   * in it is uploaded, sub-folders included, as W&B's `artifact.add_dir` does. Node only. */
  dir?: string;
  /** `"<entity>/<project>"`: where the artifact is stored, and whose usage the chat calls are. */
  project?: string;
  /** The artifact's name (letters, digits, `-`, `_`, `.`): the model is `wandb-artifact:///{project}/{name}:latest`. */
  name?: string;
  /** The base model the adapter was trained on, as W&B names it. Default: `base_model_name_or_path`
   * of `adapter_config.json`. */
  baseModel?: string;
  /** Aliases besides `latest` (always added) and the `vN` W&B assigns. */
  aliases?: string[];
  /** The storage region. Default `coreweave-us`, where W&B Inference loads adapters from. */
  region?: string;
  description?: string;
  /** More metadata; `wandb.base_model` is always set from `baseModel`. */
  metadata?: Record<string, unknown>;
  /** Instead of a folder: a trainable model's checkpoint, already a `lora` artifact on W&B. */
  checkpoint?: LoraCheckpoint;
  /** The base models W&B Inference serves adapters for, with each one's largest rank. Default
   * `LORA_BASE_MODELS`; pass `{ ...LORA_BASE_MODELS, "org/new-model": 32 }` when W&B serves
   * more than this SDK knows. */
  baseModels?: Readonly<Record<string, number>>;
}

/**
 * What `client.loras.deploy` resolves to: the chat `model` name W&B Inference serves the
 * adapter by, and the artifact behind it.
 */
export interface LoraDeployResult {
  /** `wandb-artifact:///{entity}/{project}/{name}:latest` (`:step{N}` for a checkpoint): pass it
   * as `model` to `client.chat.completions.create`. */
  model: string;
  /** The artifact version (for a checkpoint: the existing one, `existing: true`). */
  artifact: ArtifactUploadResult;
  /** The base model the adapter was checked against and stored with (`wandb.base_model`). */
  baseModel: string;
}
