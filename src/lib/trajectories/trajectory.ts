import { RequestValidationError } from "../../core/errors/errors.js";
import type { RequestOptions } from "../../core/pipeline/options.js";
import type { ChatCreate } from "../../wire/chat/chat-create.js";
import type { ChatCompletionMessageParam } from "../../wire/chat/message-schemas.js";
import type { ChatCompletionCreateParamsNonStreaming } from "../../wire/chat/request-schema.js";
import type { ChatCompletion, ChatCompletionChoice } from "../../wire/chat/types.js";
import type { SFTRow } from "../../wire/sft-training-jobs/types.js";
import type {
  TrajectoryChoice,
  TrajectoryHistory,
  TrajectoryParams,
  TrajectoryTool,
} from "../../wire/training-jobs/request-schema.js";
import { isTrajectoryChoice, type TrajectoryItem } from "../../wire/training-jobs/trajectory-item.js";
import { assistantTurn, type ReplyMessage } from "../assistant-turn.js";
import { keptChoice } from "./compact-logprobs.js";

/**
 * What a {@link Trajectory} starts from: every field optional, `start_time` a string or a `Date`.
 */
export interface TrajectoryInit
  extends Omit<Partial<TrajectoryParams>, "messages_and_choices" | "additional_histories" | "start_time"> {
  messages_and_choices?: TrajectoryItem[];
  additional_histories?: TrajectoryHistory[];
  /** When the rollout began. Default: when the trajectory was constructed. */
  start_time?: string | Date;
}

/**
 * What {@link Trajectory.sample} sends: any non-streamed chat request, without `messages`
 * (the trajectory supplies them).
 */
export type TrajectorySampleParams = Omit<ChatCompletionCreateParamsNonStreaming, "messages">;

/**
 * Anything with `chat.completions`, such as an `Inferloop` client.
 */
export interface ChatSampler {
  chat: { completions: ChatCreate };
}

/** @internal The request message that sends a recorded reply back as the assistant's turn. */
export function assistantMessage(choice: TrajectoryChoice): ChatCompletionMessageParam {
  return assistantTurn(choice.message as ReplyMessage);
}

function isCompletion(source: ChatCompletion | ChatCompletionChoice): source is ChatCompletion {
  return Array.isArray((source as Partial<ChatCompletion>).choices);
}

function pickChoice(source: ChatCompletion | ChatCompletionChoice, index: number): ChatCompletionChoice {
  if (!isCompletion(source)) return source;
  const choice = source.choices.find((c) => c.index === index);
  if (choice === undefined) {
    const have = source.choices.map((c) => c.index).join(", ") || "none";
    throw new RequestValidationError(
      [{ path: "choices", message: `the completion has no choice with index ${index} (it has: ${have})` }],
      "trajectory record",
    );
  }
  return choice;
}

/**
 * One rollout: what was sent, what the model answered, and how good that was. Build it with the
 * prompt, {@link Trajectory.record} each reply (or let {@link Trajectory.sample} send and
 * record), set `reward`, and pass it in a trajectory group to `client.trainingJobs.create`.
 * Field names are the wire names; `toJSON()` is the body the training API receives.
 *
 * @example
 * ```ts
 * const t = new Trajectory({ messages_and_choices: [{ role: "user", content: "What is 6 * 7?" }] });
 * const completion = await t.sample(client, { model: "Qwen/Qwen3-8B" });
 * t.reward = completion.choices[0]?.message.content?.includes("42") ? 1 : 0;
 * await client.trainingJobs.create({ model_id: modelId, trajectory_groups: [{ trajectories: [t] }] });
 * ```
 */
export class Trajectory {
  messages_and_choices: TrajectoryItem[];
  tools: TrajectoryTool[] | null;
  additional_histories: TrajectoryHistory[];
  /** Undefined until scored; `trainingJobs.create` warns about a trajectory without one. */
  reward: number | undefined;
  initial_policy_version: number | null;
  final_policy_version: number | null;
  metrics: Record<string, number | boolean>;
  metadata: Record<string, string | number | boolean | null>;
  logs: string[];
  /** ISO 8601 date-time. */
  start_time: string;

  constructor(init: TrajectoryInit = {}) {
    this.messages_and_choices = init.messages_and_choices ? [...init.messages_and_choices] : [];
    this.tools = init.tools ?? null;
    this.additional_histories = init.additional_histories ? [...init.additional_histories] : [];
    this.reward = init.reward;
    this.initial_policy_version = init.initial_policy_version ?? null;
    this.final_policy_version = init.final_policy_version ?? null;
    this.metrics = { ...init.metrics };
    this.metadata = { ...init.metadata };
    this.logs = init.logs ? [...init.logs] : [];
    const start = init.start_time ?? new Date();
    this.start_time = typeof start === "string" ? start : start.toISOString();
  }

  /**
   * The conversation to send next: the messages as they are, and each recorded choice turned
   * back into an assistant message with its content, tool calls and reasoning (so a reasoning
   * model sees its own reasoning again).
   *
   * @example
   * ```ts
   * const next = await client.chat.completions.create({ model, messages: trajectory.messages(), logprobs: true });
   * ```
   */
  messages(): ChatCompletionMessageParam[] {
    return this.messages_and_choices.map((item) =>
      isTrajectoryChoice(item) ? assistantMessage(item) : (item as ChatCompletionMessageParam),
    );
  }

  /**
   * Appends a choice as received (with its `logprobs`, `token_ids`, `finish_reason` and
   * `stop_reason`): from a `ChatCompletion` (choice `index`, default 0), a single choice, or
   * the `finalCompletion()` of a stream. Throws `RequestValidationError` when the completion
   * has no such choice, or the choice never finished (`finish_reason` null): a trainer needs
   * the whole turn. Returns the trajectory, for chaining.
   *
   * @example
   * ```ts
   * const stream = await client.chat.completions.create({ model, messages: trajectory.messages(), stream: true, logprobs: true });
   * trajectory.record(await stream.finalCompletion());
   * ```
   */
  record(source: ChatCompletion | ChatCompletionChoice, index = 0): this {
    const choice = pickChoice(source, index);
    const { finish_reason } = choice;
    if (finish_reason == null) {
      throw new RequestValidationError(
        [
          {
            path: "finish_reason",
            message: `choice ${choice.index} has no finish_reason: it did not finish, so it cannot be trained on`,
          },
        ],
        "trajectory record",
      );
    }
    this.messages_and_choices.push(keptChoice(choice, finish_reason));
    return this;
  }

  /**
   * Sends {@link Trajectory.messages} with `params` through `client`, records the reply (choice
   * 0) and returns the completion. Asks for `logprobs` and `return_token_ids` unless `params`
   * says otherwise: trainers need both for every sampled token.
   *
   * @example
   * ```ts
   * const completion = await trajectory.sample(client, { model: "Qwen/Qwen3-8B", temperature: 1 }, { signal });
   * ```
   */
  async sample(client: ChatSampler, params: TrajectorySampleParams, options?: RequestOptions): Promise<ChatCompletion> {
    const completion = await client.chat.completions.create(
      {
        ...params,
        logprobs: params.logprobs ?? true,
        return_token_ids: params.return_token_ids ?? true,
        messages: this.messages(),
      },
      options,
    );
    this.record(completion);
    return completion;
  }

  /**
   * The trajectory as an SFT example, what `model.trainSFT` takes: its conversation as
   * {@link Trajectory.messages} gives it (each recorded choice as the assistant's message) and
   * its `tools` when it has them. `additional_histories` are conversations of their own and
   * are not included. For a reviewed trace, build the trajectory with `calls.trajectoryGroups`
   * or `trajectoryFromCalls`, then take its row.
   *
   * @example
   * ```ts
   * const rows = groups.flatMap((g) => g.trajectories.filter((t) => (t.reward ?? 0) >= 0.8).map((t) => t.toSFTRow()));
   * await trainable.trainSFT(rows);
   * ```
   */
  toSFTRow(): SFTRow {
    const row: SFTRow = { messages: this.messages() };
    if (this.tools !== null) row.tools = this.tools;
    return row;
  }

  /**
   * The wire shape of the trajectory, as `POST /v1/preview/training-jobs` takes it (and as
   * `JSON.stringify` writes it). Arrays are shared with the trajectory, not copied.
   *
   * @example
   * ```ts
   * const body = JSON.stringify(trajectory.toJSON()); // what the training API receives
   * ```
   */
  toJSON(): TrajectoryParams {
    const out: TrajectoryParams = { messages_and_choices: this.messages_and_choices };
    if (this.tools !== null) out.tools = this.tools;
    if (this.additional_histories.length > 0) out.additional_histories = this.additional_histories;
    if (this.reward !== undefined) out.reward = this.reward;
    if (this.initial_policy_version !== null) out.initial_policy_version = this.initial_policy_version;
    if (this.final_policy_version !== null) out.final_policy_version = this.final_policy_version;
    out.metrics = this.metrics;
    out.metadata = this.metadata;
    out.logs = this.logs;
    out.start_time = this.start_time;
    return out;
  }
}
