/**
 * `inferloop/progress`: what a training run in a terminal needs, kept out of the client (no
 * code of the SDK's own, no dependency): `terminalProgress()` for the `onEvent` of
 * `model.trainLoop` and `model.trainSFT`, `abortOnSignals()` for Ctrl-C, and `sparkline()`.
 *
 * @module
 */
export { type AbortOnSignalsOptions, abortOnSignals, type SignalAbort } from "./abort-on-signals.js";
export { sparkline } from "./sparkline.js";
export {
  type ProgressStream,
  type TerminalProgress,
  type TerminalProgressOptions,
  terminalProgress,
} from "./terminal-progress.js";
