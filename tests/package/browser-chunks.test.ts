// The browser build of the installed tarball, loaded as an ESM runtime loads it unbundled (Deno,
// a page importing `dist/browser.js` from a CDN): its W&B-only namespaces load their chunks at
// their first call (`import()` of `dist/browser-<hash>.js`), against the fake service of
// `inferloop/testing` on loopback. What the chunks throw is the class `browser.js` exports.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type * as sdk from "../../src/index.js";
import type * as testing from "../../src/testing/index.js";

const app = inject("app");
const dist = join(app, "node_modules", "inferloop", "dist");
const load = async <T>(file: string) => (await import(pathToFileURL(join(dist, file)).href)) as T;

let browser: typeof sdk;
let svc: testing.FakeService;
let client: sdk.Inferloop;

beforeAll(async () => {
  browser = await load<typeof sdk>("browser.js");
  svc = await (await load<typeof testing>("testing.js")).startFakeService();
  client = new browser.Inferloop({
    baseURL: svc.url,
    apiKey: svc.apiKey,
    username: svc.username,
    password: svc.password,
    maxRetries: 0,
  });
});

afterAll(async () => {
  await svc?.close();
});

describe("the browser build's namespaces loaded at first use", () => {
  it("answer from their chunks: trainable models, call queries, annotation queues, feedback, job events", async () => {
    expect(client.trainableModels).toBeInstanceOf(browser.TrainableModels);
    expect(await client.trainableModels.baseModels()).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(await client.calls.query({ project_id: "acme/rollouts" }).toArray()).toEqual([]);
    expect(await client.annotationQueues.list({ project_id: "acme/rollouts" }).toArray()).toEqual([]);
    expect(await client.feedback.query({ project_id: "acme/rollouts" }).toArray()).toEqual([]);
    await expect(client.trainingJobs.events.list("no-such-job").toArray()).rejects.toBeInstanceOf(
      browser.NotFoundError,
    );
  });

  it("refuse bad input with the exported RequestValidationError, sending nothing", async () => {
    const before = svc.requests.length;
    const refused: unknown = await client.trainingJobs
      .create({ model_id: "not a uuid", trajectory_groups: [] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(browser.RequestValidationError);
    expect((refused as Error).message).toMatch(/model_id/);
    expect(svc.requests.length).toBe(before);
  });

  it("throw the classes browser.js exports from their own chunks (an artifact W&B does not hold)", async () => {
    await expect(client.artifacts.retrieve("acme/rl/no-such-artifact:v0")).rejects.toBeInstanceOf(
      browser.ArtifactNotFoundError,
    );
  });
});
