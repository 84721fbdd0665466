/**
 * SFT jobs' training data, as W&B Training reads it: `training_data_url` must name a committed
 * artifact (`wandb-artifact:///{entity}/{project}/{name}:{alias}`) holding `train.jsonl`; the
 * create "400s once that artifact is gone" (research/training-api.md). The route below is the
 * smallest SFT create the artifact work needs; the training work's fuller route takes over
 * {@link sftDatasetProblem} when both meet.
 */
import type { ArtifactStore, FakeArtifact } from "./artifact-store.js";
import { detailError, jsonResponse, requireJsonBody } from "./responses.js";
import { route, type Route } from "./route.js";
import type { FakeState } from "./state.js";
import type { TrainingJob } from "./types.js";
import { isoMicros, isRecord, randomUuid } from "./util.js";

const URL_FORM = /^wandb-artifact:\/\/\/([^/]+)\/([^/]+)\/([^/:]+):([^/:]+)$/;

/**
 * What is wrong with a `training_data_url`, or the dataset's rows when it is usable.
 *
 * @example
 * const found = sftDatasetProblem(state.artifacts, "wandb-artifact:///acme/rl/data:v0");
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

/** `POST /v1/preview/sft-training-jobs`: checks the dataset, then trains one step per row. */
export const SFT_DATASET_ROUTES: ReadonlyArray<Route<FakeState>> = [
  route({
    method: "POST",
    path: "/v1/preview/sft-training-jobs",
    auth: "bearer",
    handle: ({ req, state }) => {
      const parsed = requireJsonBody(req.body, req.json);
      if (!parsed.ok) return parsed.error;
      const body = parsed.value;
      if (!isRecord(body))
        return detailError([{ loc: ["body"], msg: "Input should be an object", type: "model_type" }]);
      for (const key of ["model_id", "training_data_url"])
        if (typeof body[key] !== "string")
          return detailError([{ loc: ["body", key], msg: "Field required", type: "missing" }]);
      const found = sftDatasetProblem(state.artifacts, body.training_data_url as string);
      if ("problem" in found) return jsonResponse(400, { detail: found.problem });
      const job: TrainingJob = {
        id: randomUuid(),
        model_id: body.model_id as string,
        idempotency_key: req.headers["idempotency-key"] ?? null,
        request: body,
        rewards: [Array.from({ length: found.rows }, () => null)],
        created_at: isoMicros(Date.now()),
      };
      state.training.list.push(job);
      state.trainable.startJob(job, undefined);
      return jsonResponse(200, { id: job.id });
    },
  }),
];
