import { sayWhenAiIsOlder } from "./installed-ai.js";
import { InferloopChatLanguageModel } from "./language-model.js";
import { type InferloopProviderSettings, makeProvider } from "./make-provider.js";
import type { ProviderV4 } from "./spec-v4.js";

/**
 * An AI SDK provider (specification v4, for `ai` 7) for vLLM through inferloop: call it with a
 * model id for a language model.
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
 * Its models are of specification v4 (`ai` 7); `inferloop/ai-sdk/v3` has the same function for
 * `ai` 6. Made in an app whose `ai` is 6 (where that can be read: Node, Bun, Deno), it says once,
 * as an `InferloopWarning`, to import `inferloop/ai-sdk/v3` instead.
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
  sayWhenAiIsOlder();
  return makeProvider(settings, "v4", (modelId, client) => new InferloopChatLanguageModel(modelId, client));
}
