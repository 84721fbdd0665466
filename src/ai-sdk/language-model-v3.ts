import type { Inferloop } from "../index.js";
import { generate, stream, supportedUrls } from "./chat-core.js";
import { callFromV3 } from "./from-v3.js";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamResult,
} from "./spec-v3.js";

/**
 * A chat model of the AI SDK's language model specification v3 (what `ai` 6 calls), made by
 * `createInferloopProvider` of `inferloop/ai-sdk/v3`. It behaves as `inferloop/ai-sdk`'s model:
 * every call goes through `client.chat.completions.create`, validated, retried, timed out,
 * traced and captured like any other call of the client.
 *
 * @example
 * ```ts
 * import { generateText } from "ai"; // ai@6
 * import { createInferloopProvider } from "inferloop/ai-sdk/v3";
 *
 * const chat = createInferloopProvider({ client })("Qwen/Qwen3-8B");
 * const { text } = await generateText({ model: chat, prompt: "Say hi" });
 * ```
 */
export class InferloopChatLanguageModelV3 implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = supportedUrls();
  readonly #client: Inferloop;

  constructor(modelId: string, client: Inferloop, provider = "inferloop.chat") {
    this.modelId = modelId;
    this.#client = client;
    this.provider = provider;
  }

  // Async, so that a call the conversion refuses rejects (as on v4) rather than throwing.
  async doGenerate(call: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    return generate(this.#client, this.modelId, callFromV3(call));
  }

  async doStream(call: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    return stream(this.#client, this.modelId, callFromV3(call));
  }
}
