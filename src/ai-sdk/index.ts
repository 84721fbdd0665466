/**
 * `inferloop/ai-sdk`: an AI SDK provider built on the inferloop client. Only this entry loads
 * anything of the AI SDK (its types, from the optional peer `@ai-sdk/provider`); it takes the
 * client from `inferloop` itself, so the two share one copy of the SDK.
 *
 * @module
 */
export {
  createInferloopProvider,
  type InferloopProvider,
  type InferloopProviderSettings,
} from "./provider.js";
export { InferloopChatLanguageModel } from "./language-model.js";
export type { InferloopProviderOptions } from "./request.js";
export type { InferloopProviderMetadata } from "./metadata.js";
