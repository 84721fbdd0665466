/** gatherTrajectoryGroups: order, concurrency, the failure budget, aborts and progress. */
import { describe, expect, it } from "vitest";
import {
  APIUserAbortError,
  type GatherProgress,
  gatherTrajectoryGroups,
  type Rollout,
  RolloutsFailedError,
  Trajectory,
} from "../../../src/index.js";

const scored = (reward: number) => new Trajectory({ reward });
const rewardsOf = (groups: { trajectories: Trajectory[] }[]) => groups.map((g) => g.trajectories.map((t) => t.reward));

/** A rollout that ends when the test says so, and records the signal it was handed. */
function controlled() {
  let resolve!: (t: Trajectory) => void;
  let reject!: (e: unknown) => void;
  let signal: AbortSignal | undefined;
  const done = new Promise<Trajectory>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const rollout: Rollout = (s) => {
    signal = s;
    return done;
  };
  return { rollout, resolve, reject, started: () => signal !== undefined, signal: () => signal };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("gatherTrajectoryGroups", () => {
  it("returns the groups and their trajectories in input order, whatever order they end in", async () => {
    const a = controlled();
    const b = controlled();
    const gathering = gatherTrajectoryGroups([
      [a.rollout, () => scored(2)],
      [Promise.resolve(scored(3)), b.rollout],
    ]);
    await tick();
    b.resolve(scored(4));
    await tick();
    a.resolve(scored(1));
    const groups = await gathering;
    expect(rewardsOf(groups)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(groups.every((g) => g.exceptions.length === 0)).toBe(true);
  });

  it("runs at most `concurrency` rollouts at once, across groups", async () => {
    const rollouts = Array.from({ length: 5 }, controlled);
    const gathering = gatherTrajectoryGroups(
      [rollouts.slice(0, 2).map((r) => r.rollout), rollouts.slice(2).map((r) => r.rollout)],
      {
        concurrency: 2,
      },
    );
    await tick();
    expect(rollouts.map((r) => r.started())).toEqual([true, true, false, false, false]);
    rollouts[1]!.resolve(scored(1));
    await tick();
    expect(rollouts.map((r) => r.started())).toEqual([true, true, true, false, false]);
    for (const r of rollouts) r.resolve(scored(0));
    await expect(gathering).resolves.toHaveLength(2);
  });

  it("keeps failures within maxExceptions in their group, with the successful trajectories", async () => {
    const progress: GatherProgress[] = [];
    const groups = await gatherTrajectoryGroups(
      [
        [() => scored(1), () => Promise.reject(new TypeError("bad reply")), () => scored(0)],
        [
          () => {
            throw new RangeError("sync failure");
          },
          () => scored(5),
        ],
      ],
      { maxExceptions: 2, concurrency: 1, onProgress: (p) => progress.push(p) },
    );
    expect(rewardsOf(groups)).toEqual([[1, 0], [5]]);
    expect(groups[0]!.exceptions).toEqual([
      { type: "TypeError", message: "bad reply", traceback: expect.stringContaining("TypeError: bad reply") },
    ]);
    expect(groups[1]!.exceptions.map((e) => e.type)).toEqual(["RangeError"]);
    expect(progress.at(-1)).toEqual({ done: 5, failed: 2, total: 5 });
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5]);
  });

  it("past the budget, rejects and aborts every rollout in flight", async () => {
    const slow = [controlled(), controlled()];
    const failing = controlled();
    const gathering = gatherTrajectoryGroups([[slow[0]!.rollout, failing.rollout], [slow[1]!.rollout]], {
      maxExceptions: 0,
    });
    await tick();
    expect(slow.every((r) => r.signal()?.aborted === false)).toBe(true);
    const cause = new Error("rollout broke");
    failing.reject(cause);
    const err = await gathering.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RolloutsFailedError);
    expect((err as RolloutsFailedError).failures).toEqual([cause]);
    expect((err as RolloutsFailedError).cause).toBe(cause);
    expect((err as Error).message).toMatch(/1 rollout\(s\) failed, more than maxExceptions \(0\)/);
    expect(slow.every((r) => r.signal()?.aborted === true)).toBe(true);
    // Rollouts that end after the rejection change nothing and raise nothing.
    slow[0]!.resolve(scored(1));
    slow[1]!.reject(new Error("aborted"));
    await tick();
  });

  it("aborting `signal` rejects with APIUserAbortError and aborts the rollouts in flight", async () => {
    const r = controlled();
    const user = new AbortController();
    const gathering = gatherTrajectoryGroups([[r.rollout]], { signal: user.signal });
    await tick();
    user.abort(new Error("stop"));
    await expect(gathering).rejects.toBeInstanceOf(APIUserAbortError);
    expect(r.signal()?.aborted).toBe(true);
  });

  it("does not start anything when `signal` is already aborted", async () => {
    const r = controlled();
    await expect(gatherTrajectoryGroups([[r.rollout]], { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(r.started()).toBe(false);
  });

  it("a promise that rejects before its turn is counted in turn, not left unhandled", async () => {
    const early = Promise.reject(new Error("early"));
    const groups = await gatherTrajectoryGroups([[() => scored(1), early]], { concurrency: 1, maxExceptions: 1 });
    expect(groups[0]!.exceptions.map((e) => e.message)).toEqual(["early"]);
  });

  it("resolves empty groups at once, and refuses nonsense options", async () => {
    await expect(gatherTrajectoryGroups([[], []])).resolves.toEqual([
      { trajectories: [], exceptions: [] },
      { trajectories: [], exceptions: [] },
    ]);
    await expect(gatherTrajectoryGroups([[]], { concurrency: 0 })).rejects.toThrow(
      /concurrency must be an integer >= 1/,
    );
    await expect(gatherTrajectoryGroups([[]], { maxExceptions: -1 })).rejects.toThrow(/maxExceptions/);
  });
});
