/**
 * The pure (transport-free) parts of the chat namespace that users import: request schemas
 * and types, response and chunk types, and the stream accumulator.
 * Values are listed by name (types pass through whole), so a helper added for the SDK's own
 * wiring stays internal until someone decides to publish it.
 *
 * @module
 */

export * from "./content-part-schemas.js";
export * from "./message-schemas.js";
export * from "./request-option-schemas.js";
export type * from "./request-schema.js";
export {
  chatCompletionCreateParamsNonStreamingSchema,
  chatCompletionCreateParamsSchema,
  chatCompletionCreateParamsStreamingSchema,
} from "./request-schema.js";
export * from "./stream/accumulate.js";
export type * from "./types.js";
