/**
 * What a trained model "learns". A simulation, not a model: after a job, the model remembers
 * for each prompt (the last user message) the best-rewarded reply among the trajectories it
 * trained on that called no tool, and for each prompt and tool call (the tool's name and its
 * ordinal since the prompt) the arguments of the best-rewarded trajectory among those that beat
 * their group's mean reward. Chat on a trained name leans toward them (`serving.ts`), so
 * rewards that favoured a reply or a way of calling a tool rise step by step, which is all a
 * test or a demo of the loop needs to see.
 *
 * The job also leaves a checkpoint whose metrics are the means of its `gradient_step` members:
 * they differ from step to step, the loss falling as the model is trained.
 */
import { isRecord } from "../util.js";
import type { FakeTrainableModel, FakeTrainingEvent } from "./records.js";
import type { JobTimeline } from "./timeline.js";

/** The text of a message's content (a string or text parts). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (isRecord(p) && typeof p["text"] === "string" ? p["text"] : "")).join("");
  return "";
}

/**
 * The prompt (last user message before the first reply), the reply (the last one) and the tool
 * calls (name and parsed arguments, in order) of a trajectory.
 */
function promptAndReply(
  trajectory: Record<string, unknown>,
): { prompt: string; reply: string; calls: Array<{ name: string; arguments: unknown }> } | undefined {
  const items = Array.isArray(trajectory["messages_and_choices"]) ? trajectory["messages_and_choices"] : [];
  let prompt: string | undefined;
  let reply: string | undefined;
  const calls: Array<{ name: string; arguments: unknown }> = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const message = isRecord(item["message"]) ? item["message"] : item;
    if (message["role"] === "user" && reply === undefined) prompt = textOf(message["content"]);
    if (message["role"] !== "assistant") continue;
    reply = textOf(message["content"]);
    for (const call of Array.isArray(message["tool_calls"]) ? message["tool_calls"] : []) {
      const fn = isRecord(call) && isRecord(call["function"]) ? call["function"] : {};
      if (typeof fn["name"] !== "string") continue;
      let args: unknown;
      try {
        args = JSON.parse(typeof fn["arguments"] === "string" ? fn["arguments"] : "");
      } catch {
        args = undefined;
      }
      calls.push({ name: fn["name"], arguments: args });
    }
  }
  return prompt === undefined || reply === undefined ? undefined : { prompt, reply, calls };
}

/** The key of a remembered tool call: the prompt, the tool's name and the call's ordinal. */
export const toolKey = (prompt: string, tool: string, ordinal: number) => `${prompt}\u0000${tool}\u0000${ordinal}`;

/** The trajectory groups a job trained on: an SFT job's rows count as trajectories of reward 1. */
export function trainedGroups(t: JobTimeline): unknown[] {
  if (t.sftRows !== undefined)
    return [{ trajectories: t.sftRows.map((r) => ({ messages_and_choices: r.messages, reward: 1 })) }];
  return Array.isArray(t.job.request["trajectory_groups"]) ? t.job.request["trajectory_groups"] : [];
}

/** Teaches `model` the best-rewarded replies and tool arguments of `groups`. */
export function learn(model: FakeTrainableModel, groups: unknown[]): void {
  for (const group of groups) {
    const trajectories = (isRecord(group) && Array.isArray(group["trajectories"]) ? group["trajectories"] : []).filter(
      (t): t is Record<string, unknown> & { reward: number } => isRecord(t) && typeof t["reward"] === "number",
    );
    const mean = trajectories.reduce((sum, t) => sum + t.reward, 0) / Math.max(1, trajectories.length);
    for (const trajectory of trajectories) {
      const reward = trajectory.reward;
      const seen = promptAndReply(trajectory);
      if (seen === undefined) continue;
      if (seen.calls.length === 0) {
        const known = model.policy.get(seen.prompt);
        if (known === undefined || reward > known.reward) model.policy.set(seen.prompt, { reply: seen.reply, reward });
        continue;
      }
      // A way of calling is learned from the trajectories that did better than their group.
      if (reward <= mean) continue;
      const ordinals = new Map<string, number>();
      for (const call of seen.calls) {
        const ordinal = ordinals.get(call.name) ?? 0;
        ordinals.set(call.name, ordinal + 1);
        if (!isRecord(call.arguments)) continue;
        const key = toolKey(seen.prompt, call.name, ordinal);
        const known = model.toolPolicy.get(key);
        if (known === undefined || reward > known.reward)
          model.toolPolicy.set(key, { arguments: call.arguments, reward });
      }
    }
  }
}

/** A checkpoint's metrics: the mean of each numeric member of the job's `gradient_step` events. */
export function checkpointMetrics(planned: readonly FakeTrainingEvent[]): Record<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const e of planned)
    if (e.type === "gradient_step")
      for (const [k, v] of Object.entries(e.data))
        if (typeof v === "number" && k !== "step") {
          const s = sums.get(k) ?? { sum: 0, n: 0 };
          sums.set(k, { sum: s.sum + v, n: s.n + 1 });
        }
  const metrics: Record<string, number> = {};
  for (const [k, { sum, n }] of sums) metrics[k] = sum / n;
  return metrics;
}
