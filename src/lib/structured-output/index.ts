// Structured output: response formats made from a schema (zod, or any Standard JSON Schema
// library, or plain JSON Schema) that parse the replies of `chat.completions`, streamed or not.

export type * from "./parseable-response-format.js";
export { type DeepPartial, ParsedChatCompletionStream } from "./parsed-stream.js";
export type * from "./standard-response-format.js";
export { responseFormat } from "./standard-response-format.js";
export type * from "./zod-response-format.js";
export { ContentParseError, parseCompletionContent, zodResponseFormat } from "./zod-response-format.js";
