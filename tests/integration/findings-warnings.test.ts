/**
 * Findings that do not throw reach the user with the default log level (off): a training job
 * whose groups teach nothing, a bare op name and a chat role that is a near miss of a standard
 * one each say so once per process, through process.emitWarning with a code per kind, as the
 * svc_* filter names do.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Trajectory, type TrajectoryChoice } from "../../src/index.js";
import { clientFor, MODEL_ID, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false });
afterEach(() => vi.restoreAllMocks());

const answer: TrajectoryChoice = {
  index: 0,
  finish_reason: "stop",
  logprobs: { content: [{ token: "a", logprob: -0.1, bytes: null, top_logprobs: [] }] },
  message: { role: "assistant", content: "a" },
};
const scored = (reward: number) =>
  new Trajectory({ messages_and_choices: [{ role: "user", content: "q" }, answer], reward });
const codes = (emit: { mock: { calls: unknown[][] } }) => emit.mock.calls.map((c) => (c[1] as { code: string }).code);

describe("findings at the default log level", () => {
  it("a training job's uniform rewards: once per process, with a code, the job still sent", async () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const job = { model_id: MODEL_ID, trajectory_groups: [{ trajectories: [scored(1), scored(1)] }] };
    await fake.client.trainingJobs.create(job);
    await fake.client.trainingJobs.create(job);
    expect(codes(emit)).toEqual(["INFERLOOP_UNIFORM_REWARDS"]);
    expect(String(emit.mock.calls[0]![0])).toMatch(
      /all 2 trajectories of the group have reward 1: no learning signal.*trajectory_groups\.0/,
    );
    expect((emit.mock.calls[0]![1] as { type: string }).type).toBe("InferloopWarning");
    expect(fake.svc.trainingJobs).toHaveLength(2);
    // Another kind is news: said once too.
    await fake.client.trainingJobs.create({
      model_id: MODEL_ID,
      trajectory_groups: [{ trajectories: [scored(1), new Trajectory({ messages_and_choices: [answer] })] }],
    });
    expect(codes(emit)).toEqual(["INFERLOOP_UNIFORM_REWARDS", "INFERLOOP_MISSING_REWARD"]);
  });

  it("a bare op name in filter.op_names: once per process, naming the ref to write", async () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const bare = { project_id: "acme/bot", filter: { op_names: ["answer_ticket"] } };
    expect(await fake.client.calls.query(bare).toArray()).toEqual([]);
    await fake.client.calls.query(bare).toArray();
    expect(codes(emit)).toEqual(["INFERLOOP_BARE_OP_NAME"]);
    expect(String(emit.mock.calls[0]![0])).toMatch(/weave:\/\/\/acme\/bot\/op\/answer_ticket:\*/);
  });

  it("a role that is a near miss of a standard one: once per process, the message still sent as written", async () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const chat = (role: string) =>
      fake.client.chat.completions.create({ model: "Qwen/Qwen3-8B", messages: [{ role, content: "hi" }] });
    await chat("usr");
    await chat("assistent");
    await chat("ipython"); // a custom role of its own: nothing to say
    expect(codes(emit)).toEqual(["INFERLOOP_ROLE_NEAR_MISS"]);
    expect(String(emit.mock.calls[0]![0])).toBe(
      'chat.completions.create: role "usr" is not a standard role: did you mean "user"? It is sent as written (vLLM passes any role to the chat template, which may not know it) [role_near_miss at messages.0.role]',
    );
    const sent = fake.svc.requests
      .filter((r) => r.path === "/v1/chat/completions")
      .map((r) => (r.json as { messages: { role: string }[] }).messages[0]!.role);
    expect(sent).toEqual(["usr", "assistent", "ipython"]);
  });

  it("a client whose log takes warn gets them in its logger instead, and no process warning", async () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const lines: string[] = [];
    const ignore = () => {};
    const logged = clientFor(fake.svc, {
      logLevel: "warn",
      logger: { error: ignore, warn: (m) => lines.push(m), info: ignore, debug: ignore },
    });
    await logged.trainingJobs.create({
      model_id: MODEL_ID,
      trajectory_groups: [{ trajectories: [scored(0), scored(0)] }],
    });
    await logged.calls.query({ project_id: "acme/bot", filter: { svc_run_ids: ["r"] } }).toArray();
    expect(lines).toEqual([
      expect.stringMatching(/training_jobs.create: all 2 trajectories of the group have reward 0.*uniform_rewards/),
      expect.stringMatching(/filter\.svc_run_ids is ignored by Weave/),
    ]);
    expect(emit).not.toHaveBeenCalled();
  });
});
