/**
 * Type tests (checked by `npm run typecheck`): `inferloop/ai-sdk`'s own types of specification v4
 * (src/ai-sdk/spec-v4.ts) against `@ai-sdk/provider` 4's, and its model as `ai` 7's
 * `LanguageModel`. That they do not depend on the top level's `@ai-sdk/provider` is checked on
 * the packed package, in a project with `ai` 7 and `@ai-sdk/provider` 3
 * (tests/package/ai-sdk-projects.test.ts).
 */
import type * as P4 from "@ai-sdk/provider";
import type { LanguageModel, Provider } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import {
  createInferloopProvider,
  type InferloopChatLanguageModel,
  type InferloopProvider,
} from "../../src/ai-sdk/index.js";
import type * as Own from "../../src/ai-sdk/spec-v4.js";

describe("inferloop/ai-sdk's model and provider", () => {
  it("are ai 7's LanguageModel and provider", () => {
    const inferloop = createInferloopProvider({ baseURL: "http://localhost:8000/v1", apiKey: "k" });
    const model: LanguageModel = inferloop("m");
    const provider: Provider = inferloop;
    expectTypeOf(model).not.toBeAny();
    expectTypeOf(provider).not.toBeAny();
  });

  it("are the specification's v4 model and provider", () => {
    expectTypeOf<InferloopChatLanguageModel>().toExtend<P4.LanguageModelV4>();
    expectTypeOf<InferloopProvider>().toExtend<P4.ProviderV4>();
  });
});

// Each way round, without the leniency of method parameters.
describe("the own v4 types", () => {
  it("give back the specification's results, and miss none of their parts", () => {
    expectTypeOf<Own.LanguageModelV4GenerateResult>().toExtend<P4.LanguageModelV4GenerateResult>();
    expectTypeOf<Own.V4StreamPart>().toExtend<P4.LanguageModelV4StreamPart>();
    expectTypeOf<Own.LanguageModelV4StreamResult>().toExtend<P4.LanguageModelV4StreamResult>();
    // 4's metadata is readonly JSON, the own mutable: the kinds of part are compared.
    expectTypeOf<P4.LanguageModelV4Content["type"]>().toEqualTypeOf<Own.V4Content["type"]>();
    expectTypeOf<P4.LanguageModelV4StreamPart["type"]>().toEqualTypeOf<Own.V4StreamPart["type"]>();
    expectTypeOf<P4.SharedV4Warning["type"]>().toEqualTypeOf<Own.V4Warning["type"]>();
    expectTypeOf<P4.LanguageModelV4FinishReason>().toEqualTypeOf<Own.V4FinishReason>();
  });

  it("take the specification's calls, and are one", () => {
    expectTypeOf<P4.LanguageModelV4CallOptions>().toExtend<Own.LanguageModelV4CallOptions>();
    expectTypeOf<Own.LanguageModelV4CallOptions>().toExtend<P4.LanguageModelV4CallOptions>();
  });

  it("refuse what the specification refuses in a call", () => {
    const prompt: Own.V4Prompt = [
      // @ts-expect-error v4 tags a file's data (`{ type: "data", data }`)
      { role: "user", content: [{ type: "file", mediaType: "image/png", data: "iVBO" }] },
      // @ts-expect-error a user message has no reasoning
      { role: "user", content: [{ type: "reasoning", text: "hm" }] },
    ];
    expectTypeOf(prompt).toEqualTypeOf<Own.V4Prompt>();
  });
});
