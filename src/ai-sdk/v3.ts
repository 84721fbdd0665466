/**
 * `inferloop/ai-sdk/v3`: the AI SDK provider of `inferloop/ai-sdk` for `ai` 6, whose language
 * models are of specification v3 (`ai` 7 takes them too). The same `createInferloopProvider`,
 * the same behaviour and `providerMetadata.inferloop`; only the specification differs. Its types
 * of the specification are inferloop's own (no `@ai-sdk/provider`), so `ai` 6 takes its models
 * whichever major of `@ai-sdk/provider` a project has at the top level.
 *
 * @module
 */

export { InferloopChatLanguageModelV3 as InferloopChatLanguageModel } from "./language-model-v3.js";
export type { InferloopProviderSettings } from "./make-provider.js";
export type { InferloopProviderMetadata } from "./metadata.js";
export { createInferloopProvider, type InferloopProvider } from "./provider-v3.js";
export type { InferloopProviderOptions } from "./request.js";
