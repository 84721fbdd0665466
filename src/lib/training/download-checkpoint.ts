// `model.downloadCheckpoint`: W&B Training keeps each trained step as the `lora` artifact
// `{entity}/{project}/{model}:step{N}` (OpenPipe/ART `src/art/serverless/backend.py` pulls it the same way).
import { RequestValidationError } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import { type ArtifactDownload, downloadArtifact } from "../artifacts/download.js";

/** Downloads the LoRA of `step` of `model` into `params.dir`. */
export function downloadCheckpoint(
  http: HttpClient,
  model: { entity: string; project: string; name: string },
  step: number,
  params: { dir: string },
  options: RequestOptions | undefined,
): Promise<ArtifactDownload> {
  if (!Number.isSafeInteger(step) || step < 0)
    return Promise.reject(
      new RequestValidationError(
        [{ path: "step", message: `step must be an integer >= 0, got ${String(step)}`, code: "custom" }],
        "downloadCheckpoint request",
      ),
    );
  const ref = `${model.entity}/${model.project}/${model.name}:step${step}`;
  return downloadArtifact(http, ref, params?.dir, options, "lora");
}
