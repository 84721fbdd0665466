// Which capture the current async context runs in. The chat endpoint finds it through the slot
// this plugs into (wire/chat/capture-slot.ts); `capturingFetch` and `currentTrajectory` read
// it here.
import { type ChatCapture, plugChatCapture } from "../../wire/chat/capture-slot.js";
import type { TrajectoryRecorder } from "../trajectories/recorder.js";
import type { AsyncScope } from "./async-scope.js";

/** @internal What the async context holds inside a capture. */
export interface CaptureState extends ChatCapture {
  readonly recorder: TrajectoryRecorder;
  /** Inside an inferloop chat call that records itself: a `capturingFetch` under it stays out. */
  readonly inClient: boolean;
}

// Captures running now, in any async context. While it is 0 (nearly always outside training)
// the check ends at this one read; the store is looked up only above it.
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
  plugChatCapture(activeCapture);
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
