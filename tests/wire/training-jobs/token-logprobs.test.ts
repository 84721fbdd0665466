/**
 * Token logprob lists of a training job are checked by a loop rather than entry by entry
 * through zod (a large job holds millions): the job schema must still accept and refuse
 * exactly what `tokenLogprobSchema` does, with its issues at the entry's path.
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeParse } from "zod/v4/core";
import { Trajectory, tokenLogprobSchema, trainingJobCreateParamsSchema } from "../../../src/index.js";

const MODEL_ID = "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b";
const AT = 5;

function choice(entry: unknown, list: "content" | "refusal" = "content") {
  const entries: unknown[] = Array.from({ length: 8 }, (_, i) => ({
    token: `t${i}`,
    logprob: -i,
    bytes: [116],
    top_logprobs: [],
  }));
  entries[AT] = entry;
  return {
    index: 0,
    finish_reason: "stop",
    message: { role: "assistant", content: "x" },
    logprobs: { [list]: entries },
  };
}

/** The job schema's verdict on one entry: "ok", or its issues below the entry, as paths and codes. */
function byJob(entry: unknown, list: "content" | "refusal" = "content"): string[] | "ok" {
  const params = {
    model_id: MODEL_ID,
    trajectory_groups: [{ trajectories: [{ messages_and_choices: [choice(entry, list)] }] }],
  };
  const result = safeParse(trainingJobCreateParamsSchema, params);
  if (result.success) return "ok";
  const prefix = `trajectory_groups.0.trajectories.0.messages_and_choices.0.logprobs.${list}.${AT}`;
  const lines = result.error.issues.map((i) => `${i.path.join(".")} ${i.code}`);
  // Everything refused is refused at the entry, with the entry schema's own issues.
  expect(
    lines.every((line) => line.startsWith(prefix)),
    lines.join("\n"),
  ).toBe(true);
  return lines.map((line) => line.slice(prefix.length));
}

function byEntrySchema(entry: unknown): string[] | "ok" {
  const result = safeParse(tokenLogprobSchema, entry);
  return result.success
    ? "ok"
    : result.error.issues.map((i) => `${i.path.map((p) => `.${String(p)}`).join("")} ${i.code}`);
}

describe("token logprob lists of a training job", () => {
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
  ])("decide %s as tokenLogprobSchema does, with its issues", (_, entry) => {
    expect(byJob(entry)).toEqual(byEntrySchema(entry));
    expect(byJob(entry, "refusal")).toEqual(byEntrySchema(entry));
  });

  it("refuses a list that is not an array", () => {
    const params = {
      model_id: MODEL_ID,
      trajectory_groups: [
        { trajectories: [{ messages_and_choices: [{ ...choice(null), logprobs: { content: "x" } }] }] },
      ],
    };
    expect(safeParse(trainingJobCreateParamsSchema, params).success).toBe(false);
  });

  it("decide arbitrary entries as tokenLogprobSchema does", async () => {
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
        expect(byJob(e)).toEqual(byEntrySchema(e));
      }),
      { numRuns: 300 },
    );
  });

  it("accepts Trajectory objects as they are: their fields are the wire fields", () => {
    const t = new Trajectory({
      messages_and_choices: [
        { role: "user", content: "q" },
        {
          index: 0,
          finish_reason: "stop",
          message: { role: "assistant", content: "a" },
          logprobs: { content: [{ token: "a", logprob: -1 }] },
        },
      ],
    });
    const params = { model_id: MODEL_ID, trajectory_groups: [{ trajectories: [t, new Trajectory({ reward: 1 })] }] };
    expect(safeParse(trainingJobCreateParamsSchema, params).success).toBe(true);
  });
});
