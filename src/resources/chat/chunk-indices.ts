import { ResponseParseError } from "../../core/errors.js";
import type { ChatCompletionChunk } from "./types.js";

/** A choice or tool-call index must be a non-negative integer: anything else (a string such as
 * `"__proto__"`, a fraction, a negative number) would silently become one more choice. */
function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/**
 * Check the `index` of every choice and tool-call delta of a chunk, before it is accumulated.
 * Throws `ResponseParseError` naming the field (and the event, when known); the value itself
 * is never quoted.
 *
 * @example
 * ```ts
 * assertChunkIndices(chunk, 3); // throws for choices[0].index: "__proto__"
 * ```
 */
export function assertChunkIndices(chunk: ChatCompletionChunk, event?: number): void {
  const choices = chunk.choices;
  if (!Array.isArray(choices)) return;
  for (let i = 0; i < choices.length; i++) {
    const c = choices[i];
    if (c == null) continue;
    if (!isIndex(c.index)) throw badIndex(`choices[${i}].index`, event);
    const tools = c.delta?.tool_calls;
    if (!Array.isArray(tools)) continue;
    for (let t = 0; t < tools.length; t++) {
      const tc = tools[t];
      if (tc != null && !isIndex(tc.index)) throw badIndex(`choices[${i}].delta.tool_calls[${t}].index`, event);
    }
  }
}

function badIndex(field: string, event: number | undefined): ResponseParseError {
  const where = event === undefined ? "A stream chunk" : `Event ${event} of the stream`;
  return new ResponseParseError(`${where} has an invalid ${field}: it must be a non-negative integer.`, {
    ...(event === undefined ? {} : { line: event }),
  });
}
