// The one part of capture the chat path reads, with no runtime import: `captureTrajectory` puts
// the function that records a chat call into the state it stores, so a client bundles the
// chat hook (its stream watcher) and the scope only when its app imports `captureTrajectory`.
import type { WithResponse } from "../../core/api-promise.js";
import type { ChatCompletionStream } from "../../resources/chat/stream.js";
import type { ChatCompletion } from "../../resources/chat/types.js";
import type { AsyncScope } from "./async-scope.js";
import type { CapturedRequest, TrajectoryRecorder } from "./trajectory-recorder.js";

/** @internal What a chat call returns, as a capture sees it. */
export type ChatResult = WithResponse<ChatCompletion | ChatCompletionStream>;

/** @internal What the async context holds inside a capture. */
export interface CaptureState {
  readonly recorder: TrajectoryRecorder;
  /** Inside an inferloop chat call that records itself: a `capturingFetch` under it stays out. */
  readonly inClient: boolean;
  /** Sends an inferloop chat call as this capture's own and records it. */
  readonly chat: <B extends CapturedRequest>(
    state: CaptureState,
    body: B,
    send: (body: B) => Promise<ChatResult>,
  ) => Promise<ChatResult>;
}

// Captures running now, in any async context. While it is 0 (nearly always outside training)
// the chat path's check ends at this one read; the store is looked up only above it.
let running = 0;
let scope: AsyncScope<CaptureState> | undefined;

/** @internal The capture the current async context runs in, if any. */
export function activeCapture(): CaptureState | undefined {
  if (running === 0) return undefined;
  return scope?.getStore();
}

/** @internal Runs `fn` inside the capture `state` of `store` (counted as running meanwhile). */
export async function runCapture<R>(
  store: AsyncScope<CaptureState>,
  state: CaptureState,
  fn: () => R,
): Promise<Awaited<R>> {
  scope = store;
  running++;
  try {
    return await store.run(state, fn);
  } finally {
    running--;
  }
}

/** @internal Runs `fn` as the capture's own chat call (so no fetch under it records again). */
export function runInClient<R>(state: CaptureState, fn: () => R): R {
  return scope ? scope.run({ ...state, inClient: true }, fn) : fn();
}
