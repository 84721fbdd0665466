import type {
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
  SharedV4Warning,
} from "@ai-sdk/provider";
import type {
  V3Content as LanguageModelV3Content,
  V3FinishReason as LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  V3StreamPart as LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  V3Usage as LanguageModelV3Usage,
  V3Warning as SharedV3Warning,
} from "./spec-v3.js";

// What the provider gives the AI SDK is typed as both specifications at once. Intersecting two
// unions keeps the members they share (a text part, a tool call, a finish part...), so whatever
// the core produces is a valid v3 result and a valid v4 result: a v4-only part (`custom`,
// `reasoning-file`, `ping`, the `interrupted` finish reason) does not compile there, which is
// what keeps `inferloop/ai-sdk/v3` correct without a conversion of the results.

/** A warning of either specification. */
export type Warning = SharedV3Warning & SharedV4Warning;
/** A finish reason of either specification. */
export type FinishReason = LanguageModelV3FinishReason & LanguageModelV4FinishReason;
/** Token counts, the same in both specifications. */
export type Usage = LanguageModelV3Usage & LanguageModelV4Usage;
/** A content part of a generated reply, of either specification. */
export type Content = LanguageModelV3Content & LanguageModelV4Content;
/** A stream part of either specification. */
export type StreamPart = LanguageModelV3StreamPart & LanguageModelV4StreamPart;
/** `doGenerate`'s result, in either specification. */
export type GenerateResult = LanguageModelV3GenerateResult & LanguageModelV4GenerateResult;
/** `doStream`'s result, in either specification. */
export type StreamResult = LanguageModelV3StreamResult & LanguageModelV4StreamResult;
