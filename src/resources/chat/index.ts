/**
 * The pure (transport-free) parts of the chat namespace: request schemas and types,
 * response and chunk types, the stream accumulator and structured-output helpers.
 *
 * @example
 * import { chatCompletionCreateParamsSchema, ChatCompletionAccumulator, zodResponseFormat } from "./resources/chat/index.js";
 *
 * @module
 */
export * from "./request-schema.js";
export * from "./types.js";
export * from "./accumulate.js";
export * from "./response-format.js";
