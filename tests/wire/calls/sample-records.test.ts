import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { CallRecord, CallStatus, LLMCost } from "../../../src/wire/calls/index.js";
import { sampleRecords } from "./sample-records.js";

const fixtureUrl = new URL("../../fixtures/calls/sample-records.jsonl", import.meta.url);

function readFixture(): CallRecord[] {
  return readFileSync(fixtureUrl, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as CallRecord);
}

describe("sample call records (weave.md section 8)", () => {
  const records = readFixture();

  it("holds the four lines, equal to the literal that the compiler checks against CallRecord", () => {
    expect(records).toHaveLength(4);
    expect(records).toStrictEqual(sampleRecords);
    // Compile-time: the literal is a CallRecord[] (see sample-records.ts, `satisfies`).
    expectTypeOf(sampleRecords).toExtend<CallRecord[]>();
  });

  it("reads typed fields of a finished call with costs and feedback", () => {
    const [answer] = records;
    if (answer === undefined) throw new Error("fixture is empty");
    expect(answer.op_name).toMatch(/^weave:\/\/\/acme\/support-bot\/op\/answer_ticket:/);
    expect(new Date(answer.started_at).toISOString()).toBe("2025-03-18T17:04:12.345Z");
    expect(answer.parent_id).toBeNull();

    const cost = answer.summary?.weave?.costs?.["gpt-4o-mini-2024-07-18"];
    expectTypeOf(cost).toEqualTypeOf<LLMCost | undefined>();
    expectTypeOf(cost?.prompt_tokens_total_cost).toEqualTypeOf<number | null | undefined>();
    expect(cost?.prompt_tokens_total_cost).toBe(0.0000618);
    expect(cost?.prompt_token_cost_unit).toBe("USD");

    const usage = answer.summary?.usage?.["gpt-4o-mini-2024-07-18"];
    expect(usage?.total_tokens).toBe(470);
    expect(answer.summary?.status_counts?.success).toBe(2);

    const [reaction] = answer.summary?.weave?.feedback ?? [];
    expect(reaction?.feedback_type).toBe("wandb.reaction.1");
    expect(reaction?.payload?.["emoji"]).toBe("👍");
    expect(reaction).not.toHaveProperty("id");
  });

  it("reads the error call and the running call", () => {
    const failed = records[2];
    const running = records[3];
    expectTypeOf<NonNullable<NonNullable<CallRecord["summary"]>["weave"]>["status"]>().toEqualTypeOf<
      CallStatus | undefined
    >();
    expect(failed?.summary?.weave?.status).toBe("error");
    expect(failed?.exception).toMatch(/^RateLimitError/);
    expect(failed?.summary?.weave?.display_name).toBe("classify-intent");
    expect(failed?.wb_run_step).toBe(7);
    expect(running?.ended_at).toBeNull();
    expect(running?.summary?.weave?.status).toBe("running");
    expect(running?.summary?.weave?.latency_ms).toBeUndefined();
  });

  it("accepts records from older servers without the newest fields", () => {
    const oldest: CallRecord = {
      id: "c",
      project_id: "acme/p",
      op_name: "op",
      trace_id: "t",
      started_at: "2025-01-01T00:00:00Z",
      attributes: {},
      inputs: {},
    };
    expect(oldest.expire_at).toBeUndefined();
    expect(oldest.wb_username).toBeUndefined();
  });

  it("keeps unknown fields typed as unknown", () => {
    const future: CallRecord = { ...sampleRecords[0]!, latest_version: true };
    expectTypeOf(future["latest_version"]).toEqualTypeOf<unknown>();
    expect(future["latest_version"]).toBe(true);
  });
});
