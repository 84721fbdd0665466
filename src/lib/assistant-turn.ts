/**
 * A model's reply written back as the assistant's turn of the next request: what the tool
 * runner appends after each reply, and what a trajectory sends for each recorded choice. Its own
 * module, so neither drags the other into a bundle.
 *
 * @module
 */
import type { ChatCompletionMessageParam } from "../wire/chat/message-schemas.js";

/** The members of a reply's message that go back (a recorded choice's message or a live one). */
export interface ReplyMessage {
  content?: string | null | undefined;
  tool_calls?: readonly unknown[] | null | undefined;
  reasoning?: string | null | undefined;
  reasoning_content?: string | null | undefined;
}

/** @internal The request message that sends `m` back as the assistant's turn: content, tool calls, reasoning. */
export function assistantTurn(m: ReplyMessage): ChatCompletionMessageParam {
  const toolCalls = m.tool_calls != null && m.tool_calls.length > 0 ? m.tool_calls : undefined;
  // The server refuses an assistant message with neither content nor a call; an empty reply
  // (say, cut at zero tokens) goes back as empty text rather than as a refused request.
  const message = { role: "assistant", content: m.content ?? (toolCalls === undefined ? "" : null) } as Extract<
    ChatCompletionMessageParam,
    { role: "assistant" }
  >;
  if (toolCalls !== undefined) message.tool_calls = toolCalls as typeof message.tool_calls;
  const reasoning = m.reasoning ?? m.reasoning_content;
  if (reasoning != null) message.reasoning = reasoning;
  return message;
}
