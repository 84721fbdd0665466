/**
 * A real Weave server ignores filter.svc_user_ids / svc_run_ids and answers unfiltered, so the
 * SDK warns at run time, by default, once per process per name.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Inferloop } from "../../../src/index.js";

function client(): Inferloop {
  const fetch = async (): Promise<Response> => new Response("", { status: 200 });
  return new Inferloop({ baseURL: "http://weave.test", apiKey: "k", fetch, maxRetries: 0 });
}

afterEach(() => vi.restoreAllMocks());

describe("svc_* filter names", () => {
  it("warn once per process through process.emitWarning, naming the wb_* replacement", async () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const c = client();
    await c.calls.query({ project_id: "acme/bot", filter: { wb_user_ids: ["u"] } }).toArray();
    expect(emit).not.toHaveBeenCalled();
    await c.calls.query({ project_id: "acme/bot", filter: { svc_user_ids: ["u"] } }).toArray();
    await c.calls.query({ project_id: "acme/bot", filter: { svc_user_ids: ["v"] } }).toArray();
    expect(emit).toHaveBeenCalledTimes(1);
    expect(String(emit.mock.calls[0]![0])).toMatch(/svc_user_ids is ignored by Weave.*wb_user_ids/);
    await c.calls.query({ project_id: "acme/bot", filter: { svc_run_ids: ["r"] } }).toArray();
    expect(emit).toHaveBeenCalledTimes(2);
    expect(String(emit.mock.calls[1]![0])).toMatch(/svc_run_ids is ignored by Weave.*wb_run_ids/);
  });
});
