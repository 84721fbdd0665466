import type { ChatCompletion, ChatCompletionChoice } from "../../wire/chat/types.js";
import type { TrajectoryHistory, TrajectoryTool } from "../../wire/training-jobs/request-schema.js";
import { isTrajectoryChoice, type TrajectoryItem } from "../../wire/training-jobs/trajectory-item.js";
import { keptChoice } from "./compact-logprobs.js";
import type { Trajectory } from "./trajectory.js";

/** The fields of a chat request a capture reads (the body as sent, from any client). */
export interface CapturedRequest {
  model?: unknown;
  messages?: unknown;
  tools?: unknown;
  logprobs?: unknown;
  return_token_ids?: unknown;
}

type Conversation = { messages_and_choices: TrajectoryItem[]; tools?: TrajectoryTool[] | null | undefined };

interface MessageLike {
  role?: unknown;
  content?: unknown;
  name?: unknown;
  tool_call_id?: unknown;
  tool_calls?: unknown;
}

interface ToolCallLike {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

// A reply comes back in the next request as the client rebuilt it: `content: null` or "", extra
// keys (`refusal`, `annotations`, reasoning) kept or dropped. Two messages are the same turn
// when what the model's template renders from them is the same.
function contentKey(content: unknown): string {
  if (content == null || content === "") return "";
  return typeof content === "string" ? content : JSON.stringify(content);
}

function toolCallsKey(calls: unknown): string {
  if (!Array.isArray(calls) || calls.length === 0) return "";
  return JSON.stringify(
    calls.map((c: ToolCallLike) => [c?.id ?? null, c?.function?.name ?? null, c?.function?.arguments ?? null]),
  );
}

function sameMessage(recorded: TrajectoryItem, sent: unknown): boolean {
  if (sent === null || typeof sent !== "object") return false;
  const b = sent as MessageLike;
  if (isTrajectoryChoice(recorded)) {
    const m = recorded.message as MessageLike;
    return (
      b.role === "assistant" &&
      contentKey(m.content) === contentKey(b.content) &&
      toolCallsKey(m.tool_calls) === toolCallsKey(b.tool_calls)
    );
  }
  const a = recorded as MessageLike;
  return (
    a.role === b.role &&
    contentKey(a.content) === contentKey(b.content) &&
    (a.name ?? null) === (b.name ?? null) &&
    (a.tool_call_id ?? null) === (b.tool_call_id ?? null) &&
    toolCallsKey(a.tool_calls) === toolCallsKey(b.tool_calls)
  );
}

function toolsKey(tools: unknown): string {
  return Array.isArray(tools) && tools.length > 0 ? JSON.stringify(tools) : "";
}

// ART's rule: a conversation continues when everything it holds is a prefix of the request and
// it was sampled with the same tools (an empty one takes any).
function continues(history: Conversation, messages: readonly unknown[], tools: string): boolean {
  const items = history.messages_and_choices;
  if (items.length === 0) return history.tools == null || toolsKey(history.tools) === tools;
  if (items.length > messages.length || toolsKey(history.tools) !== tools) return false;
  for (let i = 0; i < items.length; i++) if (!sameMessage(items[i]!, messages[i])) return false;
  return true;
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

/**
 * Records the chat calls of one rollout into its trajectory, as they complete. Shared by the
 * inferloop client hook and `capturingFetch`; knows nothing of how the call was made.
 */
export class TrajectoryRecorder {
  /** Set when the capture's function has returned: its trajectory is handed over, unchanged after. */
  closed = false;

  constructor(
    readonly trajectory: Trajectory,
    readonly logprobs: boolean,
  ) {}

  /** The request to send: with `logprobs` and `return_token_ids` when the capture asks for them and the call left them unset. */
  prepare<T extends CapturedRequest>(body: T): T {
    if (!this.logprobs || (body.logprobs != null && body.return_token_ids != null)) return body;
    return { ...body, logprobs: body.logprobs ?? true, return_token_ids: body.return_token_ids ?? true };
  }

  /**
   * A completed call: the request's messages that the recorded conversation does not hold yet,
   * then the reply (the lowest-index choice). Every further choice of an `n` > 1 call is a
   * sample of the same prompt, so it becomes an additional history of its own.
   */
  record(request: CapturedRequest, completion: ChatCompletion): void {
    if (this.closed) return;
    const messages = Array.isArray(request.messages) ? request.messages : [];
    const tools = Array.isArray(request.tools) && request.tools.length > 0 ? (request.tools as TrajectoryTool[]) : null;
    const finished: ChatCompletionChoice[] = [];
    for (const choice of completion.choices ?? []) {
      if (choice.finish_reason == null)
        this.trajectory.logs.push(
          `chat completion ${completion.id}: choice ${choice.index} did not finish; not recorded`,
        );
      else finished.push(choice);
    }
    if (finished.length === 0) return;
    finished.sort((a, b) => a.index - b.index);
    const history = this.#conversationFor(messages, toolsKey(tools));
    history.messages_and_choices.push(...(messages.slice(history.messages_and_choices.length) as TrajectoryItem[]));
    history.messages_and_choices.push(keptChoice(finished[0]!, finished[0]!.finish_reason!));
    history.tools = tools;
    for (let i = 1; i < finished.length; i++) {
      const choice = finished[i]!;
      const extra: TrajectoryHistory = {
        messages_and_choices: [...(messages as TrajectoryItem[]), keptChoice(choice, choice.finish_reason!)],
      };
      if (tools !== null) extra.tools = tools;
      this.trajectory.additional_histories.push(extra);
    }
  }

  /** A call that failed or was aborted: a line in `logs`, never a choice. */
  fail(request: CapturedRequest, err: unknown): void {
    if (this.closed) return;
    const model = typeof request.model === "string" ? request.model : "?";
    const count = Array.isArray(request.messages) ? request.messages.length : 0;
    this.trajectory.logs.push(`chat completion failed (model ${model}, ${count} messages): ${describe(err)}`);
  }

  #conversationFor(messages: readonly unknown[], tools: string): Conversation {
    const t = this.trajectory;
    if (continues(t, messages, tools)) return t;
    for (const history of t.additional_histories) if (continues(history, messages, tools)) return history;
    const fresh: TrajectoryHistory = { messages_and_choices: [] };
    t.additional_histories.push(fresh);
    return fresh;
  }
}
