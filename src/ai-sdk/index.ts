/**
 * `inferloop/ai-sdk`: an AI SDK provider built on the inferloop client, of language model
 * specification v4 (`ai` 7; `inferloop/ai-sdk/v3` is the same for `ai` 6). Their types of the
 * specification are inferloop's own (spec-v4.ts, spec-v3.ts), so they load nothing of the AI SDK
 * and work whichever major of `@ai-sdk/provider` a project has; they take the client from
 * `inferloop` itself, so the two share one copy of the SDK.
 *
 * @module
 */

export { InferloopChatLanguageModel } from "./language-model.js";
export type { InferloopProviderSettings } from "./make-provider.js";
export type { InferloopProviderMetadata } from "./metadata.js";
export { createInferloopProvider, type InferloopProvider } from "./provider.js";
export type { InferloopProviderOptions } from "./request.js";
