/**
 * `client.loras.deploy`: an adapter folder uploaded as a `lora` artifact the way W&B's LoRA guide
 * asks (metadata `wandb.base_model`, storage region `coreweave-us`), or a trained checkpoint,
 * which W&B Training already keeps as one, looked up. Everything that can be checked without W&B
 * (parameters, the folder, `adapter_config.json`'s base model and rank) is checked first.
 */
import { InferloopError } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { membershipByName } from "../../wire/artifacts/endpoints.js";
import { ArtifactNotFoundError } from "../../wire/artifacts/errors.js";
import { runGraphQL } from "../../wire/graphql.js";
import { LORA_STORAGE_REGION } from "../../wire/loras/base-models.js";
import { type CheckedDeploy, checkAdapter, checkDeployParams } from "../../wire/loras/checks.js";
import type { LoraDeployParams, LoraDeployResult } from "../../wire/loras/types.js";
import { uploadArtifact } from "../artifacts/upload.js";
import { readAdapterFolder } from "./adapter-folder.js";

const modelName = (entity: string, project: string, name: string, alias: string) =>
  `wandb-artifact:///${entity}/${project}/${name}:${alias}`;

/** Runs the deploy; see the module comment. */
export async function deployLora(
  http: HttpClient,
  params: LoraDeployParams,
  options: RequestOptions | undefined,
): Promise<LoraDeployResult> {
  const checked = checkDeployParams(params);
  if (checked.kind === "checkpoint") return deployCheckpoint(http, checked, options);
  const { dir, entity, project, name } = checked;
  const folder = await readAdapterFolder(dir);
  const baseModel = checkAdapter(
    params,
    dir,
    folder.files.map((f) => f.name),
    folder.configText,
  );
  const artifact = await uploadArtifact(
    http,
    {
      entity,
      project,
      name,
      type: "lora",
      files: folder.files,
      ...(params.aliases !== undefined ? { aliases: params.aliases } : {}),
      metadata: { ...params.metadata, "wandb.base_model": baseModel },
      ...(params.description !== undefined ? { description: params.description } : {}),
      storageRegion: params.region ?? LORA_STORAGE_REGION,
    },
    options,
  );
  return { model: modelName(entity, project, name, "latest"), artifact, baseModel };
}

/** A trained step is already a `lora` artifact (`{model}:step{N}`): one lookup confirms it. */
async function deployCheckpoint(
  http: HttpClient,
  checked: Extract<CheckedDeploy, { kind: "checkpoint" }>,
  options: RequestOptions | undefined,
): Promise<LoraDeployResult> {
  const { model, step } = checked.checkpoint;
  const { entity, project, name } = model;
  const alias = `step${step}`;
  const found = await runGraphQL(http, membershipByName, { entity, project, name: `${name}:${alias}` }, options);
  if (found === null)
    throw new ArtifactNotFoundError(
      `${entity}/${project}/${name}:${alias}`,
      " (no such trained step: `model.latestStep()` gives the newest)",
    );
  if (found.type !== "lora")
    throw new InferloopError(
      `${entity}/${project}/${name}:${alias} is a \`${found.type}\` artifact, not a \`lora\`: W&B Inference serves LoRA adapters only.`,
    );
  const version = `v${found.versionIndex}`;
  return {
    model: modelName(entity, project, name, alias),
    artifact: {
      id: found.id,
      version,
      digest: found.digest,
      ref: modelName(entity, project, name, version),
      existing: true,
    },
    baseModel: checked.baseModel,
  };
}
