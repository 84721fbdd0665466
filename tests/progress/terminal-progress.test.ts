/**
 * `inferloop/progress`: `terminalProgress()` writing to a recording stream, with and without a
 * TTY (the TTY output is replayed on a small terminal model, so the test reads the screen a
 * user would see), over hand-made events and over a real `trainLoop` on the fake service;
 * `sparkline`; and `abortOnSignals`' two Ctrl-C.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TrainingJobEvent, TrainLoopEvent, TrainLoopRolloutContext } from "../../src/index.js";
import { abortOnSignals, sparkline, terminalProgress } from "../../src/progress/index.js";
import { useFakeService } from "../integration/helpers.js";
import { stepRollouts } from "../integration/loop-rollouts.js";

const ESC = String.fromCharCode(27);
const CSI = new RegExp(`^${ESC}\\[(\\d*)([AKJ])`);

/** A writable that records what was written. */
function recorder(tty: boolean, columns = 200) {
  const writes: string[] = [];
  return { writes, stream: { isTTY: tty, columns, write: (text: string) => writes.push(text) } };
}

/**
 * The screen after `output`, as a terminal shows it: `\r`, `\n`, cursor up (`ESC[nA`), erase line
 * (`ESC[2K`) and erase below (`ESC[J`); any other escape fails the test.
 */
function screen(output: string): string[] {
  const lines: string[] = [""];
  let row = 0;
  let col = 0;
  for (let i = 0; i < output.length; i++) {
    const c = output[i]!;
    if (c === "\x1b") {
      const m = CSI.exec(output.slice(i))!;
      expect(m, `escape at ${i}: ${JSON.stringify(output.slice(i, i + 8))}`).not.toBeNull();
      const [all, n, op] = m;
      if (op === "A") row = Math.max(0, row - Number(n || 1));
      if (op === "K") lines[row] = "";
      if (op === "J") lines.length = row + 1;
      if (op === "J") lines[row] = lines[row]!.slice(0, col);
      i += all.length - 1;
      continue;
    }
    if (c === "\r") col = 0;
    else if (c === "\n") {
      row++;
      col = 0;
      while (lines.length <= row) lines.push("");
    } else {
      const line = lines[row]!.padEnd(col);
      lines[row] = line.slice(0, col) + c + line.slice(col + 1);
      col++;
    }
  }
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines;
}

const gradient = (id: string, loss: number): TrainingJobEvent => ({ id, type: "gradient_step", data: { loss } });

/** Two steps sampling at once (the interleaving the old docs' snippet garbled), then trained. */
const twoSteps: TrainLoopEvent[] = [
  { type: "rollouts_started", step: 1, sampledStep: 0, modelName: "m" },
  { type: "rollouts_started", step: 2, sampledStep: 0, modelName: "m" },
  { type: "rollout_progress", step: 1, done: 1, failed: 0, total: 4 },
  { type: "rollout_progress", step: 2, done: 1, failed: 0, total: 4 },
  { type: "rollout_progress", step: 1, done: 2, failed: 0, total: 4 },
  { type: "rollout_progress", step: 2, done: 2, failed: 1, total: 4 },
  { type: "rollout_progress", step: 1, done: 4, failed: 0, total: 4 },
  { type: "rollouts_ended", step: 1, sampledStep: 0, groups: 1, trajectories: 4, reward: 0.25, ms: 1200 },
  { type: "job_created", step: 1, jobId: "3e440101-5688-44ee-969c-5773f01c9a36" },
  { type: "job", step: 1, event: { id: "e1", type: "training_started", data: { num_sequences: 2 } } },
  { type: "job", step: 1, event: gradient("e2", 0.5) },
  { type: "rollout_progress", step: 2, done: 4, failed: 1, total: 4 },
  { type: "rollouts_ended", step: 2, sampledStep: 0, groups: 1, trajectories: 3, reward: 0.5, ms: 1500 },
  { type: "job", step: 1, event: gradient("e3", 0.4) },
  { type: "job", step: 1, event: { id: "e4", type: "training_ended", data: {} } },
  { type: "trained", step: 1, jobId: "3e440101-5688-44ee-969c-5773f01c9a36", metrics: { loss: 0.45 }, ms: 2000 },
  { type: "eval_started", step: 1 },
  { type: "job_created", step: 2, jobId: "a1b2c3d4-0000-4000-8000-000000000000" },
  { type: "eval_ended", step: 1, metrics: { accuracy: 0.5 }, ms: 300 },
  { type: "job", step: 2, event: { id: "e5", type: "training_ended", data: {} } },
  { type: "trained", step: 2, jobId: "a1b2c3d4-0000-4000-8000-000000000000", metrics: { loss: 0.3 }, ms: 1000 },
  { type: "eval_started", step: 2 },
  { type: "eval_ended", step: 2, metrics: { accuracy: 0.75 }, ms: 300 },
  { type: "checkpoints_pruned", step: 2, kept: [2], deleted: [1], reasons: { 2: ["latest", "keepLatest"] } },
  { type: "target_reached", step: 2 },
];

describe("terminalProgress", () => {
  it("not a TTY: whole lines, one step each, never redrawn; the curves at the end", () => {
    const { writes, stream } = recorder(false);
    const progress = terminalProgress({ stream });
    for (const e of twoSteps) progress(e);
    const out = writes.join("");
    expect(out.includes("\r") || out.includes(ESC)).toBe(false);
    expect(writes.every((w) => w.endsWith("\n"))).toBe(true);
    const lines = out.trimEnd().split("\n");
    // Each line is about one step (the end's lines excepted).
    for (const line of lines.slice(0, -4)) expect(line).toMatch(/^step [12]: /);
    expect(lines).toContain("step 1: rollouts 2/4");
    expect(lines).toContain("step 1: 4 trajectories in 1 groups in 1.2 s, mean reward 0.25");
    expect(lines).toContain("step 1: job 3e440101-5688-44ee-969c-5773f01c9a36 created");
    expect(lines).toContain("step 1: training (2 gradient steps)");
    expect(lines).toContain("step 1: trained in 2.0 s, loss 0.45, reward 0.25");
    expect(lines).toContain("step 1: eval in 0.3 s: accuracy 0.5");
    expect(lines).toContain("step 2: deleted checkpoints 1; kept 2 (latest, keepLatest)");
    expect(lines.slice(-3)).toEqual([
      "at step 2: the loop's target is reached",
      "reward ▁█ 0.25 → 0.5 (steps 1-2)",
      "eval accuracy ▁█ 0.5 → 0.75 (steps 1-2)",
    ]);
    // Ended: later events write nothing.
    const count = writes.length;
    progress({ type: "rollouts_started", step: 3, sampledStep: 2, modelName: "m" });
    expect(writes.length).toBe(count);
  });

  it("a TTY: one line per step in flight, redrawn in place; finished steps and the curves stay above", () => {
    const { writes, stream } = recorder(true);
    const progress = terminalProgress({ stream, redrawEvery: 0 });
    const midway = twoSteps.findIndex((e) => e.type === "rollouts_ended" && e.step === 2);
    for (const e of twoSteps.slice(0, midway)) progress(e);
    expect(screen(writes.join(""))).toEqual([
      "step 1: 4 trajectories in 1 groups in 1.2 s, mean reward 0.25",
      "step 1: job 3e440101-5688-44ee-969c-5773f01c9a36 created",
      "step   1 │ training ████████░░░░░░░░ 1/2, loss 0.5 (job 3e440101…)",
      "step   2 │ rollouts ████████████████ 4/4, 1 failed (sampling step 0)",
    ]);
    for (const e of twoSteps.slice(midway)) progress(e);
    expect(screen(writes.join(""))).toEqual([
      "step 1: 4 trajectories in 1 groups in 1.2 s, mean reward 0.25",
      "step 1: job 3e440101-5688-44ee-969c-5773f01c9a36 created",
      "step 2: 3 trajectories in 1 groups in 1.5 s, mean reward 0.5",
      "step 1: trained in 2.0 s, loss 0.45, reward 0.25",
      "step 2: job a1b2c3d4-0000-4000-8000-000000000000 created",
      "step 1: eval in 0.3 s: accuracy 0.5",
      "step 2: trained in 1.0 s, loss 0.3, reward 0.5",
      "step 2: eval in 0.3 s: accuracy 0.75",
      "step 2: deleted checkpoints 1; kept 2 (latest, keepLatest)",
      "at step 2: the loop's target is reached",
      "reward ▁█ 0.25 → 0.5 (steps 1-2)",
      "eval accuracy ▁█ 0.5 → 0.75 (steps 1-2)",
    ]);
  });

  it("a TTY: lines are cut to the terminal's width, so none wraps; log prints above the lines in flight", () => {
    const { writes, stream } = recorder(true, 30);
    const progress = terminalProgress({ stream, redrawEvery: 0 });
    progress({ type: "rollouts_started", step: 7, sampledStep: 6, modelName: "m" });
    progress.log("a note");
    expect(screen(writes.join(""))).toEqual(["a note", "step   7 │ rollouts ░░░░░░░░…"]);
    progress.end();
    // The line in flight stays as it was drawn.
    expect(screen(writes.join(""))).toEqual(["a note", "step   7 │ rollouts ░░░░░░░░…"]);
  });

  it("trainSFT's events: one line for the job, and its loss curve when it ends", () => {
    const { writes, stream } = recorder(true);
    const progress = terminalProgress({ stream, redrawEvery: 0 });
    progress({ id: "e1", type: "training_started", data: { num_sequences: 3 } });
    progress(gradient("e2", 0.9));
    expect(screen(writes.join(""))).toEqual(["training █████░░░░░░░░░░░ 1/3, loss 0.9"]);
    progress(gradient("e3", 0.5));
    progress(gradient("e4", 0.2));
    progress({ id: "e5", type: "training_ended", data: {} });
    expect(screen(writes.join(""))).toEqual([
      "trained: 3 gradient steps, loss 0.2",
      "loss █▄▁ 0.9 → 0.2 (3 gradient steps)",
    ]);

    const plain = recorder(false);
    const failed = terminalProgress({ stream: plain.stream });
    failed({ id: "e1", type: "training_started", data: { num_sequences: 3 } });
    failed({ id: "e2", type: "training_failed", data: { error_message: "CUDA out of memory" } });
    expect(plain.writes.join("")).toBe("training (3 gradient steps)\ntraining failed: CUDA out of memory\n");
  });

  describe("over a real trainLoop on the fake service", () => {
    const fake = useFakeService({ seedCalls: false, trainingStepMs: 2 });
    const rollouts = (ctx: TrainLoopRolloutContext) => stepRollouts(fake.client, { rewards: [0, 0.5, 1] })(ctx);

    it.each([true, false])("tty %s: every step's lines, the target and the reward curve", async (tty) => {
      const model = await fake.client.trainableModels.register({
        project: "rl",
        name: "watched",
        base_model: "OpenPipe/Qwen3-14B-Instruct",
      });
      const { writes, stream } = recorder(tty);
      for await (const _ of model.trainLoop({
        steps: 3,
        rollouts,
        state: false,
        pollInterval: 5,
        onEvent: terminalProgress({ stream, redrawEvery: 0 }),
      }));
      const lines = tty ? screen(writes.join("")) : writes.join("").trimEnd().split("\n");
      for (const step of [1, 2, 3])
        expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^step ${step}: trained in `)));
      expect(lines.slice(-2)).toEqual([
        "at step 3: the loop's target is reached",
        expect.stringMatching(/^reward [▁-█]{3} 0\.5 → 0\.5 \(steps 1-3\)$/),
      ]);
      // No line in flight is left on the screen.
      expect(lines.filter((l) => l.includes("│"))).toEqual([]);
    });
  });
});

describe("sparkline", () => {
  it("draws lowest to highest in eight levels, averages long series into the width, skips what is not finite", () => {
    expect(sparkline([0, 0.3, 0.6, 1])).toBe("▁▃▅█");
    expect(sparkline([1, 1, 1])).toBe("▄▄▄");
    expect(sparkline([])).toBe("");
    expect(sparkline([0, Number.NaN, 1])).toBe("▁█");
    expect(
      sparkline(
        Array.from({ length: 100 }, (_, i) => i),
        10,
      ),
    ).toHaveLength(10);
  });
});

describe("abortOnSignals", () => {
  afterEach(() => vi.restoreAllMocks());

  it("the first SIGINT aborts the signal and says a second exits; the second exits at once (130); dispose removes both", () => {
    const said: string[] = [];
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const before = process.listenerCount("SIGINT");
    const stop = abortOnSignals({ onSignal: (s) => said.push(s) });
    expect(process.listenerCount("SIGINT")).toBe(before + 1);
    process.emit("SIGINT", "SIGINT");
    expect(stop.signal.aborted).toBe(true);
    expect(said).toEqual(["SIGINT"]);
    expect(exit).not.toHaveBeenCalled();
    process.emit("SIGINT", "SIGINT");
    expect(exit).toHaveBeenCalledWith(130);
    stop.dispose();
    expect(process.listenerCount("SIGINT")).toBe(before);
    expect(process.listenerCount("SIGTERM")).toBe(0);
  });

  it("says what happens on stderr by default", () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const stop = abortOnSignals({ signals: ["SIGTERM"] });
    process.emit("SIGTERM", "SIGTERM");
    stop.dispose();
    expect(String(write.mock.calls[0]?.[0])).toMatch(
      /SIGTERM: stopping the training loop \(a job in flight goes on on the server; its state is saved\)\. Press Ctrl-C again to exit at once\./,
    );
  });
});
