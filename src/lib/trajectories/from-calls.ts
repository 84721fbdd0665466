/**
 * Traced calls back into trajectories: a trace's chat-completion calls replayed through the
 * same recorder `captureTrajectory` uses, so a rollout traced by any client (Weave's openai
 * integration, OpenTelemetry GenAI spans ingested from OTLP, inferloop's own spans) trains
 * exactly as a captured one would.
 *
 * @module
 */

import { InferloopError, RequestValidationError } from "../../core/errors/errors.js";
import { warnOnce } from "../../core/errors/findings.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { CallQuery } from "../../wire/calls/call-query.js";
import type { CallsFilter, CallsQueryParams } from "../../wire/calls/request-schema.js";
import type { CallRecord } from "../../wire/calls/types.js";
import type { ChatCompletion } from "../../wire/chat/types.js";
import type { GatheredTrajectoryGroup } from "./gather.js";
import { TrajectoryRecorder } from "./recorder.js";
import { Trajectory } from "./trajectory.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON text holding an array (OTLP attributes carry messages as JSON strings), or the array. */
function arrayOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A GenAI semantic-convention message (`{ role, parts: [{ type: "text", content }] }`) as a
 * chat message; an OpenAI-shaped one is kept as it is.
 */
function chatMessage(message: unknown): unknown {
  if (!isObject(message) || !Array.isArray(message["parts"]) || "content" in message) return message;
  const text = message["parts"]
    .filter((p): p is Record<string, unknown> => isObject(p) && p["type"] === "text")
    .map((p) => String(p["content"] ?? ""))
    .join("");
  const { parts: _parts, finish_reason: _finish, ...rest } = message;
  return { ...rest, content: text };
}

/** One chat call read back: the request's messages and tools, and the reply as a completion. */
interface ChatCall {
  messages: unknown[];
  tools: unknown;
  completion: ChatCompletion;
}

const OTEL_INPUTS = ["gen_ai.input.messages", "gen_ai.prompt"];
const OTEL_OUTPUTS = ["gen_ai.output.messages", "gen_ai.completion"];

/**
 * The chat call a call record holds, in either shape real tracing writes, or `undefined` when
 * it is no chat call (an agent step, a tool, a retrieval).
 */
export function readChatCall(call: CallRecord): ChatCall | undefined {
  const inputs = isObject(call.inputs) ? call.inputs : {};
  const output = call.output;
  // Weave's openai integration: the request's arguments as inputs, the ChatCompletion as output.
  if (Array.isArray(inputs["messages"]) && isObject(output) && Array.isArray(output["choices"])) {
    return {
      messages: inputs["messages"],
      tools: inputs["tools"],
      completion: { id: String(output["id"] ?? call.id), ...output } as unknown as ChatCompletion,
    };
  }
  // GenAI spans as the trace server ingests them: messages in JSON-text attributes.
  if (!isObject(output)) return undefined;
  const messages = OTEL_INPUTS.map((k) => arrayOf(inputs[k])).find((m) => m !== undefined);
  const replies = OTEL_OUTPUTS.map((k) => arrayOf(output[k])).find((m) => m !== undefined);
  if (messages === undefined || replies === undefined || replies.length === 0) return undefined;
  const reasons = arrayOf(call.attributes?.["finish_reasons"]);
  const choices = replies.map((reply, index) => {
    const message = chatMessage(reply);
    const reason =
      (isObject(reply) && typeof reply["finish_reason"] === "string" ? reply["finish_reason"] : undefined) ??
      (typeof reasons?.[index] === "string" ? reasons[index] : undefined) ??
      // An ended span recorded a finished reply; the convention does not always carry why.
      (call.ended_at != null && call.exception == null ? "stop" : null);
    // inferloop's spans keep a reply's logprobs and token ids beside its text (when the call
    // asked for them): they belong to the choice, as in a ChatCompletion, not to the message.
    const { logprobs, token_ids, ...said } = isObject(message) ? message : {};
    return {
      index,
      message: { role: "assistant", ...said },
      finish_reason: reason,
      ...(logprobs !== undefined ? { logprobs } : {}),
      ...(token_ids !== undefined ? { token_ids } : {}),
    };
  });
  return {
    messages: messages.map(chatMessage),
    tools: inputs["tools"],
    completion: { id: call.id, choices } as unknown as ChatCompletion,
  };
}

function byStart(a: CallRecord, b: CallRecord): number {
  const t = Date.parse(a.started_at) - Date.parse(b.started_at);
  if (t !== 0 && !Number.isNaN(t)) return t;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The trajectory of one trace: its chat-completion calls in start order, recorded as
 * `captureTrajectory` records a live run (the first call's messages, then its reply with
 * logprobs and token ids when the trace holds them; a call that continues the conversation
 * adds only its new messages and reply; one that does not starts an `additional_histories`
 * entry). Calls that are not chat calls are skipped. Throws when no call is a chat call: an
 * empty trajectory would train on nothing.
 *
 * @example
 * ```ts
 * import { trajectoryFromCalls } from "inferloop";
 *
 * const calls = await client.calls.query({ project_id: "acme/bot", filter: { trace_ids: [traceId] } }).toArray();
 * const t = trajectoryFromCalls(calls);
 * t.reward = 1;
 * ```
 */
export function trajectoryFromCalls(calls: Iterable<CallRecord>): Trajectory {
  const ordered = [...calls].sort(byStart);
  const trajectory = new Trajectory();
  const recorder = new TrajectoryRecorder(trajectory, false);
  let chats = 0;
  for (const call of ordered) {
    const chat = readChatCall(call);
    if (chat === undefined) continue;
    chats++;
    recorder.record({ messages: chat.messages, tools: chat.tools }, chat.completion);
  }
  if (chats === 0) {
    const traces = [...new Set(ordered.map((c) => c.trace_id))];
    throw new InferloopError(
      `trace ${traces.join(", ") || "(no calls)"} holds no chat-completion call (inputs.messages with output.choices, or GenAI messages): no trajectory to build`,
    );
  }
  return trajectory;
}

/**
 * How traced rollouts become groups: `groupBy` names the group of a trace from its root call,
 * `reward` reads the root's reward (its feedback is at `root.summary.weave.feedback`);
 * `undefined` leaves the trace out, 0 is a reward.
 */
export interface TrajectoryGroupsOptions {
  groupBy: (root: CallRecord) => string;
  reward: (root: CallRecord) => number | undefined;
  /** Traces read per page of roots (their calls in one query), 1 to 1000, default 100. */
  pageSize?: number;
}

/**
 * What selects the traces: the query's filter and expression pick their ROOT calls.
 */
export type TrajectoryGroupsParams = Pick<
  CallsQueryParams,
  "project_id" | "filter" | "query" | "sort_by" | "limit" | "offset"
>;

/** The two queries trajectory groups need, given by the calls namespace. */
type Query = (params: CallsQueryParams, options: { pageSize?: number } & RequestOptions) => CallQuery;

/**
 * Reads traced rollouts back as trajectory groups: one query for a page of root calls (with
 * their feedback), one for every call of that page's traces, the trajectories built and the
 * page let go before the next one is read.
 *
 * @internal Use `client.calls.trajectoryGroups`.
 */
export async function trajectoryGroupsFromCalls(
  query: Query,
  params: TrajectoryGroupsParams,
  options: TrajectoryGroupsOptions,
  requestOptions: RequestOptions = {},
): Promise<GatheredTrajectoryGroup[]> {
  const groups = new Map<string, GatheredTrajectoryGroup>();
  const pageSize = options.pageSize ?? 100;
  // One page's trace ids go in one `filter.trace_ids`, which Weave caps at 1000 entries.
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > 1000)
    throw new RequestValidationError(
      [
        {
          path: "pageSize",
          message:
            "must be an integer from 1 to 1000 (a page's trace ids go in one filter.trace_ids, which Weave caps at 1000)",
        },
      ],
      "trajectory groups options",
    );
  let unrewarded = 0;
  const filter: CallsFilter = { ...(params.filter ?? {}), trace_roots_only: true };
  const roots = query({ ...params, filter, include_feedback: true }, { ...requestOptions, pageSize });
  for await (const page of roots.pages()) {
    const rewarded: Array<{ root: CallRecord; reward: number }> = [];
    for (const root of page) {
      const reward = options.reward(root);
      if (reward === undefined) unrewarded++;
      else rewarded.push({ root, reward });
    }
    if (rewarded.length === 0) continue;
    const byTrace = new Map<string, CallRecord[]>(rewarded.map(({ root }) => [root.trace_id, []]));
    const calls = query(
      { project_id: params.project_id, filter: { trace_ids: [...byTrace.keys()] } },
      { ...requestOptions, pageSize: 1000 },
    );
    for await (const call of calls) byTrace.get(call.trace_id)?.push(call);
    for (const { root, reward } of rewarded) {
      const trajectory = trajectoryFromCalls(byTrace.get(root.trace_id)!);
      trajectory.reward = reward;
      trajectory.metadata["trace_id"] = root.trace_id;
      const key = options.groupBy(root);
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = { trajectories: [], exceptions: [] }));
      group.trajectories.push(trajectory);
    }
  }
  if (unrewarded > 0)
    warnOnce(
      "INFERLOOP_UNREWARDED_TRACES",
      `calls.trajectoryGroups: ${unrewarded} trace(s) had no reward (reward returned undefined) and were left out; return 0 to train on a trace with a zero reward.`,
    );
  return [...groups.values()];
}
