/**
 * The review step of the loop over real HTTP against the fake: annotation queues and their
 * items, feedback, and traced rollouts read back as trajectory groups with the reward a
 * reviewer left.
 */
import { describe, expect, it, vi } from "vitest";
import {
  APIUserAbortError,
  type CallRecord,
  NotFoundError,
  q,
  RequestValidationError,
  type SFTRow,
  type SkippedTrace,
  Trajectory,
  type TrajectoryGroupsOptions,
} from "../../src/index.js";
import { faults, referenceCalls } from "../../src/testing/index.js";
import { captureWarnings } from "../warnings.js";
import { caught, useFakeService } from "./helpers.js";

const fake = useFakeService({ seedCalls: false, calls: referenceCalls() });

const PROJECT = "acme/rollouts";
const SPEC = `weave:///${PROJECT}/object/quality:latest`;
const ref = (id: string) => `weave:///${PROJECT}/call/${id}`;

let clock = Date.UTC(2026, 0, 1);
const at = () => new Date((clock += 1000)).toISOString();

/** A trace as Weave's openai integration writes it: a root op, then chat calls under it. */
function weaveTrace(
  n: number,
  prompt: string,
  turns: Array<{ messages: unknown[]; reply: string; logprobs?: boolean }>,
): CallRecord[] {
  const trace = `trace-${n}`;
  const root: CallRecord = {
    id: `root-${n}`,
    project_id: PROJECT,
    op_name: `weave:///${PROJECT}/op/rollout:abc`,
    trace_id: trace,
    parent_id: null,
    started_at: at(),
    ended_at: at(),
    attributes: {},
    inputs: { prompt },
    output: { answer: turns.at(-1)?.reply },
    summary: {},
  };
  const chats = turns.map(
    (t, i): CallRecord => ({
      id: `chat-${n}-${i}`,
      project_id: PROJECT,
      op_name: `weave:///${PROJECT}/op/openai.chat.completions.create:xyz`,
      trace_id: trace,
      parent_id: root.id,
      started_at: at(),
      ended_at: at(),
      attributes: {},
      inputs: { model: "m", messages: t.messages },
      output: {
        id: `chatcmpl-${n}-${i}`,
        object: "chat.completion",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: { role: "assistant", content: t.reply },
            ...(t.logprobs
              ? {
                  logprobs: { content: [{ token: t.reply, logprob: -0.5, bytes: [1], top_logprobs: [] }] },
                  token_ids: [7],
                }
              : {}),
          },
        ],
      },
      summary: {},
    }),
  );
  return [root, ...chats];
}

describe("annotation queues", () => {
  it("create, retrieve, update, list, stats and a soft delete", async () => {
    const { id } = await fake.client.annotationQueues.create({
      project_id: PROJECT,
      name: "Rollout review",
      scorer_refs: [SPEC],
    });
    const queue = await fake.client.annotationQueues.retrieve(id, { project_id: PROJECT });
    expect(queue).toMatchObject({ id, name: "Rollout review", description: "", scorer_refs: [SPEC], deleted_at: null });
    const updated = await fake.client.annotationQueues.update(id, { project_id: PROJECT, description: "step 1" });
    expect(updated).toMatchObject({ id, name: "Rollout review", description: "step 1" });
    await fake.client.annotationQueues.create({ project_id: PROJECT, name: "Other", scorer_refs: [] });
    const named = await fake.client.annotationQueues.list({ project_id: PROJECT, name: "ROLLOUT" }).toArray();
    expect(named.map((q) => q.id)).toEqual([id]);
    expect(await fake.client.annotationQueues.stats({ project_id: PROJECT, queue_ids: [id] })).toEqual({
      stats: [{ queue_id: id, total_items: 0, completed_items: 0 }],
    });
    const deleted = await fake.client.annotationQueues.delete(id, { project_id: PROJECT });
    expect(deleted.deleted_at).toEqual(expect.any(String));
    expect(await caught(() => fake.client.annotationQueues.retrieve(id, { project_id: PROJECT }))).toBeInstanceOf(
      NotFoundError,
    );
    const left = await fake.client.annotationQueues.list({ project_id: PROJECT }).toArray();
    expect(left.map((q) => q.name)).toEqual(["Other"]);
    // Kept, as Weave keeps it: only marked deleted.
    expect(fake.svc.annotation.queues.get(id)?.deleted_at).toBe(deleted.deleted_at);
  });

  it("a queue list cut off mid-page is asked again from the first queue not delivered: none lost or repeated", async () => {
    const project = "acme/cut-list";
    for (const name of ["q1", "q2", "q3", "q4", "q5"])
      await fake.client.annotationQueues.create({ project_id: project, name, scorer_refs: [] });
    const list = fake.client.annotationQueues.list({ project_id: project }, { maxRetries: 1 });
    const uncut = (await list.toArray()).map((q) => q.id);
    expect(uncut).toHaveLength(5);
    const before = fake.svc.requests.length;
    fake.svc.inject({ kind: "reset", afterChunks: 2, path: "/annotation_queues/query" });
    expect((await list.toArray()).map((q) => q.id)).toEqual(uncut);
    const asked = fake.svc.requests.slice(before).filter((r) => r.path === "/annotation_queues/query");
    expect(asked.map((r) => (r.json as { offset: number }).offset)).toEqual([0, 2]);
  });

  it("await using closes a queue list's open page, and the list cannot be read after", async () => {
    const project = "acme/dispose-list";
    for (const name of ["q1", "q2", "q3"])
      await fake.client.annotationQueues.create({ project_id: project, name, scorer_refs: [] });
    fake.svc.inject(faults.stall({ afterChunks: 1, path: "/annotation_queues/query" }));
    const seen: string[] = [];
    let list: ReturnType<typeof fake.client.annotationQueues.list> | undefined;
    {
      await using l = fake.client.annotationQueues.list({ project_id: project });
      list = l;
      for await (const q of l) {
        seen.push(q.name);
        break;
      }
    }
    expect(seen).toHaveLength(1);
    expect(await caught(() => list!.toArray())).toBeInstanceOf(APIUserAbortError);
  });

  it("items: duplicates counted, unknown calls skipped, pages, filters, positions and progress", async () => {
    fake.svc.state.calls.insert([
      ...weaveTrace(1, "a", [{ messages: [], reply: "x" }]),
      ...weaveTrace(2, "b", [{ messages: [], reply: "y" }]),
    ]);
    const { id: queueId } = await fake.client.annotationQueues.create({
      project_id: PROJECT,
      name: "Review",
      scorer_refs: [],
    });
    expect(
      await fake.client.annotationQueues.items.add(queueId, {
        project_id: PROJECT,
        call_ids: ["root-1", "nope", "root-2"],
      }),
    ).toEqual({ added_count: 2, duplicates: 0 });
    expect(
      await fake.client.annotationQueues.items.add(queueId, { project_id: PROJECT, call_ids: ["root-1", "chat-1-0"] }),
    ).toEqual({ added_count: 1, duplicates: 1 });

    const pages = [];
    for await (const page of fake.client.annotationQueues.items
      .list(queueId, { project_id: PROJECT }, { pageSize: 2 })
      .pages())
      pages.push(page.map((i) => i.call_id));
    expect(pages.flat().sort()).toEqual(["chat-1-0", "root-1", "root-2"]);
    expect(pages.map((p) => p.length)).toEqual([2, 1]);

    const items = await fake.client.annotationQueues.items
      .list(queueId, { project_id: PROJECT, include_position: true })
      .toArray();
    expect(items.map((i) => i.position_in_queue)).toEqual([1, 2, 3]);
    expect(items.every((i) => i.annotation_state === "unstarted" && i.display_fields.length === 0)).toBe(true);

    const first = items[0]!;
    await fake.client.annotationQueues.items.progress(queueId, first.id, {
      project_id: PROJECT,
      annotation_state: "completed",
    });
    const done = await fake.client.annotationQueues.items
      .list(queueId, { project_id: PROJECT, filter: { annotation_states: ["completed"] } })
      .toArray();
    expect(done.map((i) => i.id)).toEqual([first.id]);
    expect(done[0]!.annotator_user_id).toBe(fake.svc.state.userId);
    expect((await fake.client.annotationQueues.stats({ project_id: PROJECT, queue_ids: [queueId] })).stats[0]).toEqual({
      queue_id: queueId,
      total_items: 3,
      completed_items: 1,
    });
  });
});

describe("feedback", () => {
  it("create, query, replace and purge; a call query with include_feedback returns it", async () => {
    fake.svc.state.calls.insert(weaveTrace(3, "c", [{ messages: [], reply: "z" }]));
    const created = await fake.client.feedback.create({
      project_id: PROJECT,
      weave_ref: ref("root-3"),
      feedback_type: "wandb.annotation.quality",
      annotation_ref: SPEC,
      payload: { value: 1 },
    });
    expect(created).toMatchObject({ id: expect.any(String), wb_user_id: fake.svc.state.userId, payload: { value: 1 } });
    const reaction = await fake.client.feedback.create({
      project_id: PROJECT,
      weave_ref: ref("root-3"),
      feedback_type: "wandb.reaction.1",
      payload: { emoji: "👍" },
    });
    expect(reaction.payload).toMatchObject({ emoji: "👍", alias: ":thumbs_up:" });

    const [root] = await fake.client.calls
      .query({ project_id: PROJECT, filter: { call_ids: ["root-3"] }, include_feedback: true })
      .toArray();
    expect(root!.summary?.weave?.feedback?.map((f) => [f.feedback_type, f.payload])).toEqual([
      ["wandb.annotation.quality", { value: 1 }],
      ["wandb.reaction.1", reaction.payload],
    ]);

    const annotations = await fake.client.feedback
      .query({ project_id: PROJECT, query: q.where(q.eq(q.field("feedback_type"), "wandb.annotation.quality")) })
      .toArray();
    expect(annotations.map((r) => r.id)).toEqual([created.id]);

    const replaced = await fake.client.feedback.replace({
      project_id: PROJECT,
      weave_ref: ref("root-3"),
      feedback_type: "wandb.annotation.quality",
      annotation_ref: SPEC,
      payload: { value: 0 },
      feedback_id: created.id,
    });
    await fake.client.feedback.purge({ project_id: PROJECT, query: q.where(q.eq(q.field("id"), reaction.id)) });
    const rows = await fake.client.feedback.query({ project_id: PROJECT }).toArray();
    expect(rows.map((r) => [r.id, r.payload])).toEqual([[replaced.id, { value: 0 }]]);
  });
});

describe("calls.trajectoryGroups", () => {
  const quality = (root: CallRecord) => {
    const f = root.summary?.weave?.feedback?.find((x) => x.feedback_type === "wandb.annotation.quality");
    return f === undefined ? undefined : Number(f.payload?.["value"]);
  };
  const review = (id: string, value: number) =>
    fake.client.feedback.create({
      project_id: PROJECT,
      weave_ref: ref(id),
      feedback_type: "wandb.annotation.quality",
      annotation_ref: SPEC,
      payload: { value },
    });

  it("rebuilds each reviewed trace as captureTrajectory records it, grouped, with the reviewer's reward", async () => {
    const sys = { role: "system", content: "Be brief." };
    const u1 = { role: "user", content: "2+2?" };
    fake.svc.state.calls.insert([
      ...weaveTrace(10, "p1", [
        { messages: [sys, u1], reply: "4", logprobs: true },
        { messages: [sys, u1, { role: "assistant", content: "4" }, { role: "user", content: "sure?" }], reply: "yes" },
        { messages: [{ role: "user", content: "unrelated" }], reply: "side" },
      ]),
      ...weaveTrace(11, "p1", [{ messages: [sys, u1], reply: "5" }]),
      ...weaveTrace(12, "p2", [{ messages: [u1], reply: "four" }]),
      ...weaveTrace(13, "p2", [{ messages: [u1], reply: "unreviewed" }]),
    ]);
    await review("root-10", 1);
    await review("root-11", 0);
    await review("root-12", 0.5);
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const groups = await fake.client.calls.trajectoryGroups(
      { project_id: PROJECT, query: q.where(q.eq(q.field("op_name"), `weave:///${PROJECT}/op/rollout:abc`)) },
      { groupBy: (root) => String(root.inputs["prompt"]), reward: quality, pageSize: 2 },
    );
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("1 trace(s) had no reward"), expect.anything());
    warn.mockRestore();
    expect(groups.map((g) => g.trajectories.map((t) => t.reward))).toEqual([[1, 0], [0.5]]);
    const t = groups[0]!.trajectories[0]!;
    expect(t.metadata["trace_id"]).toBe("trace-10");
    expect(t.messages_and_choices).toEqual([
      sys,
      u1,
      {
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: "4" },
        logprobs: { content: [{ token: "4", logprob: -0.5, bytes: [1], top_logprobs: [] }] },
        token_ids: [7],
      },
      { role: "user", content: "sure?" },
      { index: 0, finish_reason: "stop", message: { role: "assistant", content: "yes" } },
    ]);
    expect(t.additional_histories).toEqual([
      {
        messages_and_choices: [
          { role: "user", content: "unrelated" },
          { index: 0, finish_reason: "stop", message: { role: "assistant", content: "side" } },
        ],
        tools: null,
      },
    ]);
    // Two queries per page of roots (pageSize 2 over 4 roots): roots, then every call of their
    // traces, each with its feedback.
    const queries = fake.svc.requests
      .filter((r) => r.path === "/calls/stream_query")
      .map((r) => r.json as Record<string, any>);
    expect(queries.filter((b) => b.filter?.trace_ids).map((b) => b.filter.trace_ids.length)).toEqual([2, 2]);
    expect(queries.every((b) => b.include_feedback === true)).toBe(true);
    expect(queries.filter((b) => !b.filter?.trace_ids).every((b) => b.filter.trace_roots_only === true)).toBe(true);
  });

  it("a zero reward is a reward; traces it cannot build are left out and said once, with counts and ids", async () => {
    fake.svc.state.calls.insert(weaveTrace(20, "p", [{ messages: [{ role: "user", content: "hi" }], reply: "hey" }]));
    fake.svc.state.calls.insert(weaveTrace(21, "p", []));
    fake.svc.state.calls.insert(weaveTrace(22, "p", []));
    const unfinished = weaveTrace(23, "p", [{ messages: [{ role: "user", content: "hi" }], reply: "cut" }]);
    (unfinished[1]!.output as { choices: Array<{ finish_reason: unknown }> }).choices[0]!.finish_reason = null;
    fake.svc.state.calls.insert(unfinished);
    for (const [n, value] of [
      [20, 0],
      [21, 1],
      [22, 1],
      [23, 1],
    ] as const)
      await review(`root-${n}`, value);
    const params = { project_id: PROJECT, filter: { trace_ids: ["trace-20", "trace-21", "trace-22", "trace-23"] } };
    const seen: SkippedTrace[][] = [];
    const groups = await fake.client.calls.trajectoryGroups(params, {
      groupBy: () => "all",
      reward: quality,
      onSkip: (skipped) => seen.push(skipped),
    });
    expect(groups[0]!.trajectories.map((t) => [t.metadata["trace_id"], t.reward])).toEqual([["trace-20", 0]]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.map((s) => [s.trace_id, s.root_id, s.reason])).toEqual([
      ["trace-21", "root-21", "no_chat_call"],
      ["trace-22", "root-22", "no_chat_call"],
      ["trace-23", "root-23", "no_finished_reply"],
    ]);
    expect(seen[0]![2]!.message).toMatch(/did not finish/);

    // Without onSkip: one warning, with the counts and the trace ids.
    const warnings = captureWarnings();
    const again = await fake.client.calls.trajectoryGroups(params, { groupBy: () => "all", reward: quality });
    expect(again[0]!.trajectories).toHaveLength(1);
    expect(warnings.codes()).toEqual(["INFERLOOP_SKIPPED_TRACES"]);
    expect(warnings.messages()[0]).toBe(
      "calls.trajectoryGroups: 3 trace(s) left out, 2 with no chat-completion call and 1 with no finished reply: trace trace-21, trace-22, trace-23; pass onSkip to handle them",
    );
  });

  it("feedback on any call of a trace reaches reward, beside the root", async () => {
    const u = { role: "user", content: "2+2?" };
    fake.svc.state.calls.insert([
      ...weaveTrace(30, "p", [
        { messages: [u], reply: "4" },
        { messages: [u, { role: "assistant", content: "4" }, { role: "user", content: "sure?" }], reply: "yes" },
      ]),
      ...weaveTrace(31, "p", [{ messages: [u], reply: "5" }]),
    ]);
    // A reviewer scored the chat calls, not the roots; one root got a note as well.
    await review("chat-30-1", 0.9);
    await review("chat-31-0", 0.1);
    await fake.client.feedback.create({
      project_id: PROJECT,
      weave_ref: ref("root-30"),
      feedback_type: "wandb.note.1",
      payload: { note: "good" },
    });
    const traces: Array<{ root: string; calls: string[]; feedback: Array<[string, unknown]> }> = [];
    const groups = await fake.client.calls.trajectoryGroups(
      { project_id: PROJECT, filter: { trace_ids: ["trace-30", "trace-31"] } },
      {
        groupBy: () => "all",
        // Rewards written for the root alone keep working: the trace is a second argument.
        reward: (root, trace) => {
          traces.push({
            root: root.id,
            calls: trace.calls.map((c) => c.id),
            feedback: trace.feedback.map((f) => [f.weave_ref!.split("/").at(-1)!, f.feedback_type]),
          });
          const scores = trace.feedback.filter((f) => f.feedback_type === "wandb.annotation.quality");
          return scores.length === 0 ? undefined : Number(scores.at(-1)!.payload?.["value"]);
        },
      },
    );
    expect(groups[0]!.trajectories.map((t) => t.reward)).toEqual([0.9, 0.1]);
    expect(traces).toEqual([
      {
        root: "root-30",
        calls: ["root-30", "chat-30-0", "chat-30-1"],
        feedback: [
          ["root-30", "wandb.note.1"],
          ["chat-30-1", "wandb.annotation.quality"],
        ],
      },
      { root: "root-31", calls: ["root-31", "chat-31-0"], feedback: [["chat-31-0", "wandb.annotation.quality"]] },
    ]);
  });

  it("refuses a misspelt option or a reward that is no function, nothing sent", async () => {
    const sent = fake.svc.requests.length;
    const misspelt = await caught(() =>
      fake.client.calls.trajectoryGroups({ project_id: PROJECT }, {
        groupBy: () => "all",
        reward: quality,
        onskip: () => {},
      } as unknown as TrajectoryGroupsOptions),
    );
    expect((misspelt as RequestValidationError).issues).toEqual([
      { path: "onskip", message: 'unknown option "onskip" (did you mean "onSkip"?)', code: "unknown_option" },
    ]);
    const noReward = await caught(() =>
      fake.client.calls.trajectoryGroups({ project_id: PROJECT }, {
        groupBy: () => "all",
        reward: 1,
      } as unknown as TrajectoryGroupsOptions),
    );
    expect((noReward as RequestValidationError).issues[0]!.path).toBe("reward");
    expect(fake.svc.requests.length).toBe(sent);
  });

  it("a trajectory and a reviewed trace become SFT rows trainSFT takes as they are", async () => {
    const u = { role: "user" as const, content: "2+2?" };
    const tool = { type: "function" as const, function: { name: "add", parameters: { type: "object" } } };
    const t = new Trajectory({ messages_and_choices: [u], tools: [tool] });
    t.record({ index: 0, finish_reason: "stop", message: { role: "assistant", content: "4" }, logprobs: null });
    const row: SFTRow = t.toSFTRow();
    expect(row).toEqual({ messages: [u, { role: "assistant", content: "4" }], tools: [tool] });

    fake.svc.state.calls.insert(weaveTrace(40, "p", [{ messages: [u], reply: "four", logprobs: true }]));
    await review("root-40", 1);
    const [group] = await fake.client.calls.trajectoryGroups(
      { project_id: PROJECT, filter: { trace_ids: ["trace-40"] } },
      { groupBy: () => "all", reward: quality },
    );
    const reviewed = group!.trajectories.map((x) => x.toSFTRow());
    // The row carries the reply as a message: no logprobs or token ids.
    expect(reviewed).toEqual([{ messages: [u, { role: "assistant", content: "four" }] }]);
    const model = await fake.client.trainableModels.register({
      project: "sft",
      name: "from-review",
      base_model: "OpenPipe/Qwen3-14B-Instruct",
    });
    const { step } = await model.trainSFT([row, ...reviewed], { pollInterval: 5 });
    expect(step).toBe(1);
  });

  it("refuses a page of roots larger than Weave's trace_ids cap, nothing sent", async () => {
    const sent = fake.svc.requests.length;
    const err = await caught(() =>
      fake.client.calls.trajectoryGroups(
        { project_id: PROJECT },
        { groupBy: () => "all", reward: quality, pageSize: 1001 },
      ),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues[0]!.path).toBe("pageSize");
    expect(fake.svc.requests.length).toBe(sent);
  });

  it("reads GenAI spans as the trace server ingests them from OTLP", async () => {
    const messages = [{ role: "user", content: "echo otel" }];
    fake.svc.state.calls.insert([
      {
        id: "aaaaaaaaaaaaaaaa",
        project_id: PROJECT,
        op_name: "chat m",
        trace_id: "0123456789abcdef0123456789abcdef",
        parent_id: null,
        started_at: at(),
        ended_at: at(),
        attributes: { model: "m", operation: "chat" },
        inputs: { "gen_ai.input.messages": JSON.stringify(messages) },
        output: { "gen_ai.output.messages": JSON.stringify([{ role: "assistant", content: "otel" }]) },
        summary: {},
      },
    ]);
    await review("aaaaaaaaaaaaaaaa", 1);
    // An OTLP span's op name is no Weave op ref: the SDK's bare-op-name hint is expected.
    const warnings = captureWarnings();
    const [group] = await fake.client.calls.trajectoryGroups(
      { project_id: PROJECT, filter: { op_names: ["chat m"] } },
      { groupBy: () => "all", reward: quality },
    );
    expect(warnings.codes()).toEqual(["INFERLOOP_BARE_OP_NAME"]);
    expect(group!.trajectories[0]!.messages_and_choices).toEqual([
      ...messages,
      { index: 0, finish_reason: "stop", message: { role: "assistant", content: "otel" } },
    ]);
  });
});
