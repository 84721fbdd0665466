import type {
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamResult,
  Usage as TokenUsage,
  V3Content,
  V3FinishReason,
  V3StreamPart,
  V3Warning,
} from "./spec-v3.js";
import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
  V4Content,
  V4FinishReason,
  V4StreamPart,
  V4Warning,
} from "./spec-v4.js";

// What the provider gives the AI SDK is typed as both specifications at once. Intersecting two
// unions keeps the members they share (a text part, a tool call, a finish part...), so whatever
// the core produces is a valid v3 result and a valid v4 result: a v4-only part (`custom`,
// `reasoning-file`, `ping`, the `interrupted` finish reason) does not compile there, which is
// what keeps `inferloop/ai-sdk/v3` correct without a conversion of the results. Lists intersect
// by their items (an intersection of two array types is neither array to TypeScript).

/** A warning of either specification. */
export type Warning = V3Warning & V4Warning;
/** A finish reason of either specification. */
export type FinishReason = V3FinishReason & V4FinishReason;
/** Token counts, the same in both specifications. */
export type Usage = TokenUsage;
/** A content part of a generated reply, of either specification. */
export type Content = V3Content & V4Content;
/** A stream part of either specification. */
export type StreamPart = V3StreamPart & V4StreamPart;

type Lists = "content" | "warnings" | "stream";
/** `doGenerate`'s result, in either specification. */
export type GenerateResult = Omit<LanguageModelV3GenerateResult & LanguageModelV4GenerateResult, Lists> & {
  content: Content[];
  warnings: Warning[];
};
/** `doStream`'s result, in either specification. */
export type StreamResult = Omit<LanguageModelV3StreamResult & LanguageModelV4StreamResult, Lists> & {
  stream: ReadableStream<StreamPart>;
};
