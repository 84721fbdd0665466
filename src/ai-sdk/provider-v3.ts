import { InferloopChatLanguageModelV3 } from "./language-model-v3.js";
import { type InferloopProviderSettings, makeProvider } from "./make-provider.js";
import type { ProviderV3 } from "./spec-v3.js";

/**
 * An AI SDK provider of specification v3 (for `ai` 6) for vLLM through inferloop: call it with a
 * model id for a language model.
 */
export interface InferloopProvider extends ProviderV3 {
  (modelId: string): InferloopChatLanguageModelV3;
  languageModel(modelId: string): InferloopChatLanguageModelV3;
  /** The same as `languageModel`: every inferloop model is a chat model. */
  chatModel(modelId: string): InferloopChatLanguageModelV3;
}

/**
 * `inferloop/ai-sdk`'s `createInferloopProvider` for `ai` 6, whose models are of specification v3:
 * the same requests, checks, retries, errors, capture and `providerMetadata.inferloop`. (`ai` 7
 * takes these models too.) The reasoning effort, which the v3 call has no setting for, goes in
 * `providerOptions.inferloop.reasoning_effort`.
 *
 * @example
 * ```ts
 * import { generateText } from "ai"; // ai@6
 * import { Inferloop } from "inferloop";
 * import { createInferloopProvider } from "inferloop/ai-sdk/v3";
 *
 * const inferloop = createInferloopProvider({ client: new Inferloop({ baseURL: "http://localhost:8000/v1" }) });
 * const { text, providerMetadata } = await generateText({
 *   model: inferloop("Qwen/Qwen3-8B"),
 *   prompt: "Say hi",
 *   providerOptions: { inferloop: { top_k: 20, reasoning_effort: "low", return_token_ids: true } },
 * });
 * console.log(text, providerMetadata?.["inferloop"]?.["token_ids"]);
 * ```
 */
export function createInferloopProvider(settings: InferloopProviderSettings = {}): InferloopProvider {
  return makeProvider(settings, "v3", (modelId, client) => new InferloopChatLanguageModelV3(modelId, client));
}
