/**
 * What the fake's SFT jobs teach a checkpoint: each trained assistant turn of a row (every one,
 * or only the last with `config.assistant_turns: "last"`, as ART's SFT tokenizer masks them)
 * is remembered under the conversation before it. A chat on a checkpoint trained that way (or a
 * later one) whose messages are exactly such a conversation is answered with the trained reply,
 * every time: a fine-tuned model reproduces what it was taught on its training prompts, which is
 * what a test or a demo of SFT needs to see. Only text replies are taught (a turn that calls a
 * tool is learned by the RL policy in `policy.ts`, not here).
 *
 * @module
 */
import { isRecord } from "../util.js";
import { textOf } from "./policy.js";
import type { SftDatasetRow } from "./sft-dataset.js";

const callsOf = (message: Record<string, unknown>): unknown[] =>
  (Array.isArray(message["tool_calls"]) ? message["tool_calls"] : []).map((c) => {
    const fn = isRecord(c) && isRecord(c["function"]) ? c["function"] : {};
    return [fn["name"], fn["arguments"]];
  });

/**
 * The key of a conversation: each message's role, text and tool calls (names and arguments),
 * without ids that differ from run to run (`tool_call_id`, a call's `id`).
 *
 * @example
 * ```ts
 * conversationKey([{ role: "user", content: "What is 7 * 6?" }]); // '[["user","What is 7 * 6?",[]]]'
 * ```
 */
export function conversationKey(messages: readonly unknown[]): string {
  return JSON.stringify(
    messages.map((m) => (isRecord(m) ? [m["role"], textOf(m["content"]), callsOf(m)] : [null, "", []])),
  );
}

/**
 * The lessons of an SFT job's rows: for each trained assistant turn with text and no tool call,
 * the key of the conversation before it and the reply.
 *
 * @example
 * ```ts
 * sftLessons([{ messages: [{ role: "user", content: "2+2?" }, { role: "assistant", content: "4" }], tools: null }], "all");
 * // [{ key: '[["user","2+2?",[]]]', reply: "4" }]
 * ```
 */
export function sftLessons(
  rows: readonly SftDatasetRow[],
  assistantTurns: unknown,
): Array<{ key: string; reply: string }> {
  const out: Array<{ key: string; reply: string }> = [];
  for (const { messages } of rows) {
    const turns = messages.flatMap((m, i) => (m.role === "assistant" ? [i] : []));
    for (const i of assistantTurns === "last" ? turns.slice(-1) : turns) {
      const reply = messages[i]!;
      if (callsOf(reply).length > 0 || textOf(reply["content"]) === "") continue;
      out.push({ key: conversationKey(messages.slice(0, i)), reply: textOf(reply["content"]) });
    }
  }
  return out;
}
