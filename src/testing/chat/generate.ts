/**
 * Deterministic "generation": the same request always produces the same tokens.
 *
 * - Content: words from a fixed vocabulary picked by a hash of the last user message, the
 *   model, the choice index and `seed` (6–20 words, ending with a period). When the last user
 *   message starts with `echo ` (case-insensitive), the reply is exactly the rest of it, which
 *   makes `stop` and `max_completion_tokens` tests easy to write.
 * - Tokens: one per word-piece (`tokens.ts`).
 * - Reasoning: when `reasoning_effort` is set or the model id contains "reason" (and
 *   `include_reasoning` is not false), a short reasoning text comes before the content.
 * - Tool call: with non-empty `tools`, a named `tool_choice` calls that tool; `"required"` calls
 *   the tool whose function name the last user message contains (case-insensitive, first in list
 *   order), else the first tool; `"auto"` or no `tool_choice` does the same when the request ends
 *   with a user message (after a tool result the reply is text: "The tool answered: <result>");
 *   `"none"` or null never calls. The arguments satisfy the tool's JSON Schema and prefer what
 *   the user message mentions (`tool-arguments.ts`): without a `seed` (or at `temperature` 0)
 *   always the most likely ones, with a `seed` sampled, so rollouts of one prompt call
 *   differently. A trained name's policy may hand over learned arguments instead
 *   (`training/serving.ts`).
 *   finish_reason is then "tool_calls".
 * - Judge: a RULER-shaped request (a `json_schema` format asking for `scores` about
 *   `<trajectory id="N">` blocks) is answered with a valid verdict by a fixed rule (`judge.ts`).
 * - Response format: under any other `json_schema` format the content is JSON valid against
 *   its schema, under `json_object` a JSON object (`response-format.ts`); an `echo ` message is
 *   still echoed (a test's way to script a reply the format would refuse).
 * - Limits: reasoning, content and tool tokens all count against `max_completion_tokens` /
 *   `max_tokens` (finish_reason "length"); a `stop` string ends content with finish_reason
 *   "stop" and `stop_reason` = the string (excluded unless `include_stop_str_in_output`); a
 *   content token listed in `stop_token_ids` ends it with `stop_reason` = that id.
 */

import { hash32, seededRandom } from "../util.js";
import type { ChatMessage, ChatParams } from "./checks.js";
import { judgeReply } from "./judge.js";
import { formattedReply } from "./response-format.js";
import { tokenId, tokenize } from "./tokens.js";
import { toolArguments } from "./tool-arguments.js";

/**
 * Where a generated token goes in the delta.
 */
export type Channel = "reasoning" | "content" | "tool_name" | "tool_args";

/**
 * One generated token.
 */
export interface GeneratedToken {
  text: string;
  id: number;
  channel: Channel;
  logprob: number;
}

/**
 * One generated choice.
 */
export interface GeneratedChoice {
  index: number;
  tokens: GeneratedToken[];
  toolCall: { id: string; name: string } | undefined;
  finishReason: "stop" | "length" | "tool_calls";
  stopReason: string | number | null;
}

const VOCAB = [
  "the",
  "model",
  "answer",
  "is",
  "ready",
  "and",
  "we",
  "can",
  "check",
  "each",
  "token",
  "as",
  "it",
  "arrives",
  "quickly",
  "streaming",
  "works",
  "well",
  "for",
  "this",
  "request",
  "today",
  "with",
  "a",
  "small",
  "reply",
  "that",
  "stays",
  "the",
  "same",
  "every",
  "time",
  "you",
  "ask",
  "again",
  "here",
  "result",
  "looks",
  "fine",
];
const REASONING_VOCAB = [
  "Let",
  "me",
  "think",
  "about",
  "the",
  "question",
  "first",
  "then",
  "answer",
  "it",
  "briefly",
  "step",
  "by",
];

/**
 * Text of a message's content (string, or the text parts of a list).
 *
 * @example
 * ```ts
 * messageText({ role: "user", content: [{ type: "text", text: "hi" }] }); // "hi"
 * ```
 */
export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

/**
 * Prompt token ids: a start marker and role per message, its content pieces, then the
 * generation prompt unless `add_generation_prompt` is false.
 */
export function promptTokenIds(params: ChatParams): number[] {
  const ids: number[] = [];
  for (const m of params.messages) {
    ids.push(151644, tokenId(m.role));
    for (const piece of tokenize(messageText(m))) ids.push(tokenId(piece));
    ids.push(151645);
  }
  if (params.add_generation_prompt !== false) ids.push(151644, tokenId("assistant"));
  return ids;
}

function lastUserText(params: ChatParams): string {
  for (let i = params.messages.length - 1; i >= 0; i--) {
    if (params.messages[i]!.role === "user") return messageText(params.messages[i]);
  }
  return messageText(params.messages.at(-1));
}

function words(vocab: readonly string[], count: number, random: () => number): string {
  const picked: string[] = [];
  for (let i = 0; i < count; i++) picked.push(vocab[Math.floor(random() * vocab.length)]!);
  const text = picked.join(" ");
  return `${text.charAt(0).toUpperCase() + text.slice(1)}.`;
}

// Which tool the reply calls, as a server with --enable-auto-tool-choice would: a named
// tool_choice calls that tool; "required" calls the tool the last user message names, else the
// first; "auto" (or tool_choice absent, which vLLM reads as "auto") does the same, but only in
// answer to a user turn, so that a tool result is answered with text and a tool loop ends.
function findTool(params: ChatParams, userText: string): { name: string; parameters: unknown } | undefined {
  const tools = params.tools;
  const choice = params.tool_choice;
  if (tools == null || tools.length === 0 || choice === "none" || choice === null) return undefined;
  const entry = (t: (typeof tools)[number] | undefined) =>
    t === undefined ? undefined : { name: t.function.name, parameters: t.function.parameters };
  if (typeof choice === "object") return entry(tools.find((t) => t?.function?.name === choice.function?.name));
  const lower = userText.toLowerCase();
  const mentioned = tools.find(
    (t) => typeof t?.function?.name === "string" && lower.includes(t.function.name.toLowerCase()),
  );
  if (choice !== "required" && params.messages.at(-1)?.role !== "user") return undefined;
  return entry(mentioned ?? tools[0]);
}

// The text of the tool result the request ends with, if it ends with one.
function lastToolResult(params: ChatParams): string | undefined {
  const last = params.messages.at(-1);
  return last?.role === "tool" ? messageText(last) : undefined;
}

function logprobFor(piece: string, index: number): number {
  return -Math.round(((hash32(`${piece}#${index}`) % 2500) / 1000) * 10000) / 10000;
}

function usesReasoning(params: ChatParams): boolean {
  if (params.include_reasoning === false) return false;
  return params.reasoning_effort != null || params.model.toLowerCase().includes("reason");
}

function applyStop(
  tokens: GeneratedToken[],
  params: ChatParams,
): { tokens: GeneratedToken[]; stopReason: string | number } | undefined {
  const stops =
    params.stop == null ? [] : typeof params.stop === "string" ? [params.stop] : params.stop.filter((s) => s !== "");
  const stopIds = params.stop_token_ids ?? [];
  let text = "";
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (token.channel !== "content") continue;
    if (stopIds.includes(token.id)) return { tokens: tokens.slice(0, k + 1), stopReason: token.id };
    text += token.text;
    let best: { at: number; stop: string } | undefined;
    for (const stop of stops) {
      const at = text.indexOf(stop);
      if (at >= 0 && (best === undefined || at < best.at)) best = { at, stop };
    }
    if (best !== undefined) {
      const keepEnd = best.at + (params.include_stop_str_in_output === true ? best.stop.length : 0);
      const kept = tokens.slice(0, k + 1).map((t) => ({ ...t }));
      // Trim content tokens so the emitted text ends exactly where the stop rule says.
      let consumed = 0;
      for (const t of kept) {
        if (t.channel !== "content") continue;
        const room = Math.max(0, keepEnd - consumed);
        consumed += t.text.length;
        if (t.text.length > room) t.text = t.text.slice(0, room);
      }
      return { tokens: kept, stopReason: best.stop };
    }
  }
  return undefined;
}

/**
 * Learned arguments for the `ordinal`-th call (from 0) of a tool since the last user message,
 * or undefined to draw them from the schema.
 */
export type LearnedArguments = (toolName: string, ordinal: number) => Record<string, unknown> | undefined;

// How many calls of `name` the assistant made since the last user message.
function callsSinceUser(params: ChatParams, name: string): number {
  let count = 0;
  for (let i = params.messages.length - 1; i >= 0; i--) {
    const m = params.messages[i] as { role?: unknown; tool_calls?: unknown };
    if (m.role === "user") break;
    if (m.role === "assistant" && Array.isArray(m.tool_calls))
      for (const call of m.tool_calls as Array<{ function?: { name?: unknown } }>)
        if (call?.function?.name === name) count++;
  }
  return count;
}

/**
 * Generates choice `index` of a request.
 *
 * @example
 * ```ts
 * const choice = generateChoice({ model: "Qwen/Qwen3-8B", messages: [{ role: "user", content: "echo hi there" }] }, 0);
 * // content "hi there", finishReason "stop"
 * ```
 */
export function generateChoice(params: ChatParams, index: number, learned?: LearnedArguments): GeneratedChoice {
  const userText = lastUserText(params);
  const key = `${params.model}\u0000${userText}\u0000${index}\u0000${params.seed ?? ""}`;
  const random = seededRandom(hash32(key));
  const tokens: GeneratedToken[] = [];
  const push = (piece: string, channel: Channel): void => {
    tokens.push({ text: piece, id: tokenId(piece), channel, logprob: logprobFor(piece, tokens.length) });
  };

  if (usesReasoning(params)) {
    for (const piece of tokenize(words(REASONING_VOCAB, 5 + Math.floor(random() * 5), random)))
      push(piece, "reasoning");
  }
  const tool = findTool(params, userText);
  let toolCall: GeneratedChoice["toolCall"];
  if (tool !== undefined) {
    const temperature = params.temperature ?? 1;
    const sampled = params.seed != null && temperature > 0;
    const args =
      learned?.(tool.name, callsSinceUser(params, tool.name)) ??
      toolArguments(tool.parameters, {
        text: userText,
        toolName: tool.name,
        random: sampled ? seededRandom(hash32(`${key}\u0000${temperature}\u0000arguments`)) : undefined,
        temperature,
      });
    toolCall = { id: `chatcmpl-tool-${hash32(`${key}tool`).toString(16)}`, name: tool.name };
    push(tool.name, "tool_name");
    for (const piece of tokenize(JSON.stringify(args))) push(piece, "tool_args");
  } else {
    const echo = /^echo\s/i.exec(userText);
    const toolResult = lastToolResult(params);
    const verdict = judgeReply(params);
    const free = () => words(VOCAB, 6 + Math.floor(random() * 15), random);
    // "echo ..." stays a test's way to script any reply, even one the format would not allow.
    const text =
      verdict ??
      (echo === null ? formattedReply(params, key, userText, free) : undefined) ??
      (toolResult !== undefined
        ? `The tool answered: ${toolResult}`
        : echo !== null
          ? userText.slice(echo[0].length)
          : free());
    for (const piece of tokenize(text)) push(piece, "content");
  }

  let finishReason: GeneratedChoice["finishReason"] = toolCall !== undefined ? "tool_calls" : "stop";
  let stopReason: string | number | null = null;
  let result = tokens;
  const stopped = applyStop(tokens, params);
  if (stopped !== undefined) {
    result = stopped.tokens;
    stopReason = stopped.stopReason;
    finishReason = "stop";
  }
  const budget = params.max_completion_tokens ?? params.max_tokens ?? Infinity;
  if (result.length > budget) {
    result = result.slice(0, budget);
    finishReason = "length";
    stopReason = null;
  }
  if (toolCall !== undefined && !result.some((t) => t.channel === "tool_name")) toolCall = undefined;
  return { index, tokens: result, toolCall, finishReason, stopReason };
}

/**
 * Logprob alternatives of a token: the token itself first, then vocabulary words with lower
 * logprobs.
 */
export function topAlternatives(token: GeneratedToken, count: number): Array<{ text: string; logprob: number }> {
  const out = [{ text: token.text, logprob: token.logprob }];
  const random = seededRandom(hash32(`${token.text}|alt`));
  let logprob = token.logprob;
  while (out.length < count) {
    logprob = Math.round((logprob - 0.5 - random() * 2) * 10000) / 10000;
    const word = VOCAB[Math.floor(random() * VOCAB.length)]!;
    out.push({ text: token.text.startsWith(" ") ? ` ${word}` : word, logprob });
  }
  return out;
}
