/**
 * The training-job body check: token lists are checked by a loop instead of zod, so it must
 * accept and refuse exactly what `trainingJobCreateParamsSchema` does, with the same issues.
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateInput } from "../../../src/core/validate.js";
import { RequestValidationError, Trajectory, trainingJobCreateParamsSchema } from "../../../src/index.js";
import { trainingJobBody } from "../../../src/resources/training-jobs/job-body.js";

const MODEL_ID = "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b";

function job(entry: unknown, at = 5) {
  const content: unknown[] = Array.from({ length: 8 }, (_, i) => ({
    token: `t${i}`,
    logprob: -i,
    bytes: [116],
    top_logprobs: [],
  }));
  content[at] = entry;
  const choice = {
    index: 0,
    finish_reason: "stop",
    message: { role: "assistant", content: "x" },
    logprobs: { content },
    token_ids: [1],
  };
  return {
    model_id: MODEL_ID,
    trajectory_groups: [
      { trajectories: [{ messages_and_choices: [{ role: "user", content: "q" }], reward: 0 }] },
      { trajectories: [{ messages_and_choices: [{ role: "user", content: "q" }, choice], reward: 1 }] },
    ],
  };
}

function outcome(check: () => unknown): string {
  try {
    check();
    return "ok";
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    return JSON.stringify(err.issues);
  }
}

const bySchema = (params: unknown) =>
  outcome(() => validateInput(trainingJobCreateParamsSchema, params, "training job"));
const byBody = (params: unknown) => outcome(() => trainingJobBody(params));

describe("trainingJobBody", () => {
  it.each([
    ["a valid entry", { token: "a", logprob: -0.1, bytes: null }],
    ["no bytes, no top_logprobs", { token: "a", logprob: 0 }],
    ["extra keys", { token: "a", logprob: -1, rank: 3 }],
    ["a NaN logprob", { token: "a", logprob: Number.NaN }],
    ["an infinite logprob", { token: "a", logprob: -Infinity }],
    ["a numeric token", { token: 7, logprob: -1 }],
    ["fractional bytes", { token: "a", logprob: -1, bytes: [1.5] }],
    ["bytes as a string", { token: "a", logprob: -1, bytes: "ab" }],
    ["top_logprobs null", { token: "a", logprob: -1, top_logprobs: null }],
    ["a bad alternative", { token: "a", logprob: -1, top_logprobs: [{ token: "b", logprob: "low" }] }],
    ["an array", ["a", -1]],
    ["null", null],
  ])("decides %s like the schema, with the same issues", (_, entry) => {
    const params = job(entry);
    expect(byBody(params)).toBe(bySchema(params));
  });

  it("reports a bad token entry together with the other problems of the body", () => {
    const params = { ...job({ token: "a", logprob: "x" }), model_id: "nope" };
    const result = byBody(params);
    expect(result).toBe(bySchema(params));
    expect(result).toContain("model_id");
    expect(result).toContain("trajectory_groups.1.trajectories.0.messages_and_choices.1");
  });

  it("matches the schema on arbitrary token entries", async () => {
    const value = fc.oneof(
      fc.string(),
      fc.double(),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
      fc.boolean(),
    );
    const entry = fc.record(
      {
        token: value,
        logprob: value,
        bytes: fc.oneof(value, fc.array(fc.oneof(fc.integer(), fc.double()), { maxLength: 3 })),
        top_logprobs: fc.oneof(value, fc.array(fc.record({ token: value, logprob: value }), { maxLength: 2 })),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.property(entry, (e) => {
        const params = job(e);
        expect(byBody(params)).toBe(bySchema(params));
      }),
      { numRuns: 300 },
    );
  });

  it("sends Trajectory objects as their wire shape and shares the token lists with the input", () => {
    const t = new Trajectory({
      messages_and_choices: [{ role: "user", content: "q" }],
      reward: 1,
      start_time: "2025-03-18T17:04:12Z",
    });
    const params = job({ token: "a", logprob: -1 });
    const choice = params.trajectory_groups[1]!.trajectories[0]!.messages_and_choices[1]!;
    params.trajectory_groups[0]!.trajectories.push(t as never);
    const body = trainingJobBody(params);
    expect(body.trajectory_groups[0]!.trajectories[1]).toEqual(t.toJSON());
    expect(body.trajectory_groups[0]!.trajectories[1]).not.toBeInstanceOf(Trajectory);
    expect(body.trajectory_groups[1]!.trajectories[0]!.messages_and_choices[1]).toBe(choice);
    expect(JSON.stringify(body)).toBe(JSON.stringify(params));
  });
});
