/**
 * SFT jobs' training data, as W&B Training reads it: `training_data_url` must name a committed
 * artifact (`wandb-artifact:///{entity}/{project}/{name}:{alias}`) holding `train.jsonl`; the
 * create "400s once that artifact is gone" (research/training-api.md). The SFT create route
 * (training.ts) asks {@link sftDatasetProblem} before it makes a job.
 */
import type { ArtifactStore, FakeArtifact } from "./artifact-store.js";

const URL_FORM = /^wandb-artifact:\/\/\/([^/]+)\/([^/]+)\/([^/:]+):([^/:]+)$/;

/**
 * What is wrong with a `training_data_url`, or the dataset's rows when it is usable.
 *
 */
export function sftDatasetProblem(
  store: ArtifactStore,
  url: string,
): { problem: string } | { artifact: FakeArtifact; rows: number } {
  const m = URL_FORM.exec(url);
  if (!m) return { problem: "training_data_url must be wandb-artifact:///{entity}/{project}/{name}:{version}" };
  const [, entity, project, name, alias] = m as unknown as [string, string, string, string, string];
  const artifact = store.resolve(entity, project, name, alias);
  if (artifact === undefined)
    return { problem: `Training data artifact not found: ${entity}/${project}/${name}:${alias}` };
  const file = artifact.files.get("train.jsonl");
  const object = file && store.object(file.key);
  if (object === undefined) return { problem: `The artifact ${name}:${alias} has no train.jsonl` };
  const rows = new TextDecoder()
    .decode(object.bytes)
    .split("\n")
    .filter((l) => l.trim() !== "").length;
  return { artifact, rows };
}
