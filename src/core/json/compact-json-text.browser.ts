// Browser and edge build of `compact-json-text.ts`: the fetch transport joins the body into one
// string anyway, so each text is JSON.stringify's as it is, and a chat-only bundle carries none
// of the Node writer's code.
import type { CompactJSONWriter as NodeWriter } from "./compact-json-text.js";

/**
 * Writes a large body's parts as JSON text: `JSON.stringify`'s, as it is.
 */
export class CompactJSONWriter implements Pick<NodeWriter, "write"> {
  /**
   * The JSON text of `value`, a plain JSON value.
   */
  write(value: unknown): string {
    return JSON.stringify(value);
  }
}
