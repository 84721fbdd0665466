/**
 * `inferloop/ai-sdk` (specification v4, for `ai` 7) made in an app whose `ai` is 6 says, once, to
 * import `inferloop/ai-sdk/v3`: `ai` 6 refuses a v4 model inside its own code before inferloop is
 * called. The app's `ai` is read from its working directory: here a temporary project whose
 * `node_modules/ai` is the real `ai` 6 (the `ai6` alias) or `ai` 7.
 */
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { captureWarnings } from "../warnings.js";

const repoModules = join(import.meta.dirname, "..", "..", "node_modules");
let app: string;

/** A project in a temp dir whose `ai` is the repository's `ai6` or `ai` package. */
async function appWith(pkg: "ai6" | "ai"): Promise<void> {
  await mkdir(join(app, "node_modules"), { recursive: true });
  await symlink(join(repoModules, pkg), join(app, "node_modules", "ai"), "dir");
  vi.spyOn(process, "cwd").mockReturnValue(app);
}

/** The v4 entry, loaded afresh (its once-per-process memory with it). */
async function v4() {
  vi.resetModules();
  return import("../../src/ai-sdk/index.js");
}

beforeEach(async () => {
  app = await mkdtemp(join(tmpdir(), "inferloop-ai-app-"));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(app, { recursive: true, force: true });
});

describe("creating the v4 provider", () => {
  it("under ai 6, says once to import inferloop/ai-sdk/v3", async () => {
    await appWith("ai6");
    const warnings = captureWarnings();
    const { createInferloopProvider } = await v4();
    createInferloopProvider({ baseURL: "http://127.0.0.1:9", apiKey: "k" });
    createInferloopProvider({ baseURL: "http://127.0.0.1:9", apiKey: "k" });
    expect(warnings.codes()).toEqual(["INFERLOOP_AI_SDK_VERSION"]);
    expect(warnings.messages()[0]).toMatch(
      /this app has ai 6\.\d+\.\d+, which refuses them \("Unsupported model version v4"\): import \{ createInferloopProvider \} from 'inferloop\/ai-sdk\/v3' instead/,
    );
  });

  it("under ai 7, or where no ai can be read, says nothing", async () => {
    await appWith("ai");
    const warnings = captureWarnings();
    (await v4()).createInferloopProvider({ baseURL: "http://127.0.0.1:9", apiKey: "k" });
    vi.spyOn(process, "cwd").mockReturnValue(tmpdir());
    (await v4()).createInferloopProvider({ baseURL: "http://127.0.0.1:9", apiKey: "k" });
    expect(warnings.codes()).toEqual([]);
  });

  it("the v3 entry says nothing under ai 6", async () => {
    await appWith("ai6");
    const warnings = captureWarnings();
    vi.resetModules();
    const { createInferloopProvider } = await import("../../src/ai-sdk/v3.js");
    createInferloopProvider({ baseURL: "http://127.0.0.1:9", apiKey: "k" });
    expect(warnings.codes()).toEqual([]);
  });
});
