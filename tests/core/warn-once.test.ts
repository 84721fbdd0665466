/**
 * The one rule for findings that do not throw: each kind once per process, through
 * process.emitWarning with a code (so `--disable-warning=<code>` and `process.on("warning")`
 * work), or console.warn where there is no process; never both.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { warnOnce } from "../../src/core/errors/findings.js";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("warnOnce", () => {
  it("emits a process warning of type InferloopWarning with the kind's code, once per code", () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const log = vi.spyOn(console, "warn").mockImplementation(() => {});
    warnOnce("INFERLOOP_TEST_ONE", "first");
    warnOnce("INFERLOOP_TEST_ONE", "again");
    warnOnce("INFERLOOP_TEST_TWO", "second");
    expect(emit.mock.calls).toEqual([
      ["first", { type: "InferloopWarning", code: "INFERLOOP_TEST_ONE" }],
      ["second", { type: "InferloopWarning", code: "INFERLOOP_TEST_TWO" }],
    ]);
    expect(log).not.toHaveBeenCalled();
  });

  it("without a process (a browser, a worker), says it once on console.warn instead", () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const log = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubGlobal("process", undefined);
    warnOnce("INFERLOOP_TEST_BROWSER", "no process here");
    warnOnce("INFERLOOP_TEST_BROWSER", "no process here");
    vi.unstubAllGlobals();
    expect(log.mock.calls).toEqual([["InferloopWarning: no process here"]]);
    expect(emit).not.toHaveBeenCalled();
  });
});
