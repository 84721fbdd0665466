/**
 * Trained checkpoints as W&B Training keeps them: `lora` artifacts named after their model,
 * aliased `step{N}` (and `latest` for the newest), that GraphQL finds beside the uploaded ones.
 */

import type { FakeTrainableModel } from "../training/records.js";
import type { TrainableStore } from "../training/store.js";
import type { WandbRunStore } from "../wandb-runs/store.js";
import { type ArtifactStore, type FakeArtifact, md5Base64 } from "./store.js";

/** What the artifact routes read of the fake's state: its artifacts, trained models and runs. */
export interface ArtifactState {
  artifacts: ArtifactStore;
  trainable: TrainableStore;
  /** W&B runs, which the same GraphQL endpoint makes and resumes (`../wandb-runs/graphql.ts`). */
  wandbRuns: WandbRunStore;
}

/** A committed version by alias or `vN`, the trained checkpoints included. */
export function find(
  state: ArtifactState,
  entity: string,
  project: string,
  name: string,
  alias: string,
): FakeArtifact | undefined {
  return state.artifacts.resolve(entity, project, name, alias) ?? lora(state, entity, project, name, alias);
}

/** A trained checkpoint as W&B Training keeps it: a `lora` artifact named after the model,
 * aliased `step{N}` (and `latest` for the newest), with its base model in the metadata. */
function lora(
  state: ArtifactState,
  entity: string,
  project: string,
  name: string,
  alias: string,
): FakeArtifact | undefined {
  const model = state.trainable.findByName(entity, project, name);
  if (model === undefined || model.checkpoints.length === 0) return undefined;
  const step = /^step(\d+)$/.exec(alias);
  const v = /^v(\d+)$/.exec(alias);
  const index = step
    ? model.checkpoints.findIndex((c) => c.step === Number(step[1]))
    : v
      ? Number(v[1])
      : alias === "latest"
        ? model.checkpoints.length - 1
        : -1;
  if (index < 0 || index >= model.checkpoints.length) return undefined;
  return loraArtifact(state, model, index);
}

export function loraById(state: ArtifactState, id: string): FakeArtifact | undefined {
  for (const model of state.trainable.models) {
    const index = model.checkpoints.findIndex((c) => `lora-${c.id}` === id);
    if (index >= 0) return loraArtifact(state, model, index);
  }
  return undefined;
}

function loraArtifact(state: ArtifactState, model: FakeTrainableModel, index: number): FakeArtifact {
  const checkpoint = model.checkpoints[index]!;
  const id = `lora-${checkpoint.id}`;
  const store = state.artifacts;
  const files = new Map<string, { md5: string; key: string }>();
  const contents: Record<string, unknown> = {};
  const encoder = new TextEncoder();
  const adapterConfig = encoder.encode(
    JSON.stringify({ base_model_name_or_path: model.base_model, peft_type: "LORA", r: 8, lora_alpha: 16 }),
  );
  // Weights that differ per checkpoint, so a download of one step is not another's.
  const weights = new Uint8Array(4096);
  for (let i = 0; i < weights.length; i++)
    weights[i] = (i * 31 + checkpoint.step * 7 + checkpoint.id.charCodeAt(i % 36)) & 0xff;
  for (const [name, bytes] of [
    ["adapter_config.json", adapterConfig],
    ["adapter_model.safetensors", weights],
  ] as const) {
    const digest = md5Base64(bytes);
    const key = store.contentKey(model.entity, model.project, digest);
    if (store.object(key) === undefined) store.put(key, bytes, id);
    files.set(name, { md5: digest, key });
    contents[name] = { digest, size: bytes.byteLength, birthArtifactID: id };
  }
  const manifestKey = `manifests/${id}/wandb_manifest.json`;
  if (store.object(manifestKey) === undefined)
    store.put(
      manifestKey,
      encoder.encode(
        JSON.stringify({
          version: 1,
          storagePolicy: "wandb-storage-policy-v1",
          storagePolicyConfig: { storageLayout: "V2", storageRegion: "coreweave-us" },
          contents,
        }),
      ),
      id,
    );
  const latest = index === model.checkpoints.length - 1;
  return {
    id,
    entity: model.entity,
    project: model.project,
    collection: model.name,
    type: "lora",
    digest: checkpoint.id.replace(/-/g, ""),
    state: "COMMITTED",
    versionIndex: index,
    clientID: null,
    metadata: JSON.stringify({ "wandb.base_model": model.base_model }),
    description: null,
    runName: model.run_id,
    storageRegion: "coreweave-us",
    requestedAliases: latest ? [`step${checkpoint.step}`, "latest"] : [`step${checkpoint.step}`],
    manifests: new Map([["wandb_manifest.json", { id: `${id}-manifest`, digest: "", key: manifestKey }]]),
    files,
  };
}
