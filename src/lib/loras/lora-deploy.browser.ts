// The browser build's lora-deploy.ts: deploying reads an adapter folder, which needs a file
// system, so a page carries none of the checks and the upload plan, only this refusal.
import { InferloopError } from "../../core/errors/errors.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { LoraDeployParams, LoraDeployResult } from "../../wire/loras/types.js";

/** Refused: no file system. */
export async function deployLora(
  _http: HttpClient,
  _params: LoraDeployParams,
  _options: RequestOptions | undefined,
): Promise<LoraDeployResult> {
  throw new InferloopError(
    "client.loras.deploy runs in Node, Bun or Deno (it reads the adapter folder): deploy from there, or with `npx inferloop lora deploy`.",
  );
}
