/**
 * The pure (transport-free) parts of the chat namespace that users import: request schemas
 * and types, response and chunk types, the stream accumulator and structured-output helpers.
 * Values are listed by name (types pass through whole), so a helper added for the SDK's own
 * wiring stays internal until someone decides to publish it.
 *
 * @example
 * import { chatCompletionCreateParamsSchema, ChatCompletionAccumulator, zodResponseFormat } from "./resources/chat/index.js";
 *
 * @module
 */
export * from "./content-part-schemas.js";
export * from "./message-schemas.js";
export * from "./request-option-schemas.js";
export {
  chatCompletionCreateParamsSchema,
  chatCompletionCreateParamsNonStreamingSchema,
  chatCompletionCreateParamsStreamingSchema,
} from "./request-schema.js";
export type * from "./request-schema.js";
export type * from "./types.js";
export * from "./accumulate.js";
export { ContentParseError, parseCompletionContent, zodResponseFormat } from "./response-format.js";
export type * from "./response-format.js";
export { responseFormat } from "./standard-response-format.js";
export type * from "./standard-response-format.js";
export type { ParseableResponseFormat } from "./parse-hook.js";
