import type { ChatCompletion } from "./types.js";

/**
 * Where a response format made by `zodResponseFormat` keeps its own reply parser. Going
 * through the format keeps `chat.completions.parse` free of any import of the JSON Schema and
 * parsing code, so an app that never uses structured output does not carry it in its bundle.
 */
export const PARSE_COMPLETION: unique symbol = Symbol.for("inferloop.responseFormat.parseCompletion");

/** The parser a response format carries under {@link PARSE_COMPLETION}. */
export type CompletionParser<R> = (completion: ChatCompletion) => R;
