// The Ctrl-C wiring of a training loop: the first signal stops it gracefully (its rollouts
// aborted, its state saved, the job in flight left to end on the server), a second one exits at
// once. ART's PipelineTrainer stops the same way on SIGINT and SIGTERM
// (OpenPipe/ART src/art/pipeline_trainer/trainer.py, `handle_signals`).

/** What {@link abortOnSignals} returns. */
export interface SignalAbort {
  /** Aborted by the first signal: pass it as the loop's `signal`. */
  readonly signal: AbortSignal;
  /** Removes the handlers (Ctrl-C exits again as it did). */
  dispose(): void;
}

/** Options of {@link abortOnSignals}. */
export interface AbortOnSignalsOptions {
  /** The signals to handle. Default `["SIGINT", "SIGTERM"]`. */
  signals?: readonly string[];
  /**
   * Called on the first signal, instead of the default line on stderr that says the loop is
   * stopping and that a second signal exits at once.
   */
  onSignal?: (signal: string) => void;
}

interface SignalProcess {
  on(event: string, listener: (signal: string) => void): unknown;
  off(event: string, listener: (signal: string) => void): unknown;
  exit(code?: number): never;
  stderr?: { write(text: string): unknown };
}

// Exit codes of a process killed by a signal: 128 + its number.
const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGQUIT: 131 };

/**
 * A signal to stop `model.trainLoop` with Ctrl-C: the first SIGINT (or SIGTERM) aborts it, so
 * the loop stops sampling, saves its state and rejects with an `APIUserAbortError` that says
 * which job goes on on the server and how to resume; a second one exits at once. Call
 * `dispose()` when the loop is over, so that Ctrl-C exits as usual again. Where there are no
 * process signals (browsers), the signal never aborts.
 *
 * @example
 * ```ts
 * import type { TrainableModel, TrainLoopOptions } from "inferloop";
 * import { abortOnSignals } from "inferloop/progress";
 *
 * declare const model: TrainableModel;
 * declare const options: TrainLoopOptions;
 * const stop = abortOnSignals();
 * try {
 *   for await (const s of model.trainLoop({ ...options, signal: stop.signal })) console.log(`step ${s.step}`);
 * } finally {
 *   stop.dispose();
 * }
 * ```
 */
export function abortOnSignals(options: AbortOnSignalsOptions = {}): SignalAbort {
  const controller = new AbortController();
  const proc = (globalThis as { process?: Partial<SignalProcess> }).process;
  if (typeof proc?.on !== "function" || typeof proc.off !== "function" || typeof proc.exit !== "function")
    return { signal: controller.signal, dispose: () => {} };
  const p = proc as SignalProcess;
  const signals = options.signals ?? ["SIGINT", "SIGTERM"];
  const onSignal = (signal: string) => {
    if (controller.signal.aborted) p.exit(EXIT_CODES[signal] ?? 1);
    if (options.onSignal !== undefined) options.onSignal(signal);
    else
      p.stderr?.write(
        `\n${signal}: stopping the training loop (a job in flight goes on on the server; its state is saved). ` +
          `Press Ctrl-C again to exit at once.\n`,
      );
    controller.abort(new Error(`Interrupted by ${signal}`));
  };
  for (const s of signals) p.on(s, onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const s of signals) p.off(s, onSignal);
    },
  };
}
