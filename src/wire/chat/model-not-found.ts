/**
 * What a chat answered "model not found" adds, looked up only then (one request, no retry, its
 * failure ignored): for a served model's name, the closest names `models.list()` gives (another
 * case, the same name without its organisation, a typo); for a trained model's step
 * (`wandb-artifact:///{entity}/{project}/{name}:step{N}`), the newest step, from the `latest`
 * version of the model's `lora` artifact (W&B Training aliases each checkpoint `step{N}`).
 * vLLM words the answer `The model \`X\` does not exist.` (vllm `entrypoints/openai/engine/serving.py`,
 * `_check_model`), with status 404.
 */
import { closestNames } from "../../core/checks/closest-name.js";
import { callEndpoint } from "../../core/pipeline/endpoint.js";
import type { HttpClient } from "../../core/pipeline/http-client.js";
import type { ErrorHint } from "../../core/pipeline/request-spec.js";
import { modelsList } from "../models/endpoints.js";

// W&B's artifact query is loaded only for a trained model's step: a chat page does not carry it.
const artifactQuery = () => Promise.all([import("../artifacts/endpoints.js"), import("../graphql.js")]);

const ARTIFACT = /^wandb-artifact:\/\/\/?([^/]+)\/([^/]+)\/([^/:]+)(?::([^/:]+))?$/;

async function lookup({
  http,
  body,
  signal,
}: {
  http: HttpClient;
  body: unknown;
  signal: AbortSignal | undefined;
}): Promise<string | undefined> {
  const model = (body as { model?: unknown } | undefined)?.model;
  if (typeof model !== "string") return undefined;
  // One attempt, and not for long: this only adds to an error the caller is about to get.
  const once = { maxRetries: 0, timeout: 10_000, signal };
  const artifact = ARTIFACT.exec(model);
  if (artifact === null) {
    const { data } = await callEndpoint(http, modelsList, {}, once);
    const near = closestNames(
      model,
      data.map((m) => m.id),
    );
    return near.length === 0 ? undefined : ` (did you mean ${near.map((n) => `"${n}"`).join(" or ")}?)`;
  }
  const [, entity, project, name, alias] = artifact as unknown as [string, string, string, string, string?];
  if (alias === undefined || !/^step\d+$/.test(alias)) return undefined;
  const [{ membershipByName }, { runGraphQL }] = await artifactQuery();
  const latest = await runGraphQL(http, membershipByName, { entity, project, name: `${name}:latest` }, once);
  const step = latest?.aliases.find((a) => /^step\d+$/.test(a));
  if (step === undefined || step === alias) return undefined;
  return ` (the newest step of ${entity}/${project}/${name} is ${step.slice(4)}: wandb-artifact:///${entity}/${project}/${name}:${step})`;
}

/** The chat endpoint's hint for a model the server does not know. */
export const modelNotFoundHint: ErrorHint = {
  status: 404,
  match: /\bmodel\b.*\b(does not exist|not found)/i,
  lookup,
};
