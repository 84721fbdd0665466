import { ResponseParseError } from "../../../core/errors/errors.js";
import type { ChatCompletionChunk } from "../types.js";

/** A choice or tool-call index must be a non-negative integer: anything else (a string such as
 * `"__proto__"`, a fraction, a negative number) would silently become one more choice. */
export const isIndex = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;

/**
 * Check the `index` of every choice and tool-call delta of a chunk, before it is accumulated.
 * Throws `ResponseParseError` naming the field (and the event, when known); the value itself
 * is never quoted.
 */
export function assertChunkIndices(chunk: ChatCompletionChunk, event?: number): void {
  const choices = chunk.choices;
  if (!Array.isArray(choices)) return;
  for (let i = 0; i < choices.length; i++) {
    const c = choices[i];
    let field = isIndex(c?.index) ? undefined : `choices[${i}].index`;
    const tools = c?.delta?.tool_calls;
    if (Array.isArray(tools))
      for (let t = 0; t < tools.length && !field; t++)
        if (tools[t] != null && !isIndex(tools[t]!.index)) field = `choices[${i}].delta.tool_calls[${t}].index`;
    if (c != null && field)
      throw new ResponseParseError(
        `${event ? `Event ${event} of the stream` : "A stream chunk"} has an invalid ${field}: it must be a non-negative integer.`,
        event ? { line: event } : undefined,
      );
  }
}
