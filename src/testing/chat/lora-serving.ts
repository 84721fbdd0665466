/**
 * Chat on a LoRA adapter deployed as an artifact, as W&B Inference serves one (W&B's "Use
 * Serverless LoRA Inference", `wandb/docs` `inference/lora.mdx`): the model
 * `wandb-artifact:///{entity}/{project}/{name}:{alias}` names a committed artifact by alias
 * (`latest`, ...) or version (`v0`); it answers when that artifact is of type `lora` and names its
 * base model in the metadata's `wandb.base_model`, and is "not found" as vLLM words it otherwise.
 * The storage region is not checked: what W&B answers for another region is not public. Trained
 * checkpoints are trainable.ts's (a name of no uploaded artifact goes there).
 */
import type { ArtifactStore } from "../artifacts/store.js";
import { openAiError } from "../responses.js";
import type { FakeModelEntry, FakeRequest, ResponsePlan } from "../types.js";
import { isRecord } from "../util.js";

const NAME = /^wandb-artifact:\/\/\/([^/]+)\/([^/]+)\/([^/:]+)(?::([^/:]+))?$/;

/**
 * The served entry of a deployed adapter, a 404 for an artifact that is no servable adapter, or
 * undefined when the model names no uploaded artifact.
 *
 * @internal
 */
export function resolveDeployedLora(
  req: FakeRequest,
  artifacts: ArtifactStore,
): undefined | { error: ResponsePlan } | { entry: FakeModelEntry; policy?: undefined } {
  const name = isRecord(req.json) ? req.json["model"] : undefined;
  const m = typeof name === "string" ? NAME.exec(name) : null;
  if (m === null) return undefined;
  const [, entity, project, collection, alias] = m as unknown as [string, string, string, string, string | undefined];
  const artifact = artifacts.resolve(entity, project, collection, alias ?? "latest");
  if (artifact === undefined) return undefined;
  let baseModel: unknown;
  try {
    baseModel = (JSON.parse(artifact.metadata ?? "{}") as Record<string, unknown>)["wandb.base_model"];
  } catch {
    baseModel = undefined;
  }
  if (artifact.type !== "lora" || typeof baseModel !== "string")
    return { error: openAiError(404, "NotFoundError", `The model \`${name as string}\` does not exist.`, "model") };
  return { entry: { id: name as string, object: "model", created: 0, owned_by: "wandb", root: baseModel } };
}
