// A progress view of `model.trainLoop` and `model.trainSFT` for a terminal: one line per step in
// flight, redrawn in place (ANSI cursor moves) on a TTY; whole lines, one event each, when the
// output is a file or a pipe; and the reward (and eval) curve at the end.

import type { TrainingJobEvent, TrainLoopEvent } from "../index.js";
import { sparkline } from "./sparkline.js";

/** Where {@link terminalProgress} writes: `process.stderr`, or anything with `write`. */
export interface ProgressStream {
  write(text: string): unknown;
  /** A terminal: lines are redrawn in place. */
  isTTY?: boolean | undefined;
  /** The terminal's width: longer lines are cut, so that none wraps. */
  columns?: number | undefined;
}

/** Options of {@link terminalProgress}. */
export interface TerminalProgressOptions {
  /** Where to write. Default `process.stderr`. */
  stream?: ProgressStream;
  /** Redraw the lines of the steps in flight in place. Default: whether `stream` is a TTY. */
  tty?: boolean;
  /** Draw the reward, eval and loss curves at the end. Default true. */
  curves?: boolean;
  /** The shortest time between two redraws, in ms (default 100): progress events come often. */
  redrawEvery?: number;
}

/**
 * The `onEvent` that {@link terminalProgress} returns, with a way to print between its lines
 * and to end it early.
 */
export interface TerminalProgress {
  (event: TrainLoopEvent | TrainingJobEvent): void;
  /** Prints a line above the lines in flight (a `console.log` would be drawn over). */
  log(line: string): void;
  /** Leaves the lines in flight as they are and draws the curves (done by itself at the end). */
  end(): void;
}

interface Flight {
  step: number;
  phase: "rollouts" | "waiting" | "training" | "eval";
  sampledStep?: number;
  done: number;
  failed: number;
  total: number;
  gradients: number;
  gradientTotal?: number;
  loss?: number;
  reward?: number;
  jobId?: string;
  quarter: number;
}

const isJobEvent = (e: TrainLoopEvent | TrainingJobEvent): e is TrainingJobEvent =>
  typeof (e as { data?: unknown }).data === "object" && typeof (e as { step?: unknown }).step !== "number";

const num = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : String(Number(n.toPrecision(3))));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const bar = (part: number, whole: number, width = 16) => {
  const filled = whole > 0 ? Math.round(Math.min(1, part / whole) * width) : 0;
  return "█".repeat(filled) + "░".repeat(width - filled);
};
const shortId = (id: string) => (id.length > 8 ? `${id.slice(0, 8)}…` : id);
const numeric = (data: Record<string, unknown>, key: string) => {
  const v = data[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
};

function flightLine(f: Flight): string {
  const head = `step ${String(f.step).padStart(3)} │ `;
  switch (f.phase) {
    case "rollouts": {
      const failed = f.failed > 0 ? `, ${f.failed} failed` : "";
      const total = f.total > 0 ? `${f.done}/${f.total}` : `${f.done}`;
      return `${head}rollouts ${bar(f.done, f.total)} ${total}${failed} (sampling step ${f.sampledStep ?? "?"})`;
    }
    case "waiting":
      return `${head}rollouts done${f.reward === undefined ? "" : `, reward ${num(f.reward)}`}; waiting for the job before it`;
    case "training": {
      const of =
        f.gradientTotal === undefined ? "" : ` ${bar(f.gradients, f.gradientTotal)} ${f.gradients}/${f.gradientTotal}`;
      const loss = f.loss === undefined ? "" : `, loss ${num(f.loss)}`;
      return `${head}training${of}${loss}${f.jobId === undefined ? "" : ` (job ${shortId(f.jobId)})`}`;
    }
    case "eval":
      return `${head}evaluating`;
  }
}

/**
 * A progress view for the `onEvent` of `model.trainLoop` (and of `model.trainSFT` or
 * `model.train`): one line per step in flight (its rollouts done of total, its job's gradient
 * steps and loss, its evaluation), redrawn in place on a terminal; a line per finished step (its
 * reward, loss and time) above them; and at the end the reward curve (and each eval metric's,
 * or the loss of a single job) as a sparkline. When `stream` is not a TTY (a file, CI's log),
 * it writes whole lines only, each about one step, never redrawn.
 *
 * It redraws the lines it drew: print with its `log` rather than `console.log` on the same
 * terminal while the loop runs.
 *
 * @example
 * ```ts
 * import type { TrainableModel, TrainLoopOptions } from "inferloop";
 * import { terminalProgress } from "inferloop/progress";
 *
 * declare const model: TrainableModel;
 * declare const options: TrainLoopOptions;
 * const progress = terminalProgress();
 * for await (const s of model.trainLoop({ ...options, onEvent: progress })) {
 *   if (s.reward !== undefined && s.reward > 0.9) progress.log(`step ${s.step} is good enough`);
 * }
 * ```
 */
export function terminalProgress(options: TerminalProgressOptions = {}): TerminalProgress {
  const stream: ProgressStream = options.stream ??
    (globalThis as { process?: { stderr?: ProgressStream } }).process?.stderr ?? {
      write: (text: string) => console.log(text.replace(/\n$/, "")),
    };
  const tty = options.tty ?? stream.isTTY === true;
  const curves = options.curves ?? true;
  const redrawEvery = options.redrawEvery ?? 100;
  const flights = new Map<number, Flight>();
  const rewards = new Map<number, number>();
  const evals = new Map<string, Map<number, number>>();
  const losses: number[] = [];
  let single: Flight | undefined;
  let pending: string[] = [];
  let drawn = 0;
  let lastDraw = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;

  const cut = (line: string) => {
    const width = stream.columns;
    return tty && width !== undefined && width > 1 && line.length >= width ? `${line.slice(0, width - 2)}…` : line;
  };

  function draw(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    lastDraw = Date.now();
    if (!tty) {
      if (pending.length > 0) stream.write(`${pending.join("\n")}\n`);
      pending = [];
      return;
    }
    const lines = [...flights.values()].sort((a, b) => a.step - b.step).map(flightLine);
    if (single !== undefined) lines.push(flightLine(single).replace(/^step +\d+ │ /, ""));
    let out = drawn > 0 ? `\x1b[${drawn}A\r` : "\r";
    for (const line of [...pending, ...lines]) out += `\x1b[2K${cut(line)}\n`;
    out += "\x1b[J";
    pending = [];
    drawn = lines.length;
    stream.write(out);
  }

  /** Draws now, or soon when it drew a moment ago (a burst of progress events makes one redraw). */
  function drawSoon(): void {
    if (!tty) return;
    const wait = redrawEvery - (Date.now() - lastDraw);
    if (wait <= 0) return draw();
    if (timer === undefined) {
      timer = setTimeout(draw, wait);
      (timer as { unref?: () => void }).unref?.();
    }
  }

  const say = (line: string) => {
    pending.push(line);
  };

  function flight(step: number): Flight {
    let f = flights.get(step);
    if (f === undefined) {
      f = { step, phase: "rollouts", done: 0, failed: 0, total: 0, gradients: 0, quarter: 0 };
      flights.set(step, f);
    }
    return f;
  }

  function onJobEvent(event: TrainingJobEvent, f: Flight, label: string): boolean {
    const data = event.data ?? {};
    f.phase = "training";
    if (event.type === "training_started") {
      f.gradientTotal = numeric(data, "num_sequences");
      if (!tty) say(`${label}training${f.gradientTotal === undefined ? "" : ` (${f.gradientTotal} gradient steps)`}`);
      return true;
    }
    if (event.type === "gradient_step") {
      f.gradients++;
      f.loss = numeric(data, "loss") ?? f.loss;
      return false;
    }
    return true;
  }

  function onLoopEvent(e: TrainLoopEvent): boolean {
    const at = `step ${e.step}: `;
    switch (e.type) {
      case "rollouts_started": {
        const f = flight(e.step);
        f.sampledStep = e.sampledStep;
        if (!tty) say(`${at}rollouts started, sampling step ${e.sampledStep}`);
        return true;
      }
      case "rollout_progress": {
        const f = flight(e.step);
        f.done = e.done;
        f.failed = e.failed;
        f.total = e.total;
        // A plain log gets a line at each quarter, not one per rollout.
        const quarter = e.total > 0 ? Math.floor((4 * e.done) / e.total) : 0;
        if (!tty && quarter > f.quarter && quarter < 4) say(`${at}rollouts ${e.done}/${e.total}`);
        f.quarter = Math.max(f.quarter, quarter);
        return false;
      }
      case "rollouts_ended": {
        const f = flight(e.step);
        f.phase = "waiting";
        if (e.reward !== undefined) {
          f.reward = e.reward;
          rewards.set(e.step, e.reward);
        }
        const reward = e.reward === undefined ? "" : `, mean reward ${num(e.reward)}`;
        say(`${at}${e.trajectories} trajectories in ${e.groups} groups in ${secs(e.ms)}${reward}`);
        return true;
      }
      case "job_created":
      case "job_resumed": {
        const f = flight(e.step);
        f.phase = "training";
        f.jobId = e.jobId;
        say(`${at}job ${e.jobId} ${e.type === "job_created" ? "created" : "resumed: followed to its end"}`);
        return true;
      }
      case "job":
        return onJobEvent(e.event, flight(e.step), at);
      case "trained": {
        const loss = e.metrics.loss === undefined ? "" : `, loss ${num(e.metrics.loss)}`;
        const reward = rewards.get(e.step);
        say(`${at}trained in ${secs(e.ms)}${loss}${reward === undefined ? "" : `, reward ${num(reward)}`}`);
        flights.delete(e.step);
        return true;
      }
      case "eval_started":
        flight(e.step).phase = "eval";
        return true;
      case "eval_ended": {
        for (const [key, value] of Object.entries(e.metrics)) {
          if (typeof value !== "number" || !Number.isFinite(value)) continue;
          let series = evals.get(key);
          if (series === undefined) evals.set(key, (series = new Map()));
          series.set(e.step, value);
        }
        const shown = Object.entries(e.metrics)
          .filter(([, v]) => typeof v === "number")
          .map(([k, v]) => `${k} ${num(v)}`)
          .join(", ");
        say(`${at}eval in ${secs(e.ms)}: ${shown}`);
        flights.delete(e.step);
        return true;
      }
      case "checkpoints_pruned":
        if (e.deleted.length > 0)
          say(
            `${at}deleted checkpoints ${e.deleted.join(", ")}; kept ${e.kept.map((s) => `${s} (${(e.reasons[s] ?? []).join(", ")})`).join(", ")}`,
          );
        return true;
      case "target_reached":
        say(`at step ${e.step}: the loop's target is reached`);
        view.end();
        return true;
      default:
        return true;
    }
  }

  function curveLines(): string[] {
    const out: string[] = [];
    const series = (label: string, points: Map<number, number>) => {
      const steps = [...points.keys()].sort((a, b) => a - b);
      if (steps.length === 0) return;
      const values = steps.map((s) => points.get(s)!);
      out.push(
        `${label} ${sparkline(values)} ${num(values[0]!)} → ${num(values.at(-1)!)} (steps ${steps[0]}-${steps.at(-1)})`,
      );
    };
    series("reward", rewards);
    for (const [key, points] of evals) series(`eval ${key}`, points);
    if (losses.length > 1)
      out.push(
        `loss ${sparkline(losses)} ${num(losses[0]!)} → ${num(losses.at(-1)!)} (${losses.length} gradient steps)`,
      );
    return out;
  }

  const view = ((event: TrainLoopEvent | TrainingJobEvent) => {
    if (ended) return;
    let now: boolean;
    if (isJobEvent(event)) {
      // One job (trainSFT, train): a single line, and its loss curve at the end.
      single ??= { step: 0, phase: "training", done: 0, failed: 0, total: 0, gradients: 0, quarter: 0 };
      now = onJobEvent(event, single, "");
      if (event.type === "gradient_step") {
        const loss = numeric(event.data ?? {}, "loss");
        if (loss !== undefined) losses.push(loss);
      }
      if (event.type === "training_ended" || event.type === "training_failed") {
        const message = event.data?.error_message;
        say(
          event.type === "training_ended"
            ? `trained: ${single.gradients} gradient steps${single.loss === undefined ? "" : `, loss ${num(single.loss)}`}`
            : `training failed${typeof message === "string" ? `: ${message}` : ""}`,
        );
        single = undefined;
        view.end();
        return;
      }
    } else now = onLoopEvent(event);
    if (ended) return;
    if (now || !tty) draw();
    else drawSoon();
  }) as TerminalProgress;

  view.log = (line: string) => {
    if (ended) {
      stream.write(`${line}\n`);
      return;
    }
    say(line);
    draw();
  };
  view.end = () => {
    if (ended) return;
    ended = true;
    // The lines in flight (a loop stopped early) stay as they were last drawn, the curves below.
    const last = [...flights.values()].sort((a, b) => a.step - b.step).map(flightLine);
    flights.clear();
    single = undefined;
    pending.push(...last);
    if (curves) pending.push(...curveLines());
    draw();
  };
  return view;
}
