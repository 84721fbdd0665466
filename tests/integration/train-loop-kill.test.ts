/**
 * `model.trainLoop` resumed from kills, the hard way: a loop runs in a child process
 * (train-loop-kill.child.ts, bundled once) against the fake service of this process, which
 * survives every kill and keeps training the jobs left behind. The child is SIGKILLed 20 times
 * at random points (while its rollouts run, just after a job's id was saved, while a job
 * trains, while checkpoints are pruned), interrupted once with Ctrl-C (SIGINT), and started
 * again each time; then it runs to its target. The fake's own record of the jobs must show one
 * job per step, each step trained once, and the model at its target.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../src/testing/util.js";
import { useFakeService } from "./helpers.js";
import { stepOfJob } from "./loop-rollouts.js";

const TARGET = 24;
const KILLS = 20;
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const fake = useFakeService({ seedCalls: false, trainingJobMs: 500 });
let script = "";
let cwd = "";

beforeAll(async () => {
  // Bundled beside the repository's node_modules (the packages stay external), run with node:
  // a start in a few dozen ms, not tsx's compile of every source file on each of 22 starts.
  mkdirSync(join(root, ".tmp"), { recursive: true });
  script = join(root, ".tmp", `train-loop-kill-${process.pid}.mjs`);
  await build({
    entryPoints: [join(root, "tests/integration/train-loop-kill.child.ts")],
    outfile: script,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    logLevel: "silent",
  });
  cwd = mkdtempSync(join(tmpdir(), "inferloop-kill-"));
});
afterAll(() => {
  rmSync(script, { force: true });
  rmSync(cwd, { recursive: true, force: true });
});

type Line = { type: string; step?: number; event?: string; jobId?: string; message?: string; name?: string };
type Kind = "rollouts" | "job id saved" | "training" | "pruning";

/** When each kind of kill point has come: the event after which the child is killed. */
const trigger: Record<Kind, (l: Line) => boolean> = {
  rollouts: (l) => l.type === "rollouts_started",
  "job id saved": (l) => l.type === "job_created",
  training: (l) => l.type === "job" && l.event === "gradient_step",
  // Pruning starts as soon as a step has trained.
  pruning: (l) => l.type === "trained",
};

/**
 * Runs the child until `stop` (if any) says to interrupt it with `signal` `delayMs` after a line;
 * resolves to its lines and how it ended.
 */
function run(stop?: {
  when: (l: Line) => boolean;
  signal: NodeJS.Signals;
  delayMs: number;
}): Promise<{ lines: Line[]; code: number | null; signal: NodeJS.Signals | null; stopped: boolean }> {
  const child: ChildProcess = spawn(process.execPath, [script], {
    cwd,
    env: { ...process.env, FAKE_URL: fake.svc.url, FAKE_API_KEY: fake.svc.apiKey, TARGET: String(TARGET) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Line[] = [];
  let stopped = false;
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += String(d)));
  createInterface({ input: child.stdout! }).on("line", (text) => {
    const l = JSON.parse(text) as Line;
    lines.push(l);
    if (stop !== undefined && !stopped && stop.when(l)) {
      stopped = true;
      setTimeout(() => child.kill(stop.signal), stop.delayMs);
    }
  });
  return new Promise((done) =>
    child.on("exit", (code, signal) => {
      if (code !== 0 && signal === null && !stopped) console.error(stderr);
      done({ lines, code, signal, stopped });
    }),
  );
}

describe("trainLoop killed and resumed", () => {
  // Seeded, so that a failing run can be repeated: KILL_SEED=<the seed it printed>.
  it(`SIGKILLed ${KILLS} times at random points, and Ctrl-C once: one job per step, none trained twice, the target reached`, async () => {
    const seed = Number(process.env.KILL_SEED ?? Date.now() % 1_000_000);
    const rand = seededRandom(seed);
    const kinds = Object.keys(trigger) as Kind[];
    const tally: Record<Kind, number> = { rollouts: 0, "job id saved": 0, training: 0, pruning: 0 };
    let kills = 0;
    let resumed = 0;
    let runs = 0;
    const all: Line[] = [];
    // The Ctrl-C round comes at a random place among the kills.
    const ctrlCAt = Math.floor(rand() * KILLS);
    for (let round = 0; kills < KILLS; round++) {
      if (round === ctrlCAt) {
        const r = await run({ when: trigger["job id saved"], signal: "SIGINT", delayMs: 0 });
        runs++;
        all.push(...r.lines);
        resumed += r.lines.filter((l) => l.type === "job_resumed").length;
        if (!r.stopped) break;
        // Stopped gracefully: its rollouts aborted, its state saved, the job left to end.
        const error = r.lines.at(-1)!;
        expect(error, `seed ${seed}`).toMatchObject({ type: "error", name: "APIUserAbortError" });
        expect(error.message, `seed ${seed}`).toMatch(/goes on on the server .* holds it: run the loop again/);
        expect(r.code, `seed ${seed}`).toBe(1);
        continue;
      }
      const kind = kinds[Math.floor(rand() * kinds.length)]!;
      const delayMs = kind === "job id saved" ? 0 : Math.floor(rand() * 15);
      const r = await run({ when: trigger[kind], signal: "SIGKILL", delayMs });
      runs++;
      all.push(...r.lines);
      resumed += r.lines.filter((l) => l.type === "job_resumed").length;
      if (r.signal === "SIGKILL") {
        kills++;
        tally[kind]++;
      } else {
        // The loop reached its target before this kill point came: no more kills to make.
        expect(r.code, `seed ${seed}: ${JSON.stringify(r.lines.at(-1))}`).toBe(0);
        break;
      }
    }
    const last = await run();
    runs++;
    all.push(...last.lines);
    resumed += last.lines.filter((l) => l.type === "job_resumed").length;
    expect(last.code, `seed ${seed}: ${JSON.stringify(last.lines.at(-1))}`).toBe(0);
    expect(last.lines.filter((l) => l.type === "target_reached")).toEqual([{ type: "target_reached", step: TARGET }]);

    // The fake's record: every job it made, and the step each trained (its prompts say "step N").
    const model = fake.svc.state.trainable.models.find((m) => m.name === "killed")!;
    const jobs = fake.svc.state.training.list.filter((j) => j.model_id === model.id);
    const steps = jobs.map(stepOfJob);
    const perStep = new Map<number, number>();
    for (const s of steps) perStep.set(s, (perStep.get(s) ?? 0) + 1);
    // A job whose create was cut off by a kill, and which trained while no loop ran, is done: its
    // id was never read, and a new loop does not send its create again.
    const seen = new Set(all.filter((l) => l.type === "job_created" || l.type === "job_resumed").map((l) => l.jobId));
    const unseen = jobs.filter((j) => !seen.has(j.id)).length;
    const resent = fake.svc.requests.filter(
      (r, i, all) =>
        r.path === "/v1/preview/training-jobs" &&
        all.findIndex((q) => q.path === r.path && q.headers["idempotency-key"] === r.headers["idempotency-key"]) < i,
    ).length;
    const report =
      `seed ${seed}: ${kills} kills (${JSON.stringify(tally)}), 1 Ctrl-C, ${runs} runs, ${resumed} jobs resumed, ` +
      `${resent} creates sent again with their key, ${unseen} jobs whose id no loop read, ` +
      `${last.lines.filter((l) => l.type === "trained").length} steps left for the last run, ${jobs.length} jobs for ${TARGET} steps`;
    console.log(report);
    // One job per step, in step order: none made for a step already trained or in training.
    expect(steps, report).toEqual(Array.from({ length: TARGET }, (_, i) => i + 1));
    expect(
      [...perStep.values()].every((n) => n === 1),
      report,
    ).toBe(true);
    // Each made one checkpoint: the model is at its target, having trained no step twice.
    expect(model.checkpoints.at(-1)?.step, report).toBe(TARGET);
    expect(kills, report).toBe(KILLS);
    expect(resumed, report).toBeGreaterThan(0);
  }, 120_000);
});
