import type { Inferloop } from "../index.js";
import { generate, stream, supportedUrls } from "./chat-core.js";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from "./spec-v4.js";

/**
 * A chat model of the AI SDK's language model specification v4 (what `ai` 7 calls), made by
 * `createInferloopProvider`. Every call goes through `client.chat.completions.create`, so it is
 * validated, retried, timed out, traced and captured like any other call of the client.
 *
 * @example
 * ```ts
 * import { generateText } from "ai";
 *
 * const chat = createInferloopProvider({ client })("Qwen/Qwen3-8B");
 * const { text } = await generateText({ model: chat, prompt: "Say hi" });
 * ```
 */
export class InferloopChatLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = supportedUrls();
  readonly #client: Inferloop;

  constructor(modelId: string, client: Inferloop, provider = "inferloop.chat") {
    this.modelId = modelId;
    this.#client = client;
    this.provider = provider;
  }

  doGenerate(call: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    return generate(this.#client, this.modelId, call);
  }

  doStream(call: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    return stream(this.#client, this.modelId, call);
  }
}
