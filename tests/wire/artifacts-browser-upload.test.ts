/**
 * The browser build's artifact upload (`multipart.browser.ts`, which the build puts in place of
 * `multipart.ts`) sends each file in one PUT, so a file over S3's 5 GiB single-PUT limit is
 * refused once read, before any request, naming the Node build's multipart upload. The held
 * file is a stand-in of that size (reading 5 GiB in a test is not the point); the rest of the
 * upload is the SDK's own code against msw, which records that nothing was sent.
 */
import { describe, expect, it, vi } from "vitest";
import { RequestValidationError } from "../../src/index.js";
import { checkHeldSizes } from "../../src/wire/artifacts/multipart.browser.js";
import { makeClient, useMsw } from "../core/msw-setup.js";

const GiB = 1024 ** 3;
const HUGE = "a file of 5 GiB and one byte";

vi.mock("../../src/wire/artifacts/multipart.js", () => import("../../src/wire/artifacts/multipart.browser.js"));
vi.mock("../../src/wire/artifacts/file-data.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/wire/artifacts/file-data.js")>();
  return {
    ...real,
    holdData: async (data: unknown, field: string) => {
      if (data !== HUGE) return real.holdData(data as string, field);
      const body = { length: 5 * GiB + 1, stream: async function* () {} };
      return {
        size: 5 * GiB + 1,
        digest: "1B2M2Y8AsgTpgAmY7PhCfg==",
        body,
        slice: () => body,
        dispose: async () => {},
      };
    },
  };
});

const { seen } = useMsw();

describe("the browser build's single-PUT upload", () => {
  it("refuses a file over 5 GiB before sending anything, naming the Node build's multipart upload", async () => {
    const client = makeClient({ wandbBaseURL: "https://api.wandb.test", maxRetries: 0 });
    const err = await client.artifacts
      .upload({
        entity: "acme",
        project: "rl",
        name: "d",
        type: "dataset",
        files: [
          { name: "small", data: "x" },
          { name: "big", data: HUGE },
        ],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).issues.map((i) => i.path)).toEqual(["files.1.data"]);
    expect((err as Error).message).toMatch(/S3's single-PUT limit.*upload it from Node.*multipart upload/);
    expect((err as Error).message).toMatch(/Nothing was sent\.$/);
    expect(seen).toHaveLength(0);
  });

  it("takes a file of exactly 5 GiB (one PUT may carry it)", () => {
    const held = (size: number) => ({ size, digest: "", body: { length: size, stream: async function* () {} } });
    expect(() => checkHeldSizes([held(5 * GiB)] as never)).not.toThrow();
    expect(() => checkHeldSizes([held(5 * GiB + 1)] as never)).toThrow(RequestValidationError);
  });
});
