import { type ClientOptions, Inferloop, InferloopError } from "../index.js";

/**
 * Options of {@link createInferloopProvider}: a client to call through, or the options to make one
 * with (the same as `new Inferloop(options)`). With both, the client is used with those options
 * changed (`client.withOptions`), sharing its connection pool.
 */
export interface InferloopProviderSettings extends ClientOptions {
  /** The client every call goes through (its retries, timeouts, telemetry, logging). */
  client?: Inferloop;
}

/**
 * A provider of the given specification version whose language models `model` makes, each
 * calling through the client the settings name: what `inferloop/ai-sdk` and
 * `inferloop/ai-sdk/v3` share.
 */
export function makeProvider<Version extends "v3" | "v4", Model>(
  settings: InferloopProviderSettings,
  specificationVersion: Version,
  model: (modelId: string, client: Inferloop) => Model,
) {
  const { client: given, ...options } = settings;
  const client =
    given === undefined ? new Inferloop(options) : Object.keys(options).length > 0 ? given.withOptions(options) : given;
  const languageModel = (modelId: string): Model => {
    if (typeof modelId !== "string" || modelId.length === 0)
      throw new InferloopError('An inferloop model needs its id, e.g. inferloop("Qwen/Qwen3-8B").');
    return model(modelId, client);
  };
  const noSuchModel =
    (kind: string) =>
    (modelId: string): never => {
      throw new InferloopError(
        `inferloop/ai-sdk provides language (chat) models only: there is no ${kind} model "${modelId}".`,
      );
    };
  const provider = (modelId: string) => languageModel(modelId);
  return Object.assign(provider, {
    specificationVersion,
    languageModel,
    chatModel: languageModel,
    embeddingModel: noSuchModel("embedding"),
    imageModel: noSuchModel("image"),
  });
}
