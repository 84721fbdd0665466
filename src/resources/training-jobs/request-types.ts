/**
 * Named types of the training-job request (`POST /v1/preview/training-jobs`), one doc line per
 * field.
 *
 * @module
 */

/**
 * A plain chat message inside `messages_and_choices`: context the model saw, not trained on.
 * Other members (`name`, `tool_calls`, `tool_call_id`, ...) are sent unchecked.
 *
 * @example
 * ```ts
 * const message: TrajectoryMessage = { role: "user", content: "What is 2+2?" };
 * ```
 */
export interface TrajectoryMessage {
  /** Role of the message's author (`system`, `user`, `assistant`, `tool`, ...). Not empty. */
  role: string;
  /** The message's content: a string, content parts, or null. */
  content?: string | unknown[] | null;
  /** Further message members, sent as given. */
  [key: string]: unknown;
}

/**
 * Log-probability of one sampled token.
 *
 * @example
 * ```ts
 * const entry: TokenLogprobEntry = { token: "4", logprob: -0.01, bytes: [52] };
 * ```
 */
export interface TokenLogprobEntry {
  /** The token's text. */
  token: string;
  /** Its natural-log probability. */
  logprob: number;
  /** Its UTF-8 bytes, when the token is not valid text on its own. */
  bytes?: number[] | null;
  /** Further members, sent as given. */
  [key: string]: unknown;
}

/**
 * Log-probability of one sampled token, with its most likely alternatives.
 *
 * @example
 * ```ts
 * const logprob: TokenLogprob = { token: "4", logprob: -0.01, bytes: [52], top_logprobs: [] };
 * ```
 */
export interface TokenLogprob extends TokenLogprobEntry {
  /** The most likely tokens at this position. */
  top_logprobs?: TokenLogprobEntry[];
}

/**
 * A sampled choice inside `messages_and_choices`, as a chat completion returned it: the turns
 * the model is trained on. Sample with `logprobs: true`: trainers refuse choices without them
 * unless configured otherwise.
 *
 * @example
 * ```ts
 * const choice: TrajectoryChoice = {
 *   finish_reason: "stop",
 *   index: 0,
 *   logprobs: { content: [{ token: "4", logprob: -0.01, bytes: [52], top_logprobs: [] }] },
 *   message: { role: "assistant", content: "4" },
 * };
 * ```
 */
export interface TrajectoryChoice {
  /** Why generation ended (`stop`, `length`, `tool_calls`, ...). */
  finish_reason: string;
  /** Index of the choice in its completion; 0 or more. */
  index: number;
  /** Log-probabilities of the sampled tokens. */
  logprobs?: {
    /** One entry per token of the content. */
    content?: TokenLogprob[] | null;
    /** One entry per token of a refusal. */
    refusal?: TokenLogprob[] | null;
    /** Further members, sent as given. */
    [key: string]: unknown;
  } | null;
  /** The message the model wrote. */
  message: {
    /** Always `"assistant"`. */
    role: "assistant";
    /** Its text. */
    content?: string | null;
    /** Further members (`tool_calls`, `reasoning`, ...), sent as given. */
    [key: string]: unknown;
  };
  /** Further members (`token_ids`, `stop_reason`, ...), sent as given. */
  [key: string]: unknown;
}

/**
 * A tool the model could call, in the chat-completions `tools` shape.
 *
 * @example
 * ```ts
 * const tool: TrajectoryTool = { type: "function", function: { name: "add", parameters: { type: "object" } } };
 * ```
 */
export interface TrajectoryTool {
  /** Kind of tool, `"function"`. Not empty. */
  type: string;
  /** The function offered. */
  function: {
    /** Name the model calls it by. Not empty. */
    name: string;
    /** What it does. */
    description?: string;
    /** JSON Schema of its arguments. */
    parameters?: Record<string, unknown>;
    /** Whether arguments were held to `parameters` exactly. */
    strict?: boolean | null;
    /** Further members, sent as given. */
    [key: string]: unknown;
  };
  /** Further members, sent as given. */
  [key: string]: unknown;
}

/**
 * An entry of `messages_and_choices`: a message (context) or a sampled choice (trained on).
 *
 * @example
 * ```ts
 * const entries: TrajectoryEntry[] = [{ role: "user", content: "hi" }];
 * ```
 */
export type TrajectoryEntry = TrajectoryChoice | TrajectoryMessage;

/**
 * An extra conversation of the same trajectory, tokenized separately and sharing its advantage.
 *
 * @example
 * ```ts
 * const history: TrajectoryHistory = { messages_and_choices: [{ role: "user", content: "hi" }], tools: null };
 * ```
 */
export interface TrajectoryHistory {
  /** The conversation: messages as context, choices as trainable turns. */
  messages_and_choices: TrajectoryEntry[];
  /** The tools offered during it. */
  tools?: TrajectoryTool[] | null;
}

/**
 * One rollout: the conversation (messages as context, choices as trainable turns) and its reward.
 *
 * @example
 * ```ts
 * const trajectory: TrajectoryParams = {
 *   messages_and_choices: [
 *     { role: "user", content: "What is 2+2?" },
 *     { finish_reason: "stop", index: 0, logprobs: { content: [] }, message: { role: "assistant", content: "4" } },
 *   ],
 *   reward: 1,
 * };
 * ```
 */
export interface TrajectoryParams {
  /** The conversation: messages as context, choices (with logprobs) as trainable turns. */
  messages_and_choices: TrajectoryEntry[];
  /** The tools offered during the rollout. */
  tools?: TrajectoryTool[] | null;
  /** Further conversations of the same rollout (sub-agents, retries), sharing its advantage. */
  additional_histories?: TrajectoryHistory[] | null;
  /**
   * How good the rollout was; only differences within a group matter. Default 0. `undefined`
   * is left out of the body, so a `Trajectory` not yet scored passes under
   * `exactOptionalPropertyTypes` (the checks then warn that it has no reward).
   */
  reward?: number | undefined;
  /** Version of the policy (training step) that started the rollout. */
  initial_policy_version?: number | null;
  /** Version of the policy that finished it, when it changed during the rollout. */
  final_policy_version?: number | null;
  /** Named numbers or flags about the rollout, logged next to training metrics. */
  metrics?: Record<string, number | boolean>;
  /** Named values describing the rollout (scenario id, difficulty, ...), for logs. */
  metadata?: Record<string, string | number | boolean | null>;
  /** Free-form log lines of the rollout. */
  logs?: string[];
  /** When the rollout started, ISO 8601 with a `Z` or an offset (ART itself never sends it). */
  start_time?: string;
}

/**
 * The trajectories of one prompt, compared with each other to compute advantages: a group whose
 * rewards are all equal carries no training signal.
 *
 * @example
 * ```ts
 * const group: TrajectoryGroup = { trajectories: [trajectoryA, trajectoryB] };
 * ```
 */
export interface TrajectoryGroup {
  /** The rollouts of the group. */
  trajectories: TrajectoryParams[];
  /** Rollouts that failed, recorded instead of their trajectories. */
  exceptions?: {
    /** Class of the error. */
    type: string;
    /** Its message. */
    message: string;
    /** Where it was raised. */
    traceback: string;
    /** Further members, sent as given. */
    [key: string]: unknown;
  }[];
  /** Named values describing the group, for logs. */
  metadata?: Record<string, unknown>;
  /** Named numbers about the group, logged next to training metrics. */
  metrics?: Record<string, unknown>;
  /** Free-form log lines of the group. */
  logs?: string[];
  /** Further members, sent as given. */
  [key: string]: unknown;
}

/**
 * Loss and optimizer settings of a training job. Each member absent or null means the server's
 * default; each is sent under the name written (`variant_k2_tau` is the spec's name for ART's
 * `kimi_k2_tau`).
 *
 * @example
 * ```ts
 * const config: ExperimentalConfig = { learning_rate: 5e-6, ppo: true, epsilon: 0.2 };
 * ```
 */
export interface ExperimentalConfig {
  /**
   * Tilts advantages, -1 to 1: above 0 shrinks negative advantages by `1 - b`, below 0 shrinks
   * positive ones by `1 + b`; they are then renormalized. Default 0.
   */
  advantage_balance?: number | null;
  /** Lower clip bound of the importance ratio, `1 - epsilon`. Default 0.2 with PPO, else 1. */
  epsilon?: number | null;
  /** Upper clip bound of the importance ratio, `1 + epsilon_high`. Default `epsilon` with PPO, else 4. */
  epsilon_high?: number | null;
  /** Kimi-K2-style correction `A -= tau·(logπ_new - logπ_old)`, under the spec's name. Default off. */
  variant_k2_tau?: number | null;
  /** Kimi-K2-style correction `A -= tau·(logπ_new - logπ_old)`, under ART's name. Default off. */
  kimi_k2_tau?: number | null;
  /** Learning rate of the LoRA optimizer. Default 5e-6. */
  learning_rate?: number | null;
  /** Cap on the importance ratio (named for negative advantages). Default off. */
  max_negative_advantage_importance_sampling_weight?: number | null;
  /** Zero the ratio outside the clip window. Default false. */
  mask_prob_ratio?: boolean | null;
  /** PPO's clipped objective; false uses CISPO/REINFORCE. Default false. */
  ppo?: boolean | null;
  /** Recompute the old logprobs with the trainer instead of using the sampled ones. Default false. */
  precalculate_logprobs?: boolean | null;
  /** Divide advantages by the group's reward standard deviation. Default true. */
  scale_rewards?: boolean | null;
}

/**
 * Body of a training-job creation.
 *
 * @example
 * ```ts
 * const params: TrainingJobCreateParams = { model_id, trajectory_groups: [group] };
 * ```
 */
export interface TrainingJobCreateParams {
  /** UUID of the trainable model the job updates. */
  model_id: string;
  /** The rollouts to train on, grouped by prompt. */
  trajectory_groups: TrajectoryGroup[];
  /** Loss and optimizer settings; absent or null for the server's defaults. */
  experimental_config?: ExperimentalConfig | null;
}
