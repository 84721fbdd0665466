import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ChatCompletionChunk } from "../../../src/wire/chat/types.js";

/** One data event of a fixture transcript: a chunk, an in-stream error, or the end marker. */
export type FixtureEvent =
  | { kind: "chunk"; chunk: ChatCompletionChunk }
  | { kind: "error"; error: Record<string, unknown> }
  | { kind: "done" };

/**
 * Reads a transcript of tests/fixtures/chat. The fixtures only use single-line `data:`
 * events, so a minimal reader is enough here; the real SSE decoder is tested elsewhere.
 */
export function readTranscript(name: string): FixtureEvent[] {
  const url = new URL(`../../fixtures/chat/${name}`, import.meta.url);
  const text = readFileSync(fileURLToPath(url), "utf8");
  const events: FixtureEvent[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const data = line.slice("data: ".length);
    if (data === "[DONE]") {
      events.push({ kind: "done" });
      continue;
    }
    const value = JSON.parse(data) as Record<string, unknown>;
    if ("error" in value) events.push({ kind: "error", error: value.error as Record<string, unknown> });
    else events.push({ kind: "chunk", chunk: value as unknown as ChatCompletionChunk });
  }
  return events;
}

/** The chunks of a transcript, up to the first error or the end marker. */
export function transcriptChunks(name: string): ChatCompletionChunk[] {
  const chunks: ChatCompletionChunk[] = [];
  for (const e of readTranscript(name)) {
    if (e.kind !== "chunk") break;
    chunks.push(e.chunk);
  }
  return chunks;
}
