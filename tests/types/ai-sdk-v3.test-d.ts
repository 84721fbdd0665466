/**
 * Type tests (checked by `npm run typecheck`): `inferloop/ai-sdk/v3`'s own types of specification
 * v3 (src/ai-sdk/spec-v3.ts) against the specification's, as `@ai-sdk/provider` 3 (the
 * `@ai-sdk/provider-v3` alias, what `ai` 6 uses) and 4 (its v3 types, what `ai` 7 takes) write
 * them. This repository is the project where it broke: `@ai-sdk/provider` 4 at the top level and
 * `ai` 6 (the `ai6` alias) with its own 3 nested, so `ai` 6's `LanguageModel` is the real test.
 */
import type * as P4 from "@ai-sdk/provider";
import type * as P3 from "@ai-sdk/provider-v3";
import type { LanguageModel as Ai6LanguageModel, Provider as Ai6Provider } from "ai6";
import { describe, expectTypeOf, it } from "vitest";
import type * as Own from "../../src/ai-sdk/spec-v3.js";
import {
  createInferloopProvider,
  type InferloopChatLanguageModel,
  type InferloopProvider,
} from "../../src/ai-sdk/v3.js";

describe("inferloop/ai-sdk/v3's model and provider", () => {
  it("are ai 6's LanguageModel and provider whichever @ai-sdk/provider the top level has", () => {
    const inferloop = createInferloopProvider({ baseURL: "http://localhost:8000/v1", apiKey: "k" });
    const model: Ai6LanguageModel = inferloop("m");
    const provider: Ai6Provider = inferloop;
    expectTypeOf(model).not.toBeAny();
    expectTypeOf(provider).not.toBeAny();
  });

  it("are the specification's v3 model and provider in @ai-sdk/provider 3 and 4", () => {
    expectTypeOf<InferloopChatLanguageModel>().toExtend<P3.LanguageModelV3>();
    expectTypeOf<InferloopChatLanguageModel>().toExtend<P4.LanguageModelV3>();
    expectTypeOf<InferloopProvider>().toExtend<P3.ProviderV3>();
    expectTypeOf<InferloopProvider>().toExtend<P4.ProviderV3>();
  });
});

// Each way round, without the leniency of method parameters: what the model gives back is the
// specification's (both copies), and a call typed by either copy is one the model takes.
describe("the own v3 types", () => {
  it("give back the specification's results", () => {
    expectTypeOf<Own.LanguageModelV3GenerateResult>().toExtend<P3.LanguageModelV3GenerateResult>();
    expectTypeOf<Own.LanguageModelV3GenerateResult>().toExtend<P4.LanguageModelV3GenerateResult>();
    expectTypeOf<Own.V3StreamPart>().toExtend<P3.LanguageModelV3StreamPart>();
    expectTypeOf<Own.V3StreamPart>().toExtend<P4.LanguageModelV3StreamPart>();
    expectTypeOf<Own.LanguageModelV3StreamResult>().toExtend<P3.LanguageModelV3StreamResult>();
    expectTypeOf<Own.LanguageModelV3StreamResult>().toExtend<P4.LanguageModelV3StreamResult>();
  });

  it("and every part of them: nothing the specification has is missing", () => {
    expectTypeOf<P3.LanguageModelV3Content>().toExtend<Own.V3Content>();
    expectTypeOf<P3.LanguageModelV3StreamPart>().toExtend<Own.V3StreamPart>();
    expectTypeOf<P3.LanguageModelV3GenerateResult>().toExtend<Own.LanguageModelV3GenerateResult>();
  });

  it("take the specification's calls", () => {
    expectTypeOf<P3.LanguageModelV3CallOptions>().toExtend<Own.LanguageModelV3CallOptions>();
    expectTypeOf<P4.LanguageModelV3CallOptions>().toExtend<Own.LanguageModelV3CallOptions>();
  });

  it("refuse what the specification refuses in a call", () => {
    const prompt: Own.V3Prompt = [
      // @ts-expect-error a system message's content is a string
      { role: "system", content: [{ type: "text", text: "S" }] },
      // @ts-expect-error a user message has no tool calls
      { role: "user", content: [{ type: "tool-call", toolCallId: "c", toolName: "f", input: {} }] },
    ];
    expectTypeOf(prompt).toEqualTypeOf<Own.V3Prompt>();
  });
});
