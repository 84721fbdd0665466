/**
 * RULER (ART's relative LLM-judged reward): one judge call ranks a group's trajectories
 * against each other, so no reward function needs writing. GRPO only uses differences within
 * a group, which a judge comparing the attempts side by side gives more reliably than one
 * scoring each alone.
 *
 * @module
 */
import { APIError, InferloopError } from "../../core/errors/errors.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { ChatCreate } from "../../wire/chat/chat-create.js";
import type { ChatCompletionMessageParam } from "../../wire/chat/message-schemas.js";
import type { ChatCompletion } from "../../wire/chat/types.js";
import type { TrajectoryParams } from "../../wire/training-jobs/request-schema.js";
import { isTrajectoryChoice, type TrajectoryItem } from "../../wire/training-jobs/trajectory-item.js";
import type { RolloutException } from "../trajectories/gather.js";
import { assistantMessage, Trajectory } from "../trajectories/trajectory.js";

/**
 * The rubric the judge grades by when none is given: general enough for most tasks, since the
 * judge reads the task itself from the trajectories' shared context.
 */
const DEFAULT_RUBRIC = [
  "- An attempt that reaches the goal must score clearly higher than one that does not.",
  "- Of two attempts that reach the goal, the more direct one (fewer wasted steps or detours) scores higher.",
  "- Score differences should follow quality differences: slightly better, slightly higher; much better, much higher.",
  "- An attempt that makes real progress without finishing may get partial credit.",
].join("\n");

/**
 * A client the judge can be called through (any `Inferloop` client).
 */
export interface JudgeClient {
  chat: { completions: ChatCreate };
}

/**
 * Options of {@link ruler}.
 */
export interface RulerOptions {
  /** The client that reaches the judge model. */
  client: JudgeClient;
  /** The judge model (any model the client serves; W&B Inference serves open judges). */
  model: string;
  /** Grading standards (Markdown list); default: a general rubric (reaching the goal, directness, partial credit). */
  rubric?: string;
  /** Fields merged into the judge's request body (`temperature`, vLLM options...). */
  extraBody?: Record<string, unknown>;
  /** Aborts the judge call. */
  signal?: AbortSignal;
}

/**
 * Options of {@link rulerScoreGroup}: those of {@link ruler}, and what to do when judging fails.
 */
export interface RulerScoreGroupOptions extends RulerOptions {
  /** Resolve to null instead of rejecting when the judge fails (`JudgeError`, an `APIError`). */
  swallowErrors?: boolean;
}

/**
 * The judge's verdict on one trajectory: `trajectory_id` is its 1-based place in the input.
 */
export interface RulerScore {
  trajectory_id: string;
  explanation: string;
  score: number;
}

/**
 * What RULER judges: a {@link Trajectory}, or a plain `{ messages_and_choices }` (with `tools`).
 */
export type JudgedTrajectory =
  | Trajectory
  | (Pick<TrajectoryParams, "tools"> & { messages_and_choices: readonly TrajectoryItem[] });

/**
 * The judge's reply could not be used even when asked a second time: not JSON, the wrong
 * number of scores, unknown or repeated ids, or scores outside [0, 1]. `reply` holds what the
 * judge said last.
 */
export class JudgeError extends InferloopError {
  override name = "JudgeError";
  /** The judge's last reply, as it wrote it (null when it had no content). */
  readonly reply: string | null;
  /** What was wrong with it. */
  readonly problem: string;
  constructor(problem: string, reply: string | null) {
    super(`RULER judge: ${problem} (after asking twice)`);
    this.problem = problem;
    this.reply = reply;
  }
}

const SCORES_FORMAT = {
  type: "json_schema" as const,
  json_schema: {
    name: "ruler_scores",
    strict: true,
    schema: {
      type: "object",
      properties: {
        scores: {
          type: "array",
          items: {
            type: "object",
            properties: {
              trajectory_id: { type: "string", description: "The id of the trajectory scored." },
              explanation: { type: "string", description: "A short account of how the trajectory did." },
              score: { type: "number", description: "Between 0 and 1." },
            },
            required: ["trajectory_id", "explanation", "score"],
            additionalProperties: false,
          },
        },
      },
      required: ["scores"],
      additionalProperties: false,
    },
  },
};

/** The conversation as the judge reads it: messages only, never logprobs or token ids. */
function conversationOf(t: JudgedTrajectory): ChatCompletionMessageParam[] {
  return t.messages_and_choices.map((item) =>
    isTrajectoryChoice(item) ? assistantMessage(item) : (item as ChatCompletionMessageParam),
  );
}

interface JudgeRequest {
  messages: ChatCompletionMessageParam[];
  /** For each input trajectory, the index of the block it was judged as. */
  blockOf: number[];
  blocks: number;
}

function judgeRequest(trajectories: readonly JudgedTrajectory[], rubric: string): JudgeRequest {
  const conversations = trajectories.map(conversationOf);
  const texts = conversations.map((c) => c.map((m) => JSON.stringify(m)));
  // The messages every trajectory starts with are the task: shown once, as the context.
  let shared = 0;
  const first = texts[0] ?? [];
  while (shared < first.length && texts.every((t) => t.length > shared && t[shared] === first[shared])) shared++;
  // Identical trajectories are judged once: one block per distinct remainder.
  const keys = new Map<string, number>();
  const blockOf = texts.map((t) => {
    const key = t.slice(shared).join("\n");
    let block = keys.get(key);
    if (block === undefined) keys.set(key, (block = keys.size));
    return block;
  });
  const single = keys.size === 1;
  // One block alone is shown whole: a context beside an empty trajectory tells the judge nothing.
  const start = single ? 0 : shared;
  const representative = [...keys.values()].map((b) => blockOf.indexOf(b));
  let user = "";
  if (start > 0) user += `<context>\n${JSON.stringify(conversations[0]!.slice(0, start))}\n</context>\n\n`;
  const tools = trajectories.find((t) => t.tools != null && t.tools.length > 0)?.tools;
  if (tools) user += `<available_tools>\n${JSON.stringify(tools)}\n</available_tools>\n\n`;
  user += `Trajectories:\n\n${representative
    .map((i, b) => `<trajectory id="${b + 1}">\n${JSON.stringify(conversations[i]!.slice(start))}\n</trajectory>`)
    .join("\n\n")}`;
  const system = `Each trajectory below is an attempt at the same goal. Work out that goal from what the trajectories share, then give every trajectory a score between 0 and 1, comparing them with each other. Reply with one score per trajectory id.\n\nGrading standards:\n${rubric}`;
  return {
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
    blockOf,
    blocks: keys.size,
  };
}

/** The scores of a reply, in block order, or what is wrong with it. */
function readScores(content: string | null | undefined, blocks: number): RulerScore[] | string {
  if (content == null || content.trim() === "") return "the reply has no content";
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return "the reply is not JSON";
  }
  const scores = (value as { scores?: unknown } | null)?.scores;
  if (!Array.isArray(scores)) return 'the reply has no "scores" list';
  if (scores.length !== blocks) return `expected ${blocks} score(s), one per trajectory, got ${scores.length}`;
  const out = new Array<RulerScore | undefined>(blocks);
  for (const s of scores as Array<Record<string, unknown> | null>) {
    const id = s?.trajectory_id;
    const n = typeof id === "string" || typeof id === "number" ? Number(id) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > blocks) return `unknown trajectory_id ${JSON.stringify(id)}`;
    if (out[n - 1] !== undefined) return `trajectory_id "${n}" is scored twice`;
    const score = s?.score;
    if (typeof score !== "number" || !Number.isFinite(score) || score < 0 || score > 1)
      return `the score of trajectory ${n} is ${JSON.stringify(score)}, not a number in [0, 1]`;
    const explanation = typeof s?.explanation === "string" ? s.explanation : "";
    out[n - 1] = { trajectory_id: String(n), explanation, score };
  }
  return out as RulerScore[];
}

interface Verdict {
  scores: RulerScore[];
  promptTokens: number;
  completionTokens: number;
}

async function judge(trajectories: readonly JudgedTrajectory[], options: RulerOptions): Promise<Verdict> {
  const { client, model, rubric = DEFAULT_RUBRIC, extraBody, signal } = options;
  if (trajectories.length === 0) return { scores: [], promptTokens: 0, completionTokens: 0 };
  const request = judgeRequest(trajectories, rubric);
  const requestOptions: RequestOptions = {};
  if (signal !== undefined) requestOptions.signal = signal;
  if (extraBody !== undefined) requestOptions.extraBody = extraBody;
  const messages = request.messages;
  let promptTokens = 0;
  let completionTokens = 0;
  let problem = "";
  let reply: string | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    const completion: ChatCompletion = await client.chat.completions.create(
      { model, messages, response_format: SCORES_FORMAT },
      requestOptions,
    );
    promptTokens += completion.usage?.prompt_tokens ?? 0;
    completionTokens += completion.usage?.completion_tokens ?? 0;
    reply = completion.choices[0]?.message.content ?? null;
    const read = readScores(reply, request.blocks);
    if (typeof read !== "string") {
      const scores = request.blockOf.map((b, i) => ({ ...read[b]!, trajectory_id: String(i + 1) }));
      return { scores, promptTokens, completionTokens };
    }
    problem = read;
    // Asked once more, with its reply and what was wrong with it.
    messages.push(
      { role: "assistant", content: reply ?? "" },
      {
        role: "user",
        content: `That reply cannot be used: ${problem}. Reply again with exactly ${request.blocks} score(s), one for each trajectory id from 1 to ${request.blocks}, each between 0 and 1.`,
      },
    );
  }
  throw new JudgeError(problem, reply);
}

/**
 * Scores trajectories against each other with an LLM judge (ART's RULER): one chat call on
 * `model` through `client`, whose reply gives each trajectory a score in [0, 1] and an
 * explanation. The judge sees a system message with the rubric, then the messages every
 * trajectory starts with (`<context>`), the tools offered (`<available_tools>`) and each
 * trajectory's rest (`<trajectory id="N">`); never logprobs or token ids. Identical
 * trajectories are judged once. A reply with the wrong count, unknown ids or scores outside
 * [0, 1] is asked once more, then rejects with {@link JudgeError}.
 *
 * @example
 * ```ts
 * const scores = await ruler(groups[0]!.trajectories, { client, model: "Qwen/Qwen3-235B-A22B-Instruct-2507" });
 * scores.forEach((s, i) => console.log(i, s.score, s.explanation));
 * ```
 */
export async function ruler(trajectories: readonly JudgedTrajectory[], options: RulerOptions): Promise<RulerScore[]> {
  return (await judge(trajectories, options)).scores;
}

/**
 * A group scored by {@link ruler}, as a NEW group (the input is untouched): each trajectory's
 * `reward` is its score, `metrics.ruler_score` the same, `metrics.independent_reward` the reward
 * it had (when it had one), its logs gain `RULER explanation: ...`, and the judge's usage is
 * shared equally as `metrics.judge_prompt_tokens` / `judge_completion_tokens`. Fits
 * `gatherTrajectoryGroups`'s `afterEach`. With `swallowErrors`, a failed judge gives null.
 *
 * @example
 * ```ts
 * const rollout = () => captureTrajectory(() => client.chat.completions.create({ model, messages }));
 * const scored = await gatherTrajectoryGroups([[rollout, rollout, rollout]], {
 *   afterEach: (group) => rulerScoreGroup(group, { client, model: "Qwen/Qwen3-235B-A22B-Instruct-2507", swallowErrors: true }),
 * });
 * ```
 */
export async function rulerScoreGroup(
  group: { trajectories: readonly JudgedTrajectory[]; exceptions?: RolloutException[] },
  options: RulerScoreGroupOptions,
): Promise<{ trajectories: Trajectory[]; exceptions: RolloutException[] } | null> {
  let verdict: Verdict;
  try {
    verdict = await judge(group.trajectories, options);
  } catch (err) {
    if (options.swallowErrors && (err instanceof JudgeError || err instanceof APIError)) return null;
    throw err;
  }
  const n = group.trajectories.length;
  const trajectories = group.trajectories.map((t, i) => {
    const source = t as Partial<Trajectory> & JudgedTrajectory;
    const copy = new Trajectory({
      messages_and_choices: [...t.messages_and_choices],
      additional_histories: source.additional_histories ? [...source.additional_histories] : [],
      tools: t.tools ? [...t.tools] : null,
      initial_policy_version: source.initial_policy_version ?? null,
      final_policy_version: source.final_policy_version ?? null,
      metrics: { ...source.metrics },
      metadata: { ...source.metadata },
      logs: [...(source.logs ?? [])],
      ...(source.start_time !== undefined ? { start_time: source.start_time } : {}),
    });
    const score = verdict.scores[i]!;
    if (typeof source.reward === "number") copy.metrics.independent_reward = source.reward;
    copy.metrics.ruler_score = score.score;
    copy.metrics.judge_prompt_tokens = verdict.promptTokens / n;
    copy.metrics.judge_completion_tokens = verdict.completionTokens / n;
    copy.reward = score.score;
    copy.logs.push(`RULER explanation: ${score.explanation}`);
    return copy;
  });
  return { trajectories, exceptions: [...(group.exceptions ?? [])] };
}
