/**
 * Traced calls back into trajectories: a trace's chat-completion calls replayed through the
 * same recorder `captureTrajectory` uses, so a rollout traced by any client (Weave's openai
 * integration, OpenTelemetry GenAI spans ingested from OTLP, inferloop's own spans) trains
 * exactly as a captured one would.
 *
 * @module
 */

import { type ListsEveryKey, optionNameIssues } from "../../core/checks/option-checks.js";
import { InferloopError, RequestValidationError, type ValidationIssue } from "../../core/errors/errors.js";
import { type Finding, warnFindings, warnOnce } from "../../core/errors/findings.js";
import type { Log } from "../../core/errors/log.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { CallQuery } from "../../wire/calls/call-query.js";
import type { CallsFilter, CallsQueryParams } from "../../wire/calls/request-schema.js";
import type { CallFeedback, CallRecord } from "../../wire/calls/types.js";
import type { ChatCompletion } from "../../wire/chat/types.js";
import { isTrajectoryChoice } from "../../wire/training-jobs/trajectory-item.js";
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
 * One whole trace, as `reward` of {@link TrajectoryGroupsOptions} gets it beside its root.
 */
export interface TracedRollout {
  /** Every call of the trace, the root included, in start order. */
  calls: CallRecord[];
  /**
   * The feedback left on any call of the trace (a review of a child chat call as much as one
   * of the root): the root's first, then each other call's in start order. Each entry's
   * `weave_ref` names the call it was left on.
   */
  feedback: CallFeedback[];
}

/**
 * A trace `calls.trajectoryGroups` could not turn into a trajectory, and left out.
 */
export interface SkippedTrace {
  trace_id: string;
  /** The root call's id (what an annotation queue's item names). */
  root_id: string;
  /**
   * `no_chat_call`: no call of the trace is a chat completion (a rollout that failed before
   * its first call, a trace of something else); `no_finished_reply`: none of its chat calls
   * has a reply that can be trained on (each was cut off before it finished).
   */
  reason: "no_chat_call" | "no_finished_reply";
  /** What was wrong, in words. */
  message: string;
}

/**
 * How traced rollouts become groups: `groupBy` names the group of a trace from its root call,
 * `reward` reads its reward from the root (its own feedback is at `root.summary.weave.feedback`)
 * and the whole trace (`trace.feedback`: the feedback on every call of it); `undefined` leaves
 * the trace out, 0 is a reward.
 */
export interface TrajectoryGroupsOptions {
  groupBy: (root: CallRecord) => string;
  reward: (root: CallRecord, trace: TracedRollout) => number | undefined;
  /** Traces read per page of roots (their calls in one query), 1 to 1000, default 100. */
  pageSize?: number;
  /**
   * Called once, at the end, with the rewarded traces that could not become trajectories (left
   * out). Without it, they are said in one warning (the findings rule).
   */
  onSkip?: (skipped: SkippedTrace[]) => void;
}

const GROUPS_OPTION_NAMES = ["groupBy", "reward", "pageSize", "onSkip"] as const;
const groupsListWhole: ListsEveryKey<TrajectoryGroupsOptions, typeof GROUPS_OPTION_NAMES> = true;
void groupsListWhole;

/** The problems of trajectoryGroups' options, found before any query. */
function groupsOptionIssues(options: TrajectoryGroupsOptions): ValidationIssue[] {
  if (typeof options !== "object" || options === null)
    return [{ path: "", message: "options must be an object { groupBy, reward, pageSize?, onSkip? }" }];
  const issues = optionNameIssues(options, GROUPS_OPTION_NAMES, "known");
  for (const key of ["groupBy", "reward", "onSkip"] as const)
    if (typeof options[key] !== "function" && (key !== "onSkip" || options[key] !== undefined))
      issues.push({ path: key, message: "must be a function" });
  const pageSize = options.pageSize ?? 100;
  // One page's trace ids go in one `filter.trace_ids`, which Weave caps at 1000 entries.
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > 1000)
    issues.push({
      path: "pageSize",
      message:
        "must be an integer from 1 to 1000 (a page's trace ids go in one filter.trace_ids, which Weave caps at 1000)",
    });
  return issues;
}

/** The feedback of every call of a trace: the root's first, then the others' in start order. */
function traceFeedback(root: CallRecord, calls: readonly CallRecord[]): CallFeedback[] {
  const of = (c: CallRecord) => c.summary?.weave?.feedback ?? [];
  return [...of(root), ...calls.filter((c) => c.id !== root.id).flatMap(of)];
}

/** The trajectory of a trace's calls, or why there is none. */
function buildOrSkip(root: CallRecord, calls: readonly CallRecord[]): Trajectory | SkippedTrace {
  const skip = (reason: SkippedTrace["reason"], message: string): SkippedTrace => ({
    trace_id: root.trace_id,
    root_id: root.id,
    reason,
    message,
  });
  if (!calls.some((c) => readChatCall(c) !== undefined))
    return skip("no_chat_call", "no call of the trace is a chat completion");
  const trajectory = trajectoryFromCalls(calls);
  // A reply that never finished is not recorded (its log line says so): with none recorded,
  // the trajectory would train on nothing.
  const sampled = [trajectory, ...trajectory.additional_histories].some((h) =>
    h.messages_and_choices.some(isTrajectoryChoice),
  );
  return sampled ? trajectory : skip("no_finished_reply", trajectory.logs.join("; ") || "no reply was recorded");
}

/** The one line that says which traces were left out, and why. */
function skippedFinding(skipped: readonly SkippedTrace[]): Finding {
  const noChat = skipped.filter((s) => s.reason === "no_chat_call").length;
  const more = skipped.length > 5 ? ` and ${skipped.length - 5} more` : "";
  return {
    code: "skipped_traces",
    message: `${skipped.length} trace(s) left out, ${noChat} with no chat-completion call and ${skipped.length - noChat} with no finished reply: trace ${skipped
      .slice(0, 5)
      .map((s) => s.trace_id)
      .join(", ")}${more}; pass onSkip to handle them`,
  };
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
 * their feedback), one for every call of that page's traces (with theirs), the trajectories
 * built and the page let go before the next one is read.
 *
 * @internal Use `client.calls.trajectoryGroups`.
 */
export async function trajectoryGroupsFromCalls(
  query: Query,
  params: TrajectoryGroupsParams,
  options: TrajectoryGroupsOptions,
  requestOptions: RequestOptions,
  /** The client's log: where a finding goes by the findings rule. */
  log: Log,
): Promise<GatheredTrajectoryGroup[]> {
  const issues = groupsOptionIssues(options);
  if (issues.length > 0) throw new RequestValidationError(issues, "trajectory groups options");
  const groups = new Map<string, GatheredTrajectoryGroup>();
  const pageSize = options.pageSize ?? 100;
  let unrewarded = 0;
  const skipped: SkippedTrace[] = [];
  const filter: CallsFilter = { ...(params.filter ?? {}), trace_roots_only: true };
  const roots = query({ ...params, filter, include_feedback: true }, { ...requestOptions, pageSize });
  for await (const page of roots.pages()) {
    if (page.length === 0) continue;
    // Every trace's calls are read, rewarded or not: a review of a child call is a reward too.
    const byTrace = new Map<string, CallRecord[]>(page.map((root) => [root.trace_id, []]));
    const calls = query(
      { project_id: params.project_id, filter: { trace_ids: [...byTrace.keys()] }, include_feedback: true },
      { ...requestOptions, pageSize: 1000 },
    );
    for await (const call of calls) byTrace.get(call.trace_id)?.push(call);
    for (const root of page) {
      const traced = byTrace.get(root.trace_id)!.sort(byStart);
      const reward = options.reward(root, { calls: traced, feedback: traceFeedback(root, traced) });
      if (reward === undefined) {
        unrewarded++;
        continue;
      }
      const trajectory = buildOrSkip(root, traced);
      if (!(trajectory instanceof Trajectory)) {
        skipped.push(trajectory);
        continue;
      }
      trajectory.reward = reward;
      trajectory.metadata["trace_id"] = root.trace_id;
      const key = options.groupBy(root);
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = { trajectories: [], exceptions: [] }));
      group.trajectories.push(trajectory);
    }
  }
  if (skipped.length > 0) {
    if (options.onSkip !== undefined) options.onSkip(skipped);
    else warnFindings(log, "calls.trajectoryGroups", [skippedFinding(skipped)]);
  }
  if (unrewarded > 0)
    warnOnce(
      "INFERLOOP_UNREWARDED_TRACES",
      `calls.trajectoryGroups: ${unrewarded} trace(s) had no reward (reward returned undefined) and were left out; return 0 to train on a trace with a zero reward.`,
    );
  return [...groups.values()];
}
