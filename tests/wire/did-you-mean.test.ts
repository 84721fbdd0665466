/**
 * A misspelt key is refused with the key meant, wherever the SDK refuses an unknown key: in a
 * trajectory, a trajectory group, the body of any operation, a query operator, the options of
 * a gather or a tool run. Nothing is sent (the client points at a closed port).
 */
import { describe, expect, it } from "vitest";
import { gatherTrajectoryGroups, Inferloop, RequestValidationError, tool } from "../../src/index.js";

const client = new Inferloop({ baseURL: "http://127.0.0.1:9", apiKey: "k", maxRetries: 0 });
const MODEL_ID = "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b";
const choice = { finish_reason: "stop", index: 0, logprobs: null, message: { role: "assistant", content: "4" } };

async function refusal(fn: () => Promise<unknown>): Promise<RequestValidationError> {
  const err = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RequestValidationError);
  return err as RequestValidationError;
}

describe("did you mean, at any depth", () => {
  it("names the trajectory member meant", async () => {
    const trajectory = { messages_and_choices: [choice], rewrad: 1 };
    const err = await refusal(() =>
      client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: [{ trajectories: [trajectory] }] } as never),
    );
    expect(err.issues).toEqual([
      {
        path: "trajectory_groups.0.trajectories.0.rewrad",
        message: 'unknown field "rewrad" (did you mean "reward"?)',
        code: "unrecognized_keys",
      },
    ]);
  });

  it("names the group member meant, and still sends other members of a group", async () => {
    const err = await refusal(() =>
      client.trainingJobs.create({ model_id: MODEL_ID, trajectory_groups: [{ trajectorys: [] }] } as never),
    );
    expect(err.issues.map((i) => [i.path, i.message])).toEqual([
      ["trajectory_groups.0.trajectories", "Invalid input: expected array, received undefined"],
      [
        "trajectory_groups.0.trajectorys",
        'unknown field "trajectorys" (did you mean "trajectories"?); a misspelt field is refused, other unknown fields are sent as written',
      ],
    ]);
  });

  it("names the body field meant on every namespace", async () => {
    const cases: [() => Promise<unknown>, string, string][] = [
      [
        () => client.trainingJobs.create({ model_id: MODEL_ID, trajectory_group: [] } as never),
        "trajectory_group",
        "trajectory_groups",
      ],
      [
        () => client.annotationQueues.create({ project_id: "a/b", name: "q", scorer_ref: [] } as never),
        "scorer_ref",
        "scorer_refs",
      ],
      [
        () => client.feedback.create({ project_id: "a/b", weave_ref: "r", feedback_typ: "x", payload: {} } as never),
        "feedback_typ",
        "feedback_type",
      ],
      [
        () => client.trainableModels.create({ project: "p", name: "n", base_mdel: "b" } as never),
        "base_mdel",
        "base_model",
      ],
    ];
    for (const [call, typo, meant] of cases) {
      const err = await refusal(call);
      expect(err.issues.find((i) => i.path === typo)?.message).toBe(
        `unknown field "${typo}" (did you mean "${meant}"?)`,
      );
    }
  });

  it("names the query operator meant", async () => {
    const err = await refusal(() =>
      client.calls.query({ project_id: "a/b", query: { $expr: { $eqq: [] } } } as never).toArray(),
    );
    expect(err.issues).toEqual([
      { path: "query.$expr.$eqq", message: 'unknown field "$eqq" (did you mean "$eq"?)', code: "unrecognized_keys" },
    ]);
  });

  it("says a field name once: annotation_state, and why unstarted cannot be set", async () => {
    const err = await refusal(() =>
      client.annotationQueues.items.progress("q", "i", { annotation_state: "unstarted", project_id: "a/b" } as never),
    );
    expect(err.message).toBe(
      'Invalid annotation_queues.items.progress request: annotation_state: "unstarted" is the state Weave gives an item nobody has worked on yet, not one a client sets: set "in_progress", "completed" or "skipped". Nothing was sent.',
    );
    const done = await refusal(() =>
      client.annotationQueues.items.progress("q", "i", { annotation_state: "done", project_id: "a/b" } as never),
    );
    expect(done.message).toContain('annotation_state: must be one of "in_progress", "completed" or "skipped".');
  });
});

describe("did you mean, in options", () => {
  it("refuses a misspelt gather option", async () => {
    const err = await refusal(() => gatherTrajectoryGroups([], { concurency: 4 } as never));
    expect(err.message).toBe(
      'Invalid gather options: concurency: unknown option "concurency" (did you mean "concurrency"?). Nothing was sent.',
    );
  });

  it("refuses a misspelt tool-run option", async () => {
    const add = tool({ name: "add", parameters: { type: "object" }, run: () => 1 });
    const run = client.chat.completions.runTools(
      { model: "m", messages: [{ role: "user", content: "hi" }], tools: [add] },
      {
        maxIteration: 3,
      } as never,
    );
    const err = await refusal(() => run.done());
    expect(err.issues[0]).toEqual({
      path: "maxIteration",
      message: 'unknown option "maxIteration" (did you mean "maxIterations"?)',
      code: "unknown_option",
    });
  });
});
