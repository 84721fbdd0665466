/**
 * The SDK side of call-query filters, over real HTTP to the fake trace store: a misspelt filter
 * key is refused with the key meant (a trace server would ignore it and widen the result),
 * other unknown keys are sent as written, and a bare op name in `op_names` (never an op ref,
 * so it matches nothing on a real server) gets a hint, once per client.
 */
import { describe, expect, it } from "vitest";
import { type CallsQueryParams, type Logger, RequestValidationError } from "../../src/index.js";
import { SEED_PROJECT_ID } from "../../src/testing/index.js";
import { captureWarnings } from "../warnings.js";
import { caught, clientFor, useFakeService } from "./helpers.js";

const fake = useFakeService();

const PROJECT = SEED_PROJECT_ID;

function warnings(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const ignore = () => {};
  return { logger: { error: ignore, warn: (m) => lines.push(m), info: ignore, debug: ignore }, lines };
}

describe("unknown keys inside filter", () => {
  it.each([
    ["op_name", "op_names"],
    ["trace_id", "trace_ids"],
    ["wb_user_id", "wb_user_ids"],
    ["trace_root_only", "trace_roots_only"],
    ["user_ids", "wb_user_ids"],
    ["run_ids", "wb_run_ids"],
  ])("%s is refused with did you mean %s, and nothing is sent", async (typo, meant) => {
    const params = { project_id: PROJECT, filter: { [typo]: ["x"] } } as CallsQueryParams;
    const err = await caught(() => fake.client.calls.query(params).toArray());
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues).toEqual([
      {
        path: `filter.${typo}`,
        code: "custom",
        message: `unknown field "${typo}" (did you mean "${meant}"?); trace servers ignore unknown filter keys`,
      },
    ]);
    expect((err as Error).message).toContain(`filter.${typo}: unknown field "${typo}" (did you mean "${meant}"?)`);
    expect(fake.svc.requests).toHaveLength(0);
  });

  it("a key far from every known one is sent as written (for servers newer than the SDK)", async () => {
    const params = { project_id: PROJECT, limit: 1, filter: { evaluation_ids: ["e1"] } } as CallsQueryParams;
    await fake.client.calls.query(params).toArray();
    expect((fake.svc.requests[0]!.json as { filter: unknown }).filter).toEqual({ evaluation_ids: ["e1"] });
  });
});

describe("bare op names in filter.op_names", () => {
  it("warns once per client, naming the ref that matches every version", async () => {
    const { logger, lines } = warnings();
    const warned = clientFor(fake.svc, { logger, logLevel: "warn" });
    const bare = { project_id: PROJECT, filter: { op_names: ["answer_ticket"] } };
    expect(await warned.calls.query(bare).toArray()).toEqual([]);
    await warned.calls.query(bare).toArray();
    expect(lines).toEqual([
      `[inferloop] calls.query: op_names entry "answer_ticket" is not an op ref (weave:///<entity>/<project>/op/<name>:<digest>) and matches no call; for every version write "weave:///${PROJECT}/op/answer_ticket:*"`,
    ]);
    // Sent as written all the same: the hint is advice, not a refusal.
    expect((fake.svc.requests[0]!.json as { filter: unknown }).filter).toEqual({ op_names: ["answer_ticket"] });
  });

  it("says nothing of refs, and nothing in the logger when logging is off (the default): a process warning says it", async () => {
    const { logger, lines } = warnings();
    const emitted = captureWarnings();
    const ref = `weave:///${PROJECT}/op/answer_ticket:*`;
    await clientFor(fake.svc, { logger, logLevel: "warn" })
      .calls.query({ project_id: PROJECT, limit: 1, filter: { op_names: [ref] } })
      .toArray();
    await clientFor(fake.svc, { logger })
      .calls.query({ project_id: PROJECT, limit: 1, filter: { op_names: ["answer_ticket"] } })
      .toArray();
    expect(lines).toEqual([]);
    expect(emitted.codes()).toEqual(["INFERLOOP_BARE_OP_NAME"]);
  });
});
