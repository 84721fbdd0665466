import type { ProviderV4 } from "@ai-sdk/provider";
import { type ClientOptions, Inferloop, InferloopError } from "../index.js";
import { InferloopChatLanguageModel } from "./language-model.js";

/**
 * Options of {@link createInferloopProvider}: a client to call through, or the options to make
 * one with (the same as `new Inferloop(options)`). With both, the client is used with those
 * options changed (`client.withOptions`), sharing its connection pool.
 */
export interface InferloopProviderSettings extends ClientOptions {
  /** The client every call goes through (its retries, timeouts, telemetry, logging). */
  client?: Inferloop;
}

/**
 * An AI SDK provider (specification v4) for vLLM through inferloop: call it with a model id for
 * a language model.
 */
export interface InferloopProvider extends ProviderV4 {
  (modelId: string): InferloopChatLanguageModel;
  languageModel(modelId: string): InferloopChatLanguageModel;
  /** The same as `languageModel`: every inferloop model is a chat model. */
  chatModel(modelId: string): InferloopChatLanguageModel;
}

/**
 * Makes an AI SDK provider whose models call `client.chat.completions.create`: the client's
 * request checks (a bad `providerOptions.inferloop` field rejects before anything is sent),
 * retries, timeouts, abort, typed errors, telemetry and trajectory capture all apply, and vLLM's
 * extras (logprobs, token ids, stop reason, request id) come back in `providerMetadata.inferloop`.
 *
 * @example
 * ```ts
 * import { generateText } from "ai";
 * import { Inferloop } from "inferloop";
 * import { createInferloopProvider } from "inferloop/ai-sdk";
 *
 * const inferloop = createInferloopProvider({ client: new Inferloop({ baseURL: "http://localhost:8000/v1" }) });
 * const { text, providerMetadata } = await generateText({
 *   model: inferloop("Qwen/Qwen3-8B"),
 *   prompt: "Say hi",
 *   providerOptions: { inferloop: { top_k: 20, logprobs: true, return_token_ids: true } },
 * });
 * console.log(text, providerMetadata?.["inferloop"]?.["token_ids"]);
 * ```
 */
export function createInferloopProvider(settings: InferloopProviderSettings = {}): InferloopProvider {
  const { client: given, ...options } = settings;
  const client =
    given === undefined ? new Inferloop(options) : Object.keys(options).length > 0 ? given.withOptions(options) : given;
  const languageModel = (modelId: string): InferloopChatLanguageModel => {
    if (typeof modelId !== "string" || modelId.length === 0)
      throw new InferloopError('An inferloop model needs its id, e.g. inferloop("Qwen/Qwen3-8B").');
    return new InferloopChatLanguageModel(modelId, client);
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
    specificationVersion: "v4" as const,
    languageModel,
    chatModel: languageModel,
    embeddingModel: noSuchModel("embedding"),
    imageModel: noSuchModel("image"),
  });
}
