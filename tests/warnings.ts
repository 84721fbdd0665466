/**
 * For tests whose subject warns (a finding that does not throw, see src/core/errors/findings.ts):
 * the warnings the SDK emits through `process.emitWarning` are caught for the rest of the
 * test, so they can be asserted and `npm test` prints none it did not ask for. A warning no
 * test expects still reaches the output: there is no global filter.
 */
import { afterEach, beforeEach, expect, onTestFinished, vi } from "vitest";

/** What was emitted: one entry per `process.emitWarning` call. */
export interface CapturedWarnings {
  /** The `code` of each warning, in order (`INFERLOOP_UNIFORM_REWARDS`, ...). */
  readonly codes: () => string[];
  /** The text of each warning, in order. */
  readonly messages: () => string[];
}

/**
 * Catches `process.emitWarning` until the current test ends (then the spy is removed).
 *
 * @example
 * ```ts
 * const warnings = captureWarnings();
 * await client.trainingJobs.create(job);
 * expect(warnings.codes()).toEqual(["INFERLOOP_UNIFORM_REWARDS"]);
 * ```
 */
export function captureWarnings(): CapturedWarnings {
  const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
  onTestFinished(() => emit.mockRestore());
  const calls = () => emit.mock.calls as unknown as [unknown, { code?: string } | string | undefined][];
  return {
    codes: () => calls().map(([, o]) => (typeof o === "object" && o !== null ? String(o.code) : String(o))),
    messages: () => calls().map(([m]) => (m instanceof Error ? m.message : String(m))),
  };
}

/**
 * For a file whose inputs are generated or table-driven (property tests, fault tables), where
 * some inputs make the SDK warn: every test of the file catches `process.emitWarning`, and
 * each warning caught must have one of the `expected` codes (anything else fails the test).
 *
 * @example
 * ```ts
 * catchWarningsOfEachTest(["INFERLOOP_UNIFORM_REWARDS", "INFERLOOP_BARE_OP_NAME"]);
 * ```
 */
export function catchWarningsOfEachTest(expected: readonly string[]): void {
  let emit: { mock: { calls: unknown[][] }; mockRestore(): void } | undefined;
  beforeEach(() => {
    emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
  });
  afterEach(() => {
    const calls = emit?.mock.calls ?? [];
    emit?.mockRestore();
    for (const [message, options] of calls) {
      const code = typeof options === "object" && options !== null ? (options as { code?: string }).code : options;
      expect(expected, String(message)).toContain(code);
    }
  });
}
