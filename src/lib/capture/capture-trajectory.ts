import { InferloopError, RequestValidationError } from "../../core/errors/errors.js";
import { TrajectoryRecorder } from "../trajectories/recorder.js";
import { Trajectory } from "../trajectories/trajectory.js";
import { activeCapture, type CaptureState, runCapture } from "./active-capture.js";
import { type AsyncScope, createAsyncScope } from "./async-scope.js";
import { captureChat } from "./chat-hook.js";

let scope: AsyncScope<CaptureState> | undefined | null;

function asyncScope(): AsyncScope<CaptureState> | undefined {
  if (scope === undefined) scope = createAsyncScope<CaptureState>() ?? null;
  return scope ?? undefined;
}

/**
 * Options of {@link captureTrajectory}.
 */
export interface CaptureOptions {
  /** Copied into the trajectory's `metadata`. */
  metadata?: Record<string, string | number | boolean | null>;
  /** Copied into the trajectory's `metrics`. */
  metrics?: Record<string, number | boolean>;
  /**
   * Ask every captured call for `logprobs` and `return_token_ids` unless it sets them itself:
   * a trainer needs both for each sampled token. Default false (calls are sent as written).
   */
  logprobs?: boolean;
}

/**
 * Runs `fn` and records into a new {@link Trajectory} every chat completion made inside it
 * (through an inferloop client, or any client whose `fetch` is {@link capturingFetch}), plain
 * or streamed, as each call completes: the request's messages that continue the recorded
 * conversation, then the reply as a choice with its logprobs and token ids. A call that does
 * not continue it starts an entry of `additional_histories`, as OpenPipe ART records it; each
 * further choice of an `n` > 1 call is one too. A failed or aborted call is a line in `logs`.
 * A number returned by `fn` becomes the reward. `fn` gets the trajectory, as
 * {@link currentTrajectory} does anywhere inside it.
 *
 * Captures use `AsyncLocalStorage` (Node, Bun, Deno; workerd with `nodejs_als` or
 * `nodejs_compat`): concurrent captures never mix, and calls outside every capture record
 * nothing and cost nothing extra. A browser has no async context: there this throws, and a
 * client records into a trajectory you hold through `capturingFetch(fetch, { trajectory })`.
 *
 * A streamed call is recorded when its stream has been read to the end. Calls still running
 * when `fn` settles are not recorded: the trajectory is complete when it is returned.
 *
 * @example
 * ```ts
 * const agent = async () => {
 *   const reply = await client.chat.completions.create({ model, messages: [{ role: "user", content: "2+2?" }] });
 *   return reply.choices[0]?.message.content?.includes("4") ? 1 : 0; // the reward
 * };
 * const t = await captureTrajectory(agent, { metadata: { prompt_id: 1 }, logprobs: true });
 * // as the rollouts of gatherTrajectoryGroups:
 * const gathered = await gatherTrajectoryGroups([[() => captureTrajectory(agent), () => captureTrajectory(agent)]]);
 * ```
 */
export async function captureTrajectory(
  fn: (trajectory: Trajectory) => unknown,
  options: CaptureOptions = {},
): Promise<Trajectory> {
  if (typeof fn !== "function")
    throw new RequestValidationError(
      [
        {
          path: "fn",
          message: "captureTrajectory needs the rollout as a function: captureTrajectory(async () => { ... })",
        },
      ],
      "captureTrajectory",
    );
  if (options.logprobs !== undefined && typeof options.logprobs !== "boolean")
    throw new RequestValidationError(
      [{ path: "logprobs", message: `must be true or false, got ${typeof options.logprobs}` }],
      "captureTrajectory",
    );
  const store = asyncScope();
  if (store === undefined)
    throw new InferloopError(
      "captureTrajectory needs AsyncLocalStorage, which this runtime lacks (a browser). Record into a trajectory you hold instead: " +
        "new Inferloop({ fetch: capturingFetch(fetch, { trajectory }) }).",
    );
  const trajectory = new Trajectory({ metadata: options.metadata, metrics: options.metrics });
  const recorder = new TrajectoryRecorder(trajectory, options.logprobs === true);
  try {
    const state: CaptureState = { recorder, inClient: false, chat: (body, send) => captureChat(state, body, send) };
    const result = await runCapture(store, state, () => fn(trajectory));
    if (typeof result === "number") trajectory.reward = result;
  } finally {
    recorder.closed = true;
  }
  return trajectory;
}

/**
 * The trajectory of the capture this code runs in, or `undefined` outside every capture: set
 * its `metrics`, `metadata` or `reward` from deep inside an agent.
 *
 * @example
 * ```ts
 * const t = currentTrajectory();
 * if (t) t.metrics.tool_calls = (Number(t.metrics.tool_calls) || 0) + 1;
 * ```
 */
export function currentTrajectory(): Trajectory | undefined {
  return activeCapture()?.recorder.trajectory;
}
